import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createPorts } from "../../../src/ports";
import { handleQueue } from "../../../src/queues/index";
import { newTenant } from "../../helpers/harness";
import { emitEvent, registerEndpoint, storedDeliveries, webhookWorld } from "./helpers";

describe("events fanned out after a queue batch", () => {
  it("are only those of the workspaces the batch names", async () => {
    const world = webhookWorld();
    const mine = await newTenant(["MANAGE_WEBHOOKS"]);
    const theirs = await newTenant(["MANAGE_WEBHOOKS"]);
    const myEndpoint = await registerEndpoint(mine.api);
    const theirEndpoint = await registerEndpoint(theirs.api);
    await emitEvent(mine.workspaceId, "video.indexed");
    await emitEvent(theirs.workspaceId, "video.indexed");

    // A message for a video that no longer exists is acknowledged and changes nothing.
    const batch = createMessageBatch("video-processing", [
      {
        id: crypto.randomUUID(),
        timestamp: new Date(),
        attempts: 1,
        body: { type: "process-video", video_id: "vid_gone", workspace_id: mine.workspaceId },
      },
    ]);
    await handleQueue(batch, world.env, createPorts(world.env));
    await getQueueResult(batch, createExecutionContext());

    expect((await storedDeliveries(myEndpoint.id)).length).toBe(1);
    expect(await storedDeliveries(theirEndpoint.id)).toEqual([]);
    expect(world.queue.sent).toHaveLength(1);
    const undispatched = await env.DB.prepare(
      "SELECT workspace_id FROM events WHERE dispatched_at IS NULL AND workspace_id IN (?, ?)",
    )
      .bind(mine.workspaceId, theirs.workspaceId)
      .all<{ workspace_id: string }>();
    expect(undispatched.results).toEqual([{ workspace_id: theirs.workspaceId }]);
  });
});
