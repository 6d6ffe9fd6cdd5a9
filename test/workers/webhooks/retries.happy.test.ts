import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { attemptDelivery } from "../../../src/services/webhooks/deliver";
import { dispatchPendingEvents } from "../../../src/services/webhooks/enqueue-attempts";
import { expectJson, newTenant } from "../../helpers/harness";
import { emitEvent, scriptedTransport, storedDeliveries, webhookWorld } from "./helpers";
import { signedBy } from "./verify";

// A client that lost an answer sends the same request again with the same Idempotency-Key:
// the webhook operations must then do what they did once, and answer what they answered.
const BODY = { url: "https://receiver.example.com/hooks", event_types: ["*"] };

interface WithSecret {
  id: string;
  secret: string;
}

async function endpointCount(workspaceId: string): Promise<number> {
  const row = await env.DB.prepare(
    "SELECT count(*) AS n FROM webhook_endpoints WHERE workspace_id = ?",
  )
    .bind(workspaceId)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

async function setUp() {
  const world = webhookWorld();
  const tenant = await newTenant(["MANAGE_WEBHOOKS"]);
  const call = (path: string, key: string, body?: unknown) =>
    world.call(tenant.api.key, "POST", path, body, { "Idempotency-Key": key });
  return { world, tenant, call };
}

describe("retried webhook operations", () => {
  it("replays POST /webhooks with the same endpoint and secret, and stores one endpoint", async () => {
    const { tenant, call } = await setUp();
    const first = await expectJson<WithSecret>(await call("/webhooks", "create-1", BODY), 201);
    const again = await call("/webhooks", "create-1", BODY);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    const replayed = await expectJson<WithSecret>(again, 201);
    expect(replayed).toEqual(first);
    expect(replayed.secret).toMatch(/^whsec_/);
    expect(await endpointCount(tenant.workspaceId)).toBe(1);
  });

  it("creates one endpoint for parallel retries of one POST /webhooks", async () => {
    const { tenant, call } = await setUp();
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => call("/webhooks", "burst", BODY)),
    );
    const bodies = await Promise.all(answers.map((res) => res.text()));
    expect(answers.map((res) => res.status)).toEqual(Array(5).fill(201));
    expect(new Set(bodies).size).toBe(1);
    expect(await endpointCount(tenant.workspaceId)).toBe(1);
  });

  it("rotates once for a retried rotate-secret: the receiver's old secret keeps verifying", async () => {
    const { world, tenant, call } = await setUp();
    const endpoint = await expectJson<WithSecret>(await call("/webhooks", "create", BODY), 201);
    const path = `/webhooks/${endpoint.id}/rotate-secret`;
    const rotated = await expectJson<WithSecret>(await call(path, "rotate-1"), 200);
    const retried = await call(path, "rotate-1");
    expect(retried.headers.get("idempotent-replayed")).toBe("true");
    expect(await expectJson<WithSecret>(retried, 200)).toEqual(rotated);

    world.clock.at = Date.now();
    await emitEvent(tenant.workspaceId, "video.indexed");
    await dispatchPendingEvents(world.deps);
    const [message] = world.queue.take();
    if (!message) throw new Error("no delivery was queued");
    const { transport, received } = scriptedTransport([{ status: 204, retryAfter: null }]);
    expect(await attemptDelivery(world.deps, transport, message)).toBe("delivered");
    const [request] = received;
    expect(
      await signedBy(
        [rotated.secret, endpoint.secret],
        request?.headers ?? {},
        request?.body ?? "",
      ),
    ).toEqual([true, true]);
  });

  it("sends one test event for a retried POST …/test", async () => {
    const { call } = await setUp();
    const endpoint = await expectJson<WithSecret>(await call("/webhooks", "create", BODY), 201);
    const path = `/webhooks/${endpoint.id}/test`;
    const first = await expectJson<{ id: string }>(await call(path, "test-1"), 202);
    const again = await call(path, "test-1");
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await expectJson<{ id: string }>(again, 202)).toEqual(first);
    expect((await storedDeliveries(endpoint.id)).map((d) => d.id)).toEqual([first.id]);
  });

  it("queues failed deliveries once for a retried POST …/recover", async () => {
    const { world, call } = await setUp();
    const endpoint = await expectJson<WithSecret>(await call("/webhooks", "create", BODY), 201);
    await expectJson(await call(`/webhooks/${endpoint.id}/test`, "test"), 202);
    world.clock.at = Date.now();
    const { transport } = scriptedTransport([{ status: 500, retryAfter: null }]);
    for (const delay of ["0", "5", "300"]) {
      const [message] = world.queue.take();
      if (!message) throw new Error(`no attempt queued after ${delay} s`);
      world.clock.at = Date.parse(message.due);
      await attemptDelivery(world.deps, transport, message);
    }
    expect((await storedDeliveries(endpoint.id)).map((d) => d.status)).toEqual(["failed"]);
    const body = { since: new Date(Date.now() - 3600_000).toISOString() };
    const path = `/webhooks/${endpoint.id}/recover`;
    expect(await expectJson(await call(path, "recover-1", body), 202)).toEqual({ queued: 1 });
    const again = await call(path, "recover-1", body);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await expectJson(again, 202)).toEqual({ queued: 1 });
    expect(world.queue.take()).toHaveLength(1);
  });
});
