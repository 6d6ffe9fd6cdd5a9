import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { DeliverWebhookMessage } from "../../../src/lib/queue-messages";
import { consumeWebhooks } from "../../../src/queues/webhooks";
import { FAST_LANE_TIMEOUT_MS } from "../../../src/services/webhooks/config";
import { dispatchPendingEvents } from "../../../src/services/webhooks/enqueue-attempts";
import type { TransportResult, WebhookTransport } from "../../../src/services/webhooks/transport";
import { expectJson, newTenant } from "../../helpers/harness";
import {
  emitEvent,
  type Received,
  registerEndpoint,
  storedDeliveries,
  webhookWorld,
} from "./helpers";
import { signedBy } from "./verify";

const OK: TransportResult = { status: 204, retryAfter: null };

/** A receiver per host: `hangs.` never answers, `slow.` answers after `slowMs`, others at once. */
function receivers(slowMs: number) {
  const received: Received[] = [];
  const transport: WebhookTransport = (request) => {
    received.push(request);
    if (request.url.includes("hangs.")) return new Promise<TransportResult>(() => undefined);
    if (request.url.includes("slow.")) {
      return new Promise((resolve) => setTimeout(() => resolve(OK), slowMs));
    }
    return Promise.resolve(OK);
  };
  return { transport, received };
}

/** Runs one batch of `queue` through its consumer; returns how long it took and its acks. */
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
  const ctx = createExecutionContext();
  const started = Date.now();
  await consumeWebhooks(batch, world.deps, transport, queue === "webhook-slow" ? "slow" : "fast");
  const ms = Date.now() - started;
  const result = await getQueueResult(batch, ctx);
  return { ms, acked: result.explicitAcks.sort(), retried: result.retryMessages };
}

/** Two tenants, one endpoint each, one event each fanned out. */
async function twoTenants(world: ReturnType<typeof webhookWorld>, troubledHost: string) {
  const troubled = await newTenant(["MANAGE_WEBHOOKS"]);
  const other = await newTenant(["MANAGE_WEBHOOKS"]);
  const slow = await registerEndpoint(troubled.api, { url: `https://${troubledHost}/hooks` });
  const healthy = await registerEndpoint(other.api, { url: "https://fine.example.com/hooks" });
  await emitEvent(troubled.workspaceId, "video.indexed");
  await emitEvent(other.workspaceId, "video.indexed");
  await dispatchPendingEvents(world.deps);
  return { troubled, slow, healthy, messages: world.queue.take() };
}

async function slowSince(endpointId: string): Promise<string | null> {
  const row = await env.DB.prepare("SELECT slow_since FROM webhook_endpoints WHERE id = ?")
    .bind(endpointId)
    .first<{ slow_since: string | null }>();
  return row?.slow_since ?? null;
}

