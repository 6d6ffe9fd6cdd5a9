import { describe, expect, it } from "vitest";
import { attemptDelivery } from "../../../src/services/webhooks/deliver";
import { dispatchPendingEvents } from "../../../src/services/webhooks/enqueue-attempts";
import { expectJson, expectProblem, newTenant } from "../../helpers/harness";
import { emitEvent, registerEndpoint, scriptedTransport, webhookWorld } from "./helpers";

interface Delivery {
  id: string;
  event_id: string;
  event_type: string;
  status: string;
  attempts: number;
  response_status: number | null;
}

const OK = { status: 200, retryAfter: null };
const GONE_WRONG = { status: 500, retryAfter: null };

/** A tenant with one endpoint and one delivery per event type, each answered in turn (one attempt each). */
async function withHistory(types: string[], answers: { status: number; retryAfter: null }[]) {
  const world = webhookWorld({ schedule: "0" });
  const tenant = await newTenant(["MANAGE_WEBHOOKS"]);
  const endpoint = await registerEndpoint(tenant.api);
  for (const [i, type] of types.entries()) {
    await emitEvent(tenant.workspaceId, type);
    await dispatchPendingEvents(world.deps);
    const { transport } = scriptedTransport([answers[i] ?? OK]);
    for (const message of world.queue.take()) await attemptDelivery(world.deps, transport, message);
  }
  const list = async (query = "") =>
    expectJson<{ data: Delivery[]; has_more: boolean; next_cursor: string | null }>(
      await world.call(tenant.api.key, "GET", `/webhooks/${endpoint.id}/deliveries${query}`),
      200,
    );
  return { world, tenant, endpoint, list };
}

describe("delivery history, redelivery and recovery", () => {
  it("lists deliveries newest first, in pages, filtered by status and event type", async () => {
    const { list } = await withHistory(
      ["video.indexed", "run.completed", "video.indexed"],
      [OK, GONE_WRONG, GONE_WRONG],
    );
    const all = await list();
    expect(all.data.map((d) => [d.event_type, d.status])).toEqual([
      ["video.indexed", "failed"],
      ["run.completed", "failed"],
      ["video.indexed", "delivered"],
    ]);
    const page = await list("?limit=2");
    expect(page.has_more).toBe(true);
    const rest = await list(`?limit=2&cursor=${encodeURIComponent(page.next_cursor ?? "")}`);
    expect([...page.data, ...rest.data].map((d) => d.id)).toEqual(all.data.map((d) => d.id));
    expect((await list("?status=failed")).data).toHaveLength(2);
    expect((await list("?status=failed&event_type=video.indexed")).data).toHaveLength(1);
    expect((await list("?event_type=report.created")).data).toEqual([]);
  });

  it("redelivers a past delivery: 202 before the attempt, attempts reset, then delivered", async () => {
    const { world, tenant, endpoint, list } = await withHistory(["video.indexed"], [GONE_WRONG]);
    const [failed] = (await list()).data;
    const path = `/webhooks/${endpoint.id}/deliveries/${failed?.id}/redeliver`;
    const res = await world.call(tenant.api.key, "POST", path);
    expect(await expectJson<Delivery>(res, 202)).toMatchObject({
      id: failed?.id,
      status: "pending",
      attempts: 0,
      response_status: null,
    });
    await expectProblem(await world.call(tenant.api.key, "POST", path), 409, "conflict");
    const { transport, received } = scriptedTransport([OK]);
    for (const message of world.queue.take()) await attemptDelivery(world.deps, transport, message);
    expect(received).toHaveLength(1);
    expect((await list()).data[0]).toMatchObject({ status: "delivered", attempts: 1 });
    const detail = await world.call(
      tenant.api.key,
      "GET",
      `/webhooks/${endpoint.id}/deliveries/${failed?.id}`,
    );
    const logged = await expectJson<{ attempt_log: Record<string, unknown>[] }>(detail, 200);
    // The log keeps the attempt before the redelivery too.
    expect(logged.attempt_log).toEqual([
      expect.objectContaining({ response_status: 500, error: "http_status" }),
      expect.objectContaining({ response_status: 200, error: null }),
    ]);
    // A delivered one can be sent again too.
    expect((await world.call(tenant.api.key, "POST", path)).status).toBe(202);
  });

  it("answers 409 for redelivery or a test to a disabled endpoint", async () => {
    const { world, tenant, endpoint, list } = await withHistory(["video.indexed"], [GONE_WRONG]);
    const [failed] = (await list()).data;
    await world.call(tenant.api.key, "PATCH", `/webhooks/${endpoint.id}`, { enabled: false });
    const redeliver = `/webhooks/${endpoint.id}/deliveries/${failed?.id}/redeliver`;
    await expectProblem(await world.call(tenant.api.key, "POST", redeliver), 409, "conflict");
    await expectProblem(
      await world.call(tenant.api.key, "POST", `/webhooks/${endpoint.id}/test`),
      409,
      "conflict",
    );
    expect(world.queue.sent).toEqual([]);
  });

  it("recovers the failed deliveries of a window and nothing else", async () => {
    const { world, tenant, endpoint, list } = await withHistory(
      ["video.indexed", "run.failed", "run.canceled"],
      [OK, GONE_WRONG, GONE_WRONG],
    );
    const since = new Date(Date.now() - 60_000).toISOString();
    const res = await world.call(tenant.api.key, "POST", `/webhooks/${endpoint.id}/recover`, {
      since,
    });
    expect(await expectJson(res, 202)).toEqual({ queued: 2 });
    expect((await list("?status=pending")).data).toHaveLength(2);
    expect(world.queue.take()).toHaveLength(2);
    const empty = await world.call(tenant.api.key, "POST", `/webhooks/${endpoint.id}/recover`, {
      since: "2020-01-01T00:00:00Z",
      until: "2020-01-02T00:00:00Z",
    });
    expect(await expectJson(empty, 202)).toEqual({ queued: 0 });
  });

  it("sends webhook.test to that endpoint alone, recorded in its history", async () => {
    const world = webhookWorld();
    const tenant = await newTenant(["MANAGE_WEBHOOKS"]);
    const endpoint = await registerEndpoint(tenant.api, { event_types: ["video.indexed"] });
    const bystander = await registerEndpoint(tenant.api);
    const res = await world.call(tenant.api.key, "POST", `/webhooks/${endpoint.id}/test`);
    const delivery = await expectJson<Delivery>(res, 202);
    expect(delivery).toMatchObject({ event_type: "webhook.test", status: "pending", attempts: 0 });
    await dispatchPendingEvents(world.deps);
    const messages = world.queue.take();
    expect(messages.map((m) => m.delivery_id)).toEqual([delivery.id]);
    const { transport, received } = scriptedTransport([OK]);
    await attemptDelivery(world.deps, transport, messages[0] ?? never());
    expect(JSON.parse(received[0]?.body ?? "{}")).toMatchObject({
      id: delivery.event_id,
      type: "webhook.test",
      data: { webhook_id: endpoint.id },
    });
    const bystanderHistory = await world.call(
      tenant.api.key,
      "GET",
      `/webhooks/${bystander.id}/deliveries`,
    );
    expect((await expectJson<{ data: Delivery[] }>(bystanderHistory, 200)).data).toEqual([]);
  });
});

function never(): never {
  throw new Error("expected a queued message");
}
