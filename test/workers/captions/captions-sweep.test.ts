import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createPorts } from "../../../src/ports";
import { putCaptions } from "../../../src/services/captions/put";
import { createDeps } from "../../../src/services/deps";
import { processVideo } from "../../../src/services/processing/process-video";
import { indexVideo } from "../../../src/services/search/index-video";
import { expectJson, newTenant } from "../../helpers/harness";
import { storedSegments, uploadFixture, waitForFinal } from "../../helpers/processing";
import { backdate, backdateLease, LEASE_MS, recordingEnv, sweepAfter } from "../../helpers/sweep";

const FILE = new TextEncoder().encode(
  "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nThe spare keys hang by the gate.\n",
);

describe("a caption upload whose re-index was interrupted", () => {
  it("is found by the sweep and carried through to an index with the captions", async () => {
    const { api, workspaceId } = await newTenant(["UPLOAD_VIDEOS", "READ_VIDEOS"]);
    const videoId = (await waitForFinal(api, (await uploadFixture(api, "silent.mp4")).id)).id;
    const { env: recording, queues } = recordingEnv();
    const ports = createPorts(env);
    const deps = createDeps(recording, ports);
    await putCaptions(
      deps,
      { workspaceId },
      { videoId, language: "en", format: "webvtt", bytes: FILE, requestId: "req-captions" },
    );
    // The message sent is lost (the recording queue never delivers it) and nothing moves.
    queues.PROCESSING_QUEUE.sent.length = 0;
    await backdate("videos", videoId, 2 * LEASE_MS);
    await backdateLease(videoId, 2 * LEASE_MS);
    const stuck = await expectJson<{ status: string }>(await api.get(`/videos/${videoId}`), 200);
    expect(stuck.status).toBe("processing");

    // The re-send names the request that uploaded the captions: the re-index is its work.
    const message = {
      type: "process-video" as const,
      video_id: videoId,
      workspace_id: workspaceId,
      request_id: "req-captions",
    };
    expect((await sweepAfter(recording, 0)).videos.resent).toEqual([videoId]);
    expect(queues.PROCESSING_QUEUE.sent).toEqual([message]);
    await processVideo(deps, message);
    await indexVideo(deps, { type: "index-video", video_id: videoId, workspace_id: workspaceId });

    const video = await expectJson<{
      status: string;
      media: { understood: { heard_from: string[] } };
    }>(await api.get(`/videos/${videoId}`), 200);
    expect(video.status).toBe("completed");
    expect(video.media.understood.heard_from).toEqual(["captions-uploaded:en"]);
    const texts = (await storedSegments(videoId)).flatMap((s) => s.evidence.map((e) => e.text));
    expect(texts).toContain("The spare keys hang by the gate.");
  });
});
