import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { indexKey, probeKey, sourceKey } from "../../../src/lib/object-keys";
import { insertVideos } from "../../helpers/factories";
import { admin, client, createKey, createWorkspace, expectJson } from "../../helpers/harness";
import { fixtureBytes } from "../../helpers/media-fixtures";
import { storedSegments } from "../../helpers/processing";
import { recordingEnv } from "../../helpers/sweep";
import { drain, simulatedEngine } from "./simulated-engine";

/** The production media engine (over the simulators) indexes phone-tags.mov end to end. */
async function processWithProductionEngine(indexPrivateTags: boolean) {
  const workspace = await createWorkspace();
  await expectJson(
    await admin("PATCH", `/workspaces/${workspace.id}`, { index_private_tags: indexPrivateTags }),
    200,
  );
  const api = client((await createKey(workspace.id)).key);
  const bytes = fixtureBytes("phone-tags.mov");
  const [videoId = ""] = await insertVideos(workspace.id, 1, {
    status: "queued",
    progress: 0,
    filename: "phone-tags.mov",
    fileSize: bytes.byteLength,
  });
  await env.MEDIA_BUCKET.put(sourceKey(videoId), bytes);

  const { ports } = simulatedEngine();
  const target = recordingEnv();
  await target.queues.PROCESSING_QUEUE.send({
    type: "process-video",
    video_id: videoId,
    workspace_id: workspace.id,
  });
  await drain(target, ports);
  const video = await expectJson<{ status: string; media?: { understood?: unknown } }>(
    await api.get(`/videos/${videoId}`),
    200,
  );
  expect(video.status, JSON.stringify(video)).toBe("completed");
  const stored = [
    JSON.stringify(await storedSegments(videoId)),
    (await (await env.MEDIA_BUCKET.get(probeKey(videoId)))?.text()) ?? "",
    (await (await env.MEDIA_BUCKET.get(indexKey(videoId)))?.text()) ?? "",
  ].join("\n");
  const search = await api.post("/search", { query: "iPhone 15 Pro", video_ids: [videoId] });
  const found = await expectJson<{ data: { video_id: string }[] }>(search, 200);
  return { engine: JSON.stringify(video.media), stored, found: found.data };
}

describe("private tags with the production media engine", () => {
  it("drops them before the probe is stored or the index is assembled", async () => {
    const { engine, stored, found } = await processWithProductionEngine(false);
    // Frames were described: the production engine, not the local one, built this index.
    expect(engine).toContain("through described frames");
    expect(stored).toContain("Harbour walk");
    for (const value of ["48.8577", "iPhone 15 Pro", "17.4.1", "com.apple.quicktime.make"])
      expect(stored).not.toContain(value);
    expect(found).toEqual([]);
  });

  it("indexes them when the workspace opts in", async () => {
    const { stored, found } = await processWithProductionEngine(true);
    expect(stored).toContain("com.apple.quicktime.model: iPhone 15 Pro");
    expect(stored).toContain("+48.8577+002.2950+035.000/");
    expect(found.length).toBeGreaterThan(0);
  });
});
