import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createPorts } from "../../../src/ports";
import { deleteWorkspace } from "../../../src/services/deletion/delete-workspace";
import { createDeps } from "../../../src/services/deps";
import { attemptDelivery } from "../../../src/services/webhooks/deliver";
import { dispatchPendingEvents } from "../../../src/services/webhooks/enqueue-attempts";
import { newTenant } from "../../helpers/harness";
import { recordingEnv } from "../../helpers/sweep";
import {
  emitEvent,
  registerEndpoint,
  scriptedTransport,
  storedDeliveries,
  webhookWorld,
} from "../webhooks/helpers";

const OPERATOR = { actor: "admin", requestId: null };

const OK = { status: 204, retryAfter: null };

describe("webhooks of a deleted workspace", () => {
  it("send nothing from the answer on: due deliveries end unsent, new events fan out to none", async () => {
    const world = webhookWorld();
    const doomed = await newTenant(["MANAGE_WEBHOOKS"]);
    const kept = await newTenant(["MANAGE_WEBHOOKS"]);
    const endpoint = await registerEndpoint(doomed.api);
    const keptEndpoint = await registerEndpoint(kept.api);
    await emitEvent(doomed.workspaceId, "video.indexed");
    await dispatchPendingEvents(world.deps);
    const due = world.queue.take();
    expect(due).toHaveLength(1);
    expect(await storedDeliveries(endpoint.id)).toMatchObject([{ status: "pending" }]);

    // Erasure is left queued (recorded), so what is stored shows what delivery did.
    const recording = recordingEnv();
    await deleteWorkspace(
      createDeps(recording.env, createPorts(recording.env)),
      doomed.workspaceId,
      OPERATOR,
    );

    const { transport, received } = scriptedTransport([OK]);
    for (const message of due) {
      expect(await attemptDelivery(world.deps, transport, message)).toBe("ended");
    }
    expect(received).toEqual([]);
    expect(await storedDeliveries(endpoint.id)).toMatchObject([{ status: "failed", attempts: 0 }]);

    // Events written while it is erased (a run canceled on the way) reach no endpoint.
    const late = await emitEvent(doomed.workspaceId, "run.canceled", { run: { id: "run_x" } });
    await emitEvent(kept.workspaceId, "video.indexed");
    await dispatchPendingEvents(world.deps);
    const dispatched = await env.DB.prepare("SELECT dispatched_at FROM events WHERE id = ?")
      .bind(late)
      .first<{ dispatched_at: string | null }>();
    expect(dispatched?.dispatched_at).not.toBeNull();
    expect(await storedDeliveries(endpoint.id)).toHaveLength(1);
    // Another workspace's endpoint is served as before.
    const [message, ...more] = world.queue.take();
    expect(more).toEqual([]);
    expect(await attemptDelivery(world.deps, transport, message ?? never())).toBe("delivered");
    expect(received.map((request) => request.url)).toEqual([keptEndpoint.url]);
  });
});

function never(): never {
  throw new Error("no message was queued");
}
