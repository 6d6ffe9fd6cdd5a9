import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { DeliverWebhookMessage } from "../../../src/lib/queue-messages";
import { consumeWebhooks } from "../../../src/queues/webhooks";
import { FAST_LANE_TIMEOUT_MS } from "../../../src/services/webhooks/config";
import { dispatchPendingEvents } from "../../../src/services/webhooks/enqueue-attempts";
import { fetchTransport, type WebhookTransport } from "../../../src/services/webhooks/transport";
import { expectJson, newTenant } from "../../helpers/harness";
import {
  busyWait,
  emitEvent,
  endpointHealth,
  loopbackReceiver,
  registerEndpoint,
  webhookWorld,
} from "./helpers";

// The fast lane's cut-off measures the receiver, not the service: the worker's event loop is
// blocked (a synchronous busy-wait, as a CPU-bound neighbour in the isolate does) for longer
// than the cut-off while a receiver on loopback answers quickly, through the runtime's fetch.

const STALL_MS = FAST_LANE_TIMEOUT_MS + 1_000;

/** Runs one batch of the queue through its consumer, as the runtime would; returns its acks. */
async function consume(
  world: ReturnType<typeof webhookWorld>,
  queue: "webhook-deliveries" | "webhook-slow",
  bodies: DeliverWebhookMessage[],
  transport: WebhookTransport,
) {
  const batch = createMessageBatch<unknown>(
    queue,
    bodies.map((body, i) => ({ id: `m${i}`, timestamp: new Date(), attempts: 1, body })),
  );
  await consumeWebhooks(batch, world.deps, transport, queue === "webhook-slow" ? "slow" : "fast");
  return (await getQueueResult(batch, createExecutionContext())).explicitAcks;
}

/** How long the receiver takes to answer: well within the cut-off, well after the stall began. */
const ANSWER_MS = 100;

async function deliverWhileStalled(stall: () => void) {
  const world = webhookWorld();
  const tenant = await newTenant(["MANAGE_WEBHOOKS"]);
  const receiver = loopbackReceiver({ delay: ANSWER_MS });
  const endpoint = await registerEndpoint(tenant.api, { url: receiver.url });
  const eventId = await emitEvent(tenant.workspaceId, "video.indexed");
  await dispatchPendingEvents(world.deps);
  const stalled: WebhookTransport = (request) => {
    const answer = fetchTransport(request);
    stall();
    return answer;
  };
  expect(await consume(world, "webhook-deliveries", world.queue.take(), stalled)).toEqual(["m0"]);
  // Whatever the fast lane gave up is made in the slow lane, as its consumer would.
  const moved = world.slowQueue.take();
  if (moved.length > 0) await consume(world, "webhook-slow", moved, fetchTransport);

  const history = await expectJson<{ data: { id: string }[] }>(
    await tenant.api.get(`/webhooks/${endpoint.id}/deliveries`),
    200,
  );
  const [delivery] = history.data;
  const detail = await expectJson<{ attempt_log: { duration_ms: number }[] }>(
    await tenant.api.get(`/webhooks/${endpoint.id}/deliveries/${delivery?.id}`),
    200,
  );
  return { moved, history, detail, eventId, receiver, endpoint };
}

describe("the fast lane's cut-off on a stalled service", () => {
  it("does not cut off an answer that arrived while the service was stalled past it", async () => {
    const { moved, history, detail, eventId, receiver, endpoint } = await deliverWhileStalled(
      // The request is on its way; the receiver answers during the stall.
      () => setTimeout(() => busyWait(STALL_MS), ANSWER_MS / 4),
    );
    // Delivered once, by the fast lane: nothing was cut off and sent again.
    expect((await receiver.log()).requests).toEqual([eventId]);
    expect(moved).toEqual([]);
    expect(history.data).toEqual([
      expect.objectContaining({ status: "delivered", attempts: 1, response_status: 204 }),
    ]);
    expect(detail.attempt_log).toHaveLength(1);
    expect(detail.attempt_log[0]?.duration_ms).toBeLessThan(FAST_LANE_TIMEOUT_MS);
    expect(await endpointHealth(endpoint.id)).toEqual({ failing_since: null, slow_since: null });
  });

  it("does not count a stall before the request leaves against the receiver", async () => {
    const { moved, history, detail, eventId, receiver, endpoint } = await deliverWhileStalled(
      // Blocked at once: the request leaves only once the stall is over.
      () => busyWait(STALL_MS),
    );
    expect((await receiver.log()).requests).toEqual([eventId]);
    expect(moved).toEqual([]);
    expect(history.data).toEqual([
      expect.objectContaining({ status: "delivered", attempts: 1, response_status: 204 }),
    ]);
    expect(detail.attempt_log[0]?.duration_ms).toBeLessThan(FAST_LANE_TIMEOUT_MS);
    expect(await endpointHealth(endpoint.id)).toEqual({ failing_since: null, slow_since: null });
  });
});
