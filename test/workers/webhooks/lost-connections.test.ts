import { describe, expect, it } from "vitest";
import type { DeliverWebhookMessage } from "../../../src/lib/queue-messages";
import { RESEND_WINDOW_MS } from "../../../src/services/webhooks/config";
import { attemptDelivery } from "../../../src/services/webhooks/deliver";
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

// Real requests through the runtime's fetch to receivers on loopback: what a pooled
// keep-alive connection does when the receiver has closed it is the runtime's, not a script's.

interface Attempt {
  response_status: number | null;
  duration_ms: number;
  error: string | null;
}
interface Detail {
  status: string;
  attempts: number;
  response_status: number | null;
  event_id: string;
  attempt_log: Attempt[];
}

async function setUp(receiver: ReturnType<typeof loopbackReceiver>, events = 1) {
  const world = webhookWorld();
  const tenant = await newTenant(["MANAGE_WEBHOOKS"]);
  const endpoint = await registerEndpoint(tenant.api, { url: receiver.url });
  const eventIds: string[] = [];
  for (let i = 0; i < events; i++)
    eventIds.push(await emitEvent(tenant.workspaceId, "video.indexed"));
  await dispatchPendingEvents(world.deps);
  const messages = world.queue.take();
  expect(messages).toHaveLength(events);
  /** The delivery a message is for, as GET …/deliveries/{id} answers it. */
  const detail = async (message: DeliverWebhookMessage | undefined) =>
    expectJson<Detail>(
      await world.call(
        tenant.api.key,
        "GET",
        `/webhooks/${endpoint.id}/deliveries/${message?.delivery_id}`,
      ),
      200,
    );
  return { world, tenant, endpoint, eventIds, messages, detail };
}

describe("webhook requests on a lost connection", () => {
  it("sends again at once a request whose pooled connection the receiver had closed: one attempt, delivered", async () => {
    const receiver = loopbackReceiver({ idle: 1_000 });
    const { world, tenant, endpoint, eventIds, messages, detail } = await setUp(receiver, 2);
    const [first, second] = messages;
    expect(await attemptDelivery(world.deps, fetchTransport, first ?? never())).toBe("delivered");
    const answered = Date.now();
    // The service stalls across the moment the receiver closes the idle connection, so the
    // runtime has not yet seen it close when the next request picks it from its pool.
    const stalled: WebhookTransport = (request) => {
      busyWait(answered + 1_400 - Date.now());
      return fetchTransport(request);
    };
    expect(await attemptDelivery(world.deps, stalled, second ?? never())).toBe("delivered");

    const delivered = await detail(second);
    expect(delivered).toMatchObject({ status: "delivered", attempts: 1, response_status: 204 });
    expect(delivered.attempt_log).toEqual([
      expect.objectContaining({ response_status: null, error: "connection_lost" }),
      expect.objectContaining({ response_status: 204, error: null }),
    ]);
    expect(delivered.attempt_log[0]?.duration_ms).toBeLessThanOrEqual(RESEND_WINDOW_MS);
    const log = await receiver.log();
    expect(log.idleClosed).toBeGreaterThanOrEqual(1);
    expect(log.requests).toEqual(eventIds);
    const read = await expectJson(await tenant.api.get(`/webhooks/${endpoint.id}`), 200);
    expect(read).toMatchObject({ enabled: true, last_delivery: { outcome: "succeeded" } });
    expect(await endpointHealth(endpoint.id)).toEqual({ failing_since: null, slow_since: null });
  });

  it("sends a request again only once: two lost connections are one failed attempt that counts", async () => {
    const receiver = loopbackReceiver({ drop: 0 });
    const { world, endpoint, eventIds, messages, detail } = await setUp(receiver);
    expect(await attemptDelivery(world.deps, fetchTransport, messages[0] ?? never())).toBe(
      "pending",
    );
    const failed = await detail(messages[0]);
    expect(failed).toMatchObject({ status: "pending", attempts: 1, response_status: null });
    expect(failed.attempt_log).toEqual([
      expect.objectContaining({ response_status: null, error: "connection_lost" }),
      expect.objectContaining({ response_status: null, error: "network" }),
    ]);
    expect((await receiver.log()).requests).toEqual([eventIds[0], eventIds[0]]);
    expect(await endpointHealth(endpoint.id)).toMatchObject({
      failing_since: new Date(world.clock.at).toISOString(),
    });
  });

  it("does not send again a request lost after the window: the receiver had it, the attempt failed", async () => {
    const receiver = loopbackReceiver({ drop: RESEND_WINDOW_MS + 300 });
    const { world, endpoint, eventIds, messages, detail } = await setUp(receiver);
    expect(await attemptDelivery(world.deps, fetchTransport, messages[0] ?? never())).toBe(
      "pending",
    );
    const failed = await detail(messages[0]);
    expect(failed).toMatchObject({ status: "pending", attempts: 1 });
    expect(failed.attempt_log).toEqual([expect.objectContaining({ error: "network" })]);
    expect(failed.attempt_log[0]?.duration_ms).toBeGreaterThan(RESEND_WINDOW_MS);
    expect((await receiver.log()).requests).toEqual(eventIds);
    expect((await endpointHealth(endpoint.id))?.failing_since).not.toBeNull();
  });
});

function never(): never {
  throw new Error("expected a queued message");
}
