import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { sourceKey } from "../../../src/lib/object-keys";
import { putCaptions } from "../../../src/services/captions/put";
import { createDeps } from "../../../src/services/deps";
import { insertVideos } from "../../helpers/factories";
import { client, createKey, createWorkspace, expectJson } from "../../helpers/harness";
import { fixtureBytes } from "../../helpers/media-fixtures";
import { storedSegments } from "../../helpers/processing";
import { recordingEnv } from "../../helpers/sweep";
import { drain, simulatedEngine } from "../processing/simulated-engine";

describe("captions uploaded to a video the production engine indexed", () => {
  it("re-assembles from the windows it kept, with the captions heard", async () => {
    const workspace = await createWorkspace();
    const api = client((await createKey(workspace.id)).key);
    const bytes = fixtureBytes("silent.mp4");
    const [videoId = ""] = await insertVideos(workspace.id, 1, {
      status: "queued",
      progress: 0,
      filename: "silent.mp4",
      fileSize: bytes.byteLength,
    });
    await env.MEDIA_BUCKET.put(sourceKey(videoId), bytes);
    const { ports } = simulatedEngine();
    const target = recordingEnv();
    const delivered = new Map<string, number>();
    await target.queues.PROCESSING_QUEUE.send({
      type: "process-video",
      video_id: videoId,
      workspace_id: workspace.id,
    });
    await drain(target, ports, delivered);
    const windowsSent =
      target.queues.FRAMES_QUEUE.sent.length + target.queues.WINDOWS_QUEUE.sent.length;
    expect(windowsSent).toBeGreaterThan(0);

    const file = "WEBVTT\n\n00:00:01.000 --> 00:00:03.000\nThe ladder is tagged out of service.\n";
    await putCaptions(
      createDeps(target.env, ports),
      { workspaceId: workspace.id },
      {
        videoId,
        language: "en",
        format: "webvtt",
        bytes: new TextEncoder().encode(file),
        requestId: "req-captions",
      },
    );
    await drain(target, ports, delivered);

    const video = await expectJson<{
      status: string;
      media: { understood: { heard_from: string[] } };
    }>(await api.get(`/videos/${videoId}`), 200);
    expect(video.status).toBe("completed");
    expect(video.media.understood.heard_from).toEqual(["captions-uploaded:en"]);
    // No window was understood again: the re-index paid for no model call.
    expect(target.queues.FRAMES_QUEUE.sent.length + target.queues.WINDOWS_QUEUE.sent.length).toBe(
      windowsSent,
    );
    const spans = (await storedSegments(videoId)).flatMap((s) => s.evidence);
    expect(spans).toContainEqual({
      kind: "transcript",
      start: 1,
      end: 3,
      text: "The ladder is tagged out of service.",
      source: "captions-uploaded:en",
    });
  });
});
