import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { database, runBatch } from "../../../src/db/client";
import { insertEventStatement } from "../../../src/db/repos/events";
import { workspaces } from "../../../src/db/schema";
import { consumeWebhooks } from "../../../src/queues/webhooks";
import { runSweep } from "../../../src/services/sweep";
import { STRANDED_AFTER_MS } from "../../../src/services/sweep/webhooks";
import { attemptDelivery } from "../../../src/services/webhooks/deliver";
import { dispatchPendingEvents } from "../../../src/services/webhooks/enqueue-attempts";
import { newTenant } from "../../helpers/harness";
import {
  emitEvent,
  registerEndpoint,
  scriptedTransport,
  storedDeliveries,
  webhookWorld,
} from "./helpers";

const OK = { status: 200, retryAfter: null };

describe("the webhook outbox", () => {
  it("emits nothing when the state change fails: the event shares its batch", async () => {
    const world = webhookWorld();
    const tenant = await newTenant(["MANAGE_WEBHOOKS"]);
    const endpoint = await registerEndpoint(tenant.api);
    const db = database(env.DB);
    const now = new Date().toISOString();
    await expect(
      runBatch(db, [
        insertEventStatement(db, {
          workspaceId: tenant.workspaceId,
          type: "video.indexed",
          data: { video: {} },
          requestId: null,
        }),
        // The change the event announces fails (a duplicate key), so the batch rolls back.
        db
          .insert(workspaces)
          .values({ id: tenant.workspaceId, name: "dup", createdAt: now, updatedAt: now }),
      ]),
    ).rejects.toThrow();
    await dispatchPendingEvents(world.deps);
    expect(await storedDeliveries(endpoint.id)).toEqual([]);
    expect(world.queue.sent).toEqual([]);
  });

  it("loses no event when the send after fan-out fails: the sweep re-sends it", async () => {
    const world = webhookWorld();
    const tenant = await newTenant(["MANAGE_WEBHOOKS"]);
    const endpoint = await registerEndpoint(tenant.api);
    await emitEvent(tenant.workspaceId, "video.indexed");
    world.queue.failNext = 1;
    await dispatchPendingEvents(world.deps);
    expect(world.queue.sent).toEqual([]);
    expect(await storedDeliveries(endpoint.id)).toMatchObject([{ status: "pending", attempts: 0 }]);

    // Within the grace period the message may still be on its way: nothing is re-sent.
    expect((await runSweep(world.deps)).webhooks.resent).toBe(0);
    world.clock.at += STRANDED_AFTER_MS + 1000;
    const report = await runSweep(world.deps);
    expect(report.webhooks.resent).toBeGreaterThanOrEqual(1);
    const [delivery] = await storedDeliveries(endpoint.id);
    const mine = world.queue.take().filter((m) => m.delivery_id === delivery?.id);
    expect(mine).toHaveLength(1);
    const { transport } = scriptedTransport([OK]);
    expect(await attemptDelivery(world.deps, transport, mine[0] ?? never())).toBe("delivered");
  });

  it("fans out events no consumer dispatched (the sweep is the backstop)", async () => {
    const world = webhookWorld();
    const tenant = await newTenant(["MANAGE_WEBHOOKS"]);
    const endpoint = await registerEndpoint(tenant.api);
    const eventId = await emitEvent(tenant.workspaceId, "report.created");
    const report = await runSweep(world.deps);
    expect(report.webhooks.dispatched).toBeGreaterThanOrEqual(1);
    const [delivery] = await storedDeliveries(endpoint.id);
    expect(delivery).toMatchObject({ event_id: eventId, status: "pending" });
    expect(world.queue.take().map((m) => m.delivery_id)).toContain(delivery?.id);
    // A second sweep fans nothing out again.
    await runSweep(world.deps);
    expect(await storedDeliveries(endpoint.id)).toHaveLength(1);
  });

  it("delivers once when the sweep's re-send and the original message both arrive", async () => {
    const world = webhookWorld();
    const tenant = await newTenant(["MANAGE_WEBHOOKS"]);
    const endpoint = await registerEndpoint(tenant.api);
    await emitEvent(tenant.workspaceId, "video.indexed");
    await dispatchPendingEvents(world.deps);
    const original = world.queue.take();
    world.clock.at += STRANDED_AFTER_MS + 1000;
    await runSweep(world.deps);
    const [delivery] = await storedDeliveries(endpoint.id);
    // Storage is shared within this file: other tests' pending deliveries are re-sent too.
    const resent = world.queue.take().filter((m) => m.delivery_id === delivery?.id);
    expect(resent).toHaveLength(1);
    const { transport, received } = scriptedTransport([OK]);
    for (const message of [...resent, ...original]) {
      await attemptDelivery(world.deps, transport, message);
    }
    expect(received).toHaveLength(1);
    expect(await storedDeliveries(endpoint.id)).toMatchObject([
      { status: "delivered", attempts: 1 },
    ]);
  });

  it("the queue consumer acks attempts and drops malformed messages", async () => {
    const world = webhookWorld();
    const tenant = await newTenant(["MANAGE_WEBHOOKS"]);
    const endpoint = await registerEndpoint(tenant.api);
    await emitEvent(tenant.workspaceId, "video.indexed");
    await dispatchPendingEvents(world.deps);
    const [message] = world.queue.take();
    const batch = createMessageBatch<unknown>("webhook-deliveries", [
      { id: "m1", timestamp: new Date(), attempts: 1, body: message },
      { id: "m2", timestamp: new Date(), attempts: 1, body: { type: "deliver-webhook" } },
    ]);
    const ctx = createExecutionContext();
    const { transport, received } = scriptedTransport([OK]);
    await consumeWebhooks(batch, world.deps, transport, "fast");
    const result = await getQueueResult(batch, ctx);
    expect(result.explicitAcks.sort()).toEqual(["m1", "m2"]);
    expect(result.retryMessages).toEqual([]);
    expect(received).toHaveLength(1);
    expect(await storedDeliveries(endpoint.id)).toMatchObject([{ status: "delivered" }]);
  });
});

function never(): never {
  throw new Error("expected a queued message");
}