describe("the webhook slow lane", () => {
  it("takes a hanging endpoint's attempt out of the fast lane; the others deliver at once", async () => {
    const world = webhookWorld();
    const { slow, healthy, messages } = await twoTenants(world, "hangs.example.com");
    expect(messages).toHaveLength(2);
    const { transport, received } = receivers(0);

    const fast = await consume(world, "webhook-deliveries", messages, transport);
    // The batch waited the fast lane's timeout, not the receiver's 15 s.
    expect(fast.ms).toBeGreaterThanOrEqual(FAST_LANE_TIMEOUT_MS - 50);
    expect(fast.ms).toBeLessThan(FAST_LANE_TIMEOUT_MS + 2_000);
    expect(fast.acked).toEqual(["m0", "m1"]);
    expect(await storedDeliveries(healthy.id)).toMatchObject([{ status: "delivered" }]);
    // Cut off, not counted: the same attempt waits in the slow lane.
    const [pending] = await storedDeliveries(slow.id);
    expect(pending).toMatchObject({ status: "pending", attempts: 0 });
    expect(world.slowQueue.take()).toEqual([
      {
        type: "deliver-webhook",
        delivery_id: pending?.id,
        attempts: 0,
        due: pending?.next_attempt_at,
      },
    ]);
    expect(world.queue.sent).toEqual([]);
    expect(await slowSince(slow.id)).not.toBeNull();

    // Marked slow: its next delivery skips the fast lane unattempted.
    const before = received.length;
    await anotherEvent(world, slow.id);
    const next = world.queue.take();
    expect(next).toHaveLength(1);
    const skipped = await consume(world, "webhook-deliveries", next, transport);
    expect(skipped.ms).toBeLessThan(FAST_LANE_TIMEOUT_MS / 2);
    expect(received.length).toBe(before);
    expect(world.slowQueue.take()).toEqual([next[0]]);
  });

  it("delivers a moved attempt once the receiver answers, records it, and brings a fast answer back", async () => {
    const world = webhookWorld();
    const { troubled, slow, messages } = await twoTenants(world, "slow.example.com");
    const { transport, received } = receivers(FAST_LANE_TIMEOUT_MS + 300);
    await consume(world, "webhook-deliveries", messages, transport);
    const moved = world.slowQueue.take();
    expect(moved).toHaveLength(1);

    // The slow lane waits for the answer; the attempt is signed anew when it is made.
    world.clock.at += 3_000;
    const lane = await consume(world, "webhook-slow", moved, transport);
    expect(lane.acked).toEqual(["m0"]);
    const [delivered] = await storedDeliveries(slow.id);
    expect(delivered).toMatchObject({ status: "delivered", attempts: 1, response_status: 204 });
    const attempts = received.filter((r) => r.url.includes("slow."));
    expect(attempts).toHaveLength(2);
    const last = attempts[1];
    expect(last?.headers["webhook-timestamp"]).toBe(String(Math.floor(world.clock.at / 1000)));
    expect(await signedBy([slow.secret], last?.headers ?? {}, last?.body ?? "")).toEqual([true]);
    const detail = await expectJson<{ attempt_log: Record<string, unknown>[] }>(
      await world.call(troubled.api.key, "GET", `/webhooks/${slow.id}/deliveries/${delivered?.id}`),
      200,
    );
    expect(detail.attempt_log).toEqual([
      expect.objectContaining({ response_status: 204, error: null }),
    ]);
    const [logged] = detail.attempt_log;
    expect(Number(logged?.duration_ms)).toBeGreaterThanOrEqual(FAST_LANE_TIMEOUT_MS);
    // It answered, but slowly: it stays in the slow lane.
    expect(await slowSince(slow.id)).not.toBeNull();

    // An answer within the fast lane's timeout brings the endpoint back to the fast lane.
    const { transport: quick } = receivers(0);
    await anotherEvent(world, slow.id);
    const forwarded = world.queue.take();
    await consume(world, "webhook-deliveries", forwarded, quick);
    await consume(world, "webhook-slow", world.slowQueue.take(), quick);
    expect(await slowSince(slow.id)).toBeNull();
    await anotherEvent(world, slow.id);
    const direct = await consume(world, "webhook-deliveries", world.queue.take(), quick);
    expect(direct.acked).toEqual(["m0"]);
    expect(world.slowQueue.sent).toEqual([]);
    expect((await storedDeliveries(slow.id)).map((d) => d.status)).toEqual([
      "delivered",
      "delivered",
      "delivered",
    ]);
  });
});

/** One more event in the endpoint's workspace, fanned out. */
async function anotherEvent(world: ReturnType<typeof webhookWorld>, endpointId: string) {
  const row = await env.DB.prepare("SELECT workspace_id FROM webhook_endpoints WHERE id = ?")
    .bind(endpointId)
    .first<{ workspace_id: string }>();
  await emitEvent(row?.workspace_id ?? "", "video.indexed");
  await dispatchPendingEvents(world.deps);
}
