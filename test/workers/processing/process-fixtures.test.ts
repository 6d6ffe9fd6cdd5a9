import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { indexKey } from "../../../src/lib/object-keys";
import { newTenant, workerFetch } from "../../helpers/harness";
import { outbox, storedSegments, uploadFixture, waitForFinal } from "../../helpers/processing";

// Each fixture goes the whole way a client's video goes: upload through the gateway,
// complete, the processing and indexing queues, then the API.

describe("processing the fixtures end to end", () => {
  it("indexes talk.mp4: measurements, captions as transcript, tags, cover art thumbnail, video.indexed", async () => {
    const { api, workspaceId } = await newTenant(["UPLOAD_VIDEOS", "READ_VIDEOS"]);
    const uploaded = await uploadFixture(api, "talk.mp4");
    const video = await waitForFinal(api, uploaded.id);
    expect(video).toMatchObject({
      status: "completed",
      progress: 100,
      duration: 24,
      frame_count: 600,
    });
    expect(video.error).toBeUndefined();
    // The caption track runs to 23.5 s of 24: it covers the video, in English (its tag).
    expect(video.media?.coverage).toEqual({
      transcript: [
        {
          origin: "captions",
          source: "text-track:0:eng",
          language: "en",
          seconds: 23.5,
          share: 0.979,
        },
      ],
      scene: { seconds: 0, share: 0 },
      ocr: { seconds: 0, share: 0 },
    });

    const segments = await storedSegments(video.id);
    expect(segments.length).toBeGreaterThanOrEqual(3);
    expect(segments[0]?.start_time).toBe(0);
    expect(segments.at(-1)?.end_time).toBe(24);
    for (const segment of segments)
      expect(segment.end_time - segment.start_time).toBeLessThanOrEqual(10);
    const transcript = segments.map((s) => s.transcript).join("\n");
    expect(transcript).toContain("Forklift operators must wear high visibility vests.");
    expect(transcript).toContain("The loading dock closes at six pm.");
    const forklift = segments.find((s) => s.transcript.includes("Forklift"));
    expect(forklift?.evidence).toContainEqual(
      expect.objectContaining({
        kind: "transcript",
        start: 5,
        end: 8.5,
        text: "Forklift operators must wear high visibility vests.",
      }),
    );
    expect(forklift?.tags).toContain("forklift");

    expect(video.thumbnail_url).toMatch(
      /^https:\/\/vas\.test\/storage\/videos\/.+X-Amz-Signature=/,
    );
    const thumbnail = await workerFetch(video.thumbnail_url ?? "");
    expect(thumbnail.status).toBe(200);
    expect(thumbnail.headers.get("content-type")).toBe("image/png");

    const index = await env.MEDIA_BUCKET.get(indexKey(video.id));
    const doc = (await index?.json()) as {
      engine: string;
      coverage: { transcript: boolean; scene: boolean };
      segments: unknown[];
    };
    expect(doc).toMatchObject({
      engine: "local-media@4",
      coverage: { transcript: true, scene: false },
    });
    expect(doc.segments).toHaveLength(segments.length);

    const events = await outbox(workspaceId);
    expect(events.map((e) => e.type)).toEqual(["video.indexed"]);
    expect(events[0]?.data.video).toMatchObject({ id: video.id, status: "completed" });
  });

  it.each([
    ["moov-at-end.mov", 12, "Check the freezer thermometer log."],
    ["captions.webm", 15.007, "Whisk the eggs with a pinch of saffron."],
    ["subtitles.mkv", 15.032, "Lever the tyre off the rim carefully."],
  ] as const)("indexes %s with its timed text", async (name, duration, line) => {
    const { api } = await newTenant(["UPLOAD_VIDEOS", "READ_VIDEOS"]);
    const video = await waitForFinal(api, (await uploadFixture(api, name)).id);
    expect(video.status).toBe("completed");
    expect(video.duration).toBeCloseTo(duration, 2);
    const segments = await storedSegments(video.id);
    expect(segments.map((s) => s.transcript).join("\n")).toContain(line);
  });

  it("invents nothing for a video without text or tags", async () => {
    const { api } = await newTenant(["UPLOAD_VIDEOS", "READ_VIDEOS"]);
    const video = await waitForFinal(api, (await uploadFixture(api, "silent.mp4")).id);
    expect(video).toMatchObject({ status: "completed", duration: 6, frame_count: 150 });
    const segments = await storedSegments(video.id);
    expect(segments.every((s) => s.transcript === "" && s.tags.length === 0)).toBe(true);
    expect(segments.flatMap((s) => s.evidence.filter((e) => e.kind !== "thumbnail"))).toEqual([]);
    const thumbnail = await workerFetch(video.thumbnail_url ?? "");
    expect(thumbnail.headers.get("content-type")).toBe("image/svg+xml");
    const doc = (await (await env.MEDIA_BUCKET.get(indexKey(video.id)))?.json()) as {
      coverage: Record<string, boolean>;
      limitations: string[];
    };
    expect(doc.coverage).toEqual({ transcript: false, ocr: false, scene: false, metadata: false });
    expect(doc.limitations).toContain("no-timed-text");
  });

  it.each([
    ["corrupt.mp4", "corrupt-media"],
    ["not-a-video.mp4", "unsupported-media"],
    ["audio-only.mp4", "unsupported-media"],
  ] as const)("fails %s with %s and a next action, and announces it", async (name, code) => {
    const { api, workspaceId } = await newTenant(["UPLOAD_VIDEOS", "READ_VIDEOS"]);
    const video = await waitForFinal(api, (await uploadFixture(api, name)).id);
    expect(video).toMatchObject({ status: "failed", error: { code } });
    expect(video.error?.next_action).toBeTruthy();
    expect(video.error_message).toBe(video.error?.detail);
    expect(await storedSegments(video.id)).toEqual([]);
    expect((await outbox(workspaceId)).map((e) => e.type)).toEqual(["video.failed"]);
  });
});
