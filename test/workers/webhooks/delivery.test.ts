import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { attemptDelivery } from "../../../src/services/webhooks/deliver";
import { dispatchPendingEvents } from "../../../src/services/webhooks/enqueue-attempts";
import { signPayload } from "../../../src/services/webhooks/signature";
import { TransportError } from "../../../src/services/webhooks/transport";
import { expectJson, newTenant } from "../../helpers/harness";
import {
  emitEvent,
  registerEndpoint,
  scriptedTransport,
  storedDeliveries,
  webhookWorld,
} from "./helpers";
import { signedBy } from "./verify";

const OK = { status: 204, retryAfter: null };
const FAIL = { status: 500, retryAfter: null };

async function setUp(options: { schedule?: string; eventTypes?: string[] } = {}) {
  const world = webhookWorld({ schedule: options.schedule ?? "0,5,300" });
  const tenant = await newTenant(["MANAGE_WEBHOOKS"]);
  const endpoint = await registerEndpoint(tenant.api, {
    event_types: options.eventTypes ?? ["*"],
  });
  return { world, tenant, endpoint };
}

describe("webhook delivery", () => {
  it("POSTs { id, type, created_at, data } signed per Standard Webhooks and records delivered", async () => {
    const { world, tenant, endpoint } = await setUp();
    const eventId = await emitEvent(tenant.workspaceId, "video.indexed", {
      video: { id: "vid_1" },
    });
    expect(await dispatchPendingEvents(world.deps)).toBeGreaterThanOrEqual(1);
    const [message, ...more] = world.queue.take();
    expect(more).toEqual([]);
    const { transport, received } = scriptedTransport([OK]);
    expect(await attemptDelivery(world.deps, transport, message ?? never())).toBe("delivered");

    const [request] = received;
    expect(request?.url).toBe(endpoint.url);
    const body = JSON.parse(request?.body ?? "{}");
    expect(body).toEqual({
      id: eventId,
      type: "video.indexed",
      created_at: expect.any(String),
      data: { video: { id: "vid_1" } },
    });
    expect(request?.headers).toMatchObject({
      "webhook-id": eventId,
      "webhook-timestamp": String(Math.floor(world.clock.at / 1000)),
      "content-type": "application/json",
      "user-agent": expect.stringMatching(/^VideoAnalysisService-Webhooks/),
    });
    expect(await signedBy([endpoint.secret], request?.headers ?? {}, request?.body ?? "")).toEqual([
      true,
    ]);

    const history = await expectJson<{ data: Record<string, unknown>[] }>(
      await tenant.api.get(`/webhooks/${endpoint.id}/deliveries`),
      200,
    );
    expect(history.data).toEqual([
      expect.objectContaining({
        endpoint_id: endpoint.id,
        event_id: eventId,
        event_type: "video.indexed",
        status: "delivered",
        attempts: 1,
        response_status: 204,
      }),
    ]);
    const read = await expectJson(await tenant.api.get(`/webhooks/${endpoint.id}`), 200);
    expect(read.last_delivery).toMatchObject({ outcome: "succeeded", response_status: 204 });
  });

  it("signs the published Standard Webhooks vector", async () => {
    const signature = await signPayload(
      "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
      "msg_p5jXN8AQM9LWM0D4loKWxJek",
      1614265330,
      '{"test": 2432232314}',
    );
    expect(signature).toBe("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
  });

  it("retries a 500 on the schedule, then fails for good, logging every attempt", async () => {
    const { world, tenant, endpoint } = await setUp({ schedule: "0,5,300" });
    await emitEvent(tenant.workspaceId, "run.completed");
    await dispatchPendingEvents(world.deps);
    const { transport, received } = scriptedTransport([FAIL]);
    const start = world.clock.at;

    expect(await attemptDelivery(world.deps, transport, world.queue.take()[0] ?? never())).toBe(
      "pending",
    );
    const retry = world.queue.sent[0];
    expect(retry?.delaySeconds).toBe(5);
    let [row] = await storedDeliveries(endpoint.id);
    expect(row).toMatchObject({ status: "pending", attempts: 1, response_status: 500 });
    expect(Date.parse(row?.next_attempt_at ?? "")).toBe(start + 5000);

    world.clock.at = start + 5000;
    expect(await attemptDelivery(world.deps, transport, world.queue.take()[0] ?? never())).toBe(
      "pending",
    );
    expect(world.queue.sent[0]?.delaySeconds).toBe(300);

    world.clock.at = start + 305_000;
    expect(await attemptDelivery(world.deps, transport, world.queue.take()[0] ?? never())).toBe(
      "failed",
    );
    expect(world.queue.sent).toEqual([]);
    [row] = await storedDeliveries(endpoint.id);
    expect(row).toMatchObject({ status: "failed", attempts: 3, response_status: 500 });
    expect(received).toHaveLength(3);
    const log = await env.DB.prepare(
      "SELECT response_status, error_class FROM webhook_attempts WHERE delivery_id = ? ORDER BY id",
    )
      .bind(row?.id)
      .all();
    expect(log.results).toEqual(
      Array(3).fill({ response_status: 500, error_class: "http_status" }),
    );
    const read = await expectJson(await tenant.api.get(`/webhooks/${endpoint.id}`), 200);
    expect(read).toMatchObject({ enabled: true, last_delivery: { outcome: "failed" } });
  });

  it("honours Retry-After on 429 and 503, and treats timeouts and redirects as failures", async () => {
    const { world, tenant, endpoint } = await setUp({ schedule: "0,5,5,5,5" });
    await emitEvent(tenant.workspaceId, "video.failed");
    await dispatchPendingEvents(world.deps);
    const { transport } = scriptedTransport([
      { status: 429, retryAfter: "120" },
      new TransportError("timeout"),
      { status: 302, retryAfter: null },
      { status: 503, retryAfter: new Date(world.clock.at + 3_600_000).toUTCString() },
    ]);
    const start = world.clock.at;
    await attemptDelivery(world.deps, transport, world.queue.take()[0] ?? never());
    let [row] = await storedDeliveries(endpoint.id);
    expect(Date.parse(row?.next_attempt_at ?? "")).toBe(start + 120_000);
    world.clock.at = start + 120_000;
    // A timeout is recorded by the slow lane (the fast lane sends the attempt on to it).
    await attemptDelivery(world.deps, transport, world.queue.take()[0] ?? never(), "slow");
    [row] = await storedDeliveries(endpoint.id);
    expect(row).toMatchObject({ status: "pending", attempts: 2, response_status: null });
    world.clock.at = Date.parse(row?.next_attempt_at ?? "");
    await attemptDelivery(world.deps, transport, world.queue.take()[0] ?? never());
    [row] = await storedDeliveries(endpoint.id);
    expect(row).toMatchObject({ status: "pending", attempts: 3, response_status: 302 });
    world.clock.at = Date.parse(row?.next_attempt_at ?? "");
    await attemptDelivery(world.deps, transport, world.queue.take()[0] ?? never());
    [row] = await storedDeliveries(endpoint.id);
    // The date asked for (to the whole second), not the schedule's 5 s.
    const asked = start + 3_600_000;
    expect(Math.abs(Date.parse(row?.next_attempt_at ?? "") - asked)).toBeLessThan(1000);
  });

  it("a 410 ends the delivery and disables the endpoint (gone); it then receives nothing", async () => {
    const { world, tenant, endpoint } = await setUp();
    await emitEvent(tenant.workspaceId, "video.indexed");
    await dispatchPendingEvents(world.deps);
    const { transport } = scriptedTransport([{ status: 410, retryAfter: null }]);
    expect(await attemptDelivery(world.deps, transport, world.queue.take()[0] ?? never())).toBe(
      "failed",
    );
    expect(world.queue.sent).toEqual([]);
    const read = await expectJson(await tenant.api.get(`/webhooks/${endpoint.id}`), 200);
    expect(read).toMatchObject({ enabled: false, disabled_reason: "gone" });
    await emitEvent(tenant.workspaceId, "video.indexed");
    await dispatchPendingEvents(world.deps);
    expect(world.queue.sent).toEqual([]);
    expect(await storedDeliveries(endpoint.id)).toHaveLength(1);
  });

  it("disables an endpoint whose attempts have failed for 5 days (failing)", async () => {
    const { world, tenant, endpoint } = await setUp({ schedule: "0,5" });
    await env.DB.prepare("UPDATE webhook_endpoints SET failing_since = ? WHERE id = ?")
      .bind(new Date(world.clock.at - 5 * 24 * 3600 * 1000 - 1).toISOString(), endpoint.id)
      .run();
    await emitEvent(tenant.workspaceId, "video.indexed");
    await dispatchPendingEvents(world.deps);
    const { transport } = scriptedTransport([FAIL]);
    await attemptDelivery(world.deps, transport, world.queue.take()[0] ?? never());
    const read = await expectJson(await tenant.api.get(`/webhooks/${endpoint.id}`), 200);
    expect(read).toMatchObject({ enabled: false, disabled_reason: "failing" });
    // Its pending delivery stops: the next attempt ends it without a request.
    world.clock.at += 5000;
    expect(await attemptDelivery(world.deps, transport, world.queue.take()[0] ?? never())).toBe(
      "ended",
    );
    expect((await storedDeliveries(endpoint.id))[0]?.status).toBe("failed");
  });

  it("makes each attempt once, however often or concurrently its message arrives", async () => {
    const { world, tenant, endpoint } = await setUp();
    await emitEvent(tenant.workspaceId, "video.indexed");
    await dispatchPendingEvents(world.deps);
    const message = world.queue.take()[0] ?? never();
    const { transport, received } = scriptedTransport([OK]);
    const results = await Promise.all([
      attemptDelivery(world.deps, transport, message),
      attemptDelivery(world.deps, transport, message),
      attemptDelivery(world.deps, transport, message),
    ]);
    expect(results.sort()).toEqual(["delivered", "stale", "stale"]);
    expect(await attemptDelivery(world.deps, transport, message)).toBe("stale");
    expect(received).toHaveLength(1);
    expect((await storedDeliveries(endpoint.id))[0]).toMatchObject({
      status: "delivered",
      attempts: 1,
    });
  });

  it("chains waits longer than a queue delay (12 h) until the attempt is due", async () => {
    const { world, tenant, endpoint } = await setUp({ schedule: "0,86400" });
    await emitEvent(tenant.workspaceId, "video.indexed");
    await dispatchPendingEvents(world.deps);
    const { transport, received } = scriptedTransport([FAIL, OK]);
    const start = world.clock.at;
    await attemptDelivery(world.deps, transport, world.queue.take()[0] ?? never());
    expect(world.queue.sent[0]?.delaySeconds).toBe(12 * 3600);
    world.clock.at = start + 12 * 3600 * 1000;
    expect(await attemptDelivery(world.deps, transport, world.queue.take()[0] ?? never())).toBe(
      "deferred",
    );
    expect(world.queue.sent[0]?.delaySeconds).toBe(12 * 3600);
    expect(received).toHaveLength(1);
    world.clock.at = start + 24 * 3600 * 1000;
    expect(await attemptDelivery(world.deps, transport, world.queue.take()[0] ?? never())).toBe(
      "delivered",
    );
    expect((await storedDeliveries(endpoint.id))[0]).toMatchObject({
      status: "delivered",
      attempts: 2,
    });
  });

  it("fans out only to enabled, subscribed endpoints of the event's workspace that existed then", async () => {
    const world = webhookWorld();
    const tenant = await newTenant(["MANAGE_WEBHOOKS"]);
    const other = await newTenant(["MANAGE_WEBHOOKS"]);
    const all = await registerEndpoint(tenant.api, { event_types: ["*"] });
    const runsOnly = await registerEndpoint(tenant.api, { event_types: ["run.completed"] });
    const videos = await registerEndpoint(tenant.api, { event_types: ["video.indexed"] });
    const off = await registerEndpoint(tenant.api);
    await tenant.api.request("PATCH", `/webhooks/${off.id}`, { body: { enabled: false } });
    const foreign = await registerEndpoint(other.api);
    await emitEvent(tenant.workspaceId, "video.indexed");
    const late = await registerEndpoint(tenant.api);
    await dispatchPendingEvents(world.deps);
    const reached = await env.DB.prepare(
      "SELECT endpoint_id FROM webhook_deliveries WHERE endpoint_id IN (?, ?, ?, ?, ?, ?) ORDER BY endpoint_id",
    )
      .bind(all.id, runsOnly.id, videos.id, off.id, foreign.id, late.id)
      .all<{ endpoint_id: string }>();
    expect(reached.results.map((r) => r.endpoint_id)).toEqual([all.id, videos.id].sort());
    expect(world.queue.sent).toHaveLength(2);
  });

  it("signs with both secrets for 24 hours after a rotation, then with the new one only", async () => {
    const { world, tenant, endpoint } = await setUp();
    const rotated = await expectJson<{ secret: string }>(
      await tenant.api.post(`/webhooks/${endpoint.id}/rotate-secret`),
      200,
    );
    const { transport, received } = scriptedTransport([OK]);
    await emitEvent(tenant.workspaceId, "video.indexed");
    await dispatchPendingEvents(world.deps);
    await attemptDelivery(world.deps, transport, world.queue.take()[0] ?? never());
    const both = received[0];
    expect(both?.headers["webhook-signature"]?.split(" ")).toHaveLength(2);
    expect(
      await signedBy([rotated.secret, endpoint.secret], both?.headers ?? {}, both?.body ?? ""),
    ).toEqual([true, true]);

    world.clock.at += 24 * 3600 * 1000 + 1000;
    await emitEvent(tenant.workspaceId, "video.indexed");
    await dispatchPendingEvents(world.deps);
    await attemptDelivery(world.deps, transport, world.queue.take()[0] ?? never());
    const one = received[1];
    expect(
      await signedBy([rotated.secret, endpoint.secret], one?.headers ?? {}, one?.body ?? ""),
    ).toEqual([true, false]);
  });
});

function never(): never {
  throw new Error("expected a queued message");
}
