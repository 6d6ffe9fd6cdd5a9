import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { attemptDelivery } from "../../../src/services/webhooks/deliver";
import { dispatchPendingEvents } from "../../../src/services/webhooks/enqueue-attempts";
import { sealSecret } from "../../../src/services/webhooks/secrets";
import { expectJson, newTenant } from "../../helpers/harness";
import {
  emitEvent,
  registerEndpoint,
  scriptedTransport,
  storedDeliveries,
  webhookWorld,
} from "./helpers";
import { signedBy } from "./verify";

interface Detail {
  status: string;
  attempts: number;
  response_status: number | null;
  attempt_log: { response_status: number | null; error: string | null }[];
}

const OK = { status: 204, retryAfter: null };

/** One endpoint with one pending delivery whose first message is ready to be consumed. */
async function pendingDelivery() {
  const world = webhookWorld({ schedule: "0,5,300" });
  const tenant = await newTenant(["MANAGE_WEBHOOKS"]);
  const endpoint = await registerEndpoint(tenant.api);
  const eventId = await emitEvent(tenant.workspaceId, "video.indexed");
  await dispatchPendingEvents(world.deps);
  const [message] = world.queue.take();
  if (!message) throw new Error("expected a queued message");
  const detail = async () => {
    const [row] = await storedDeliveries(endpoint.id);
    return expectJson<Detail>(
      await tenant.api.get(`/webhooks/${endpoint.id}/deliveries/${row?.id}`),
      200,
    );
  };
  const read = async () => expectJson(await tenant.api.get(`/webhooks/${endpoint.id}`), 200);
  return { world, tenant, endpoint, eventId, message, detail, read };
}

describe("attempts that cannot be made", () => {
  it("an event gone from the outbox ends the delivery at once (event_missing), unsent and not retried", async () => {
    const { world, eventId, message, detail, read } = await pendingDelivery();
    await env.DB.prepare("DELETE FROM events WHERE id = ?").bind(eventId).run();
    const { transport, received } = scriptedTransport([OK]);

    expect(await attemptDelivery(world.deps, transport, message)).toBe("failed");
    expect(received).toEqual([]);
    expect(world.queue.sent).toEqual([]);
    expect(await detail()).toMatchObject({
      status: "failed",
      attempts: 1,
      response_status: null,
      attempt_log: [{ response_status: null, error: "event_missing" }],
    });
    // Our own loss says nothing about the receiver: no failure streak, still enabled.
    expect(await read()).toMatchObject({ enabled: true, disabled_reason: null });
    const streak = await env.DB.prepare("SELECT failing_since FROM webhook_endpoints").first();
    expect(streak).toEqual({ failing_since: null });
  });

  it("a URL the guard refuses at send time ends the delivery (url_refused), logged and not sent", async () => {
    const { world, endpoint, message, detail } = await pendingDelivery();
    // Stored before the deployment's rules refused it: the guard runs again before each attempt.
    await env.DB.prepare("UPDATE webhook_endpoints SET url = ? WHERE id = ?")
      .bind("https://169.254.169.254/latest/meta-data", endpoint.id)
      .run();
    const { transport, received } = scriptedTransport([OK]);

    expect(await attemptDelivery(world.deps, transport, message)).toBe("failed");
    expect(received).toEqual([]);
    expect(world.queue.sent).toEqual([]);
    expect(await detail()).toMatchObject({
      status: "failed",
      attempts: 1,
      response_status: null,
      attempt_log: [{ response_status: null, error: "url_refused" }],
    });
  });

  it("an endpoint secret sealed under another SIGNING_SECRET is a failed attempt (secret_unreadable), retried; rotating mends it", async () => {
    const { world, tenant, endpoint, message, detail, read } = await pendingDelivery();
    const orphaned = await sealSecret("the-signing-secret-before-it-changed", endpoint.secret);
    await env.DB.prepare("UPDATE webhook_endpoints SET secret = ? WHERE id = ?")
      .bind(orphaned, endpoint.id)
      .run();
    const { transport, received } = scriptedTransport([OK]);
    const start = world.clock.at;

    expect(await attemptDelivery(world.deps, transport, message)).toBe("pending");
    expect(received).toEqual([]);
    expect(world.queue.sent.map((m) => m.delaySeconds)).toEqual([5]);
    expect(await detail()).toMatchObject({
      status: "pending",
      attempts: 1,
      attempt_log: [{ response_status: null, error: "secret_unreadable" }],
    });
    expect(await read()).toMatchObject({ enabled: true, last_delivery: { outcome: "failed" } });

    // A new secret is sealed under the current SIGNING_SECRET; the unreadable one no longer signs.
    const rotated = await expectJson<{ secret: string }>(
      await tenant.api.post(`/webhooks/${endpoint.id}/rotate-secret`),
      200,
    );
    world.clock.at = start + 5000;
    const [retry] = world.queue.take();
    expect(await attemptDelivery(world.deps, transport, retry ?? message)).toBe("delivered");
    const [request] = received;
    expect(await signedBy([rotated.secret], request?.headers ?? {}, request?.body ?? "")).toEqual([
      true,
    ]);
    expect(request?.headers["webhook-signature"]?.split(" ")).toHaveLength(1);
  });
});
