import type { Hono } from "hono";
import { database, runBatch } from "../../src/db/client";
import { replaceSegmentsStatements, type SegmentRow } from "../../src/db/repos/segments";
import { insertVideo, updateVideoStatement } from "../../src/db/repos/videos";
import type { MediaProbe, TextCue } from "../../src/domain/media";
import type { VideoMedia } from "../../src/domain/video";
import type { Env } from "../../src/env";
import { nowIso } from "../../src/lib/clock";
import { newId } from "../../src/lib/ids";
import { indexKey, thumbnailKeyOf } from "../../src/lib/object-keys";
import type { HonoEnv } from "../../src/middleware/hono-env";
import type { Ports } from "../../src/ports";
import { LOCAL_ENGINE_ID } from "../../src/ports/media-understanding/local";
import { understandWhole } from "../../src/ports/media-understanding/port";
import { createDeps } from "../../src/services/deps";
import { indexVideo } from "../../src/services/search/index-video";

interface Transcript {
  title: string;
  keywords: string[];
  duration: number;
  cues: TextCue[];
}

/** What probing a captioned MP4 with this transcript would measure. */
function transcriptProbe(transcript: Transcript): MediaProbe {
  const keyframes = Array.from({ length: Math.ceil(transcript.duration / 2) }, (_, i) => i * 2);
  return {
    container: "mp4",
    duration: transcript.duration,
    video: {
      codec: "avc1",
      width: 160,
      height: 90,
      rotation: 0,
      frameCount: Math.round(transcript.duration * 25),
      fps: 25,
    },
    audio: null,
    keyframes,
    textTracks: [{ index: 0, codec: "tx3g", language: "eng", cues: transcript.cues }],
    tags: { title: transcript.title, keywords: transcript.keywords, other: {} },
    coverArt: null,
  };
}

const WORDS =
  "account active address adjust advice agenda alarm amount angle answer apple area arrow asset audit balance basket battery beam belt bench blade block board boiler bolt bottle bracket brake branch brick bridge bucket budget cable cabinet camera canvas carbon carton ceiling chain chart chassis circuit clamp client clock coat column compass copper cotton counter crane crate customer cylinder damage dealer delivery desk diesel dock drawer drill engine entry fabric fence filter flange floor fluid folder forklift frame freezer fuel gauge gear glove grease hammer handle harness helmet hinge hose invoice jacket joint kettle label ladder lamp lever license loader lock lumber machine magnet manual marker meter mirror motor nail needle nozzle office oven packet paint pallet panel paper pedal pipe plank plate pliers plug pocket pole pump rack radio rail ramp receipt roller rope rubber saddle safety sample scale screw sensor shelf shift shovel signal socket spanner spring stack steel strap switch tablet tank tape timber tire tool tower trailer tray truck tube valve vest wagon washer wheel winch wire wrench".split(
    " ",
  );

/** Segment ids of the bench's synthetic videos; unique per video and position. */
function segmentId(videoId: string, position: number): string {
  return `seg_${videoId.slice("vid_".length)}_${String(position).padStart(5, "0")}`;
}

/**
 * Indexes a transcript the way processing indexes a captioned upload, through the public
 * media-understanding port and the segment repo (no thumbnail or index document: search
 * reads neither).
 */
async function indexTranscript(
  env: Env,
  ports: Ports,
  videoId: string,
  workspaceId: string,
  transcript: Transcript,
): Promise<void> {
  const db = database(env.DB);
  const empty = { size: 0, read: async () => new Uint8Array(0) };
  const understanding = await understandWhole(ports.understanding, {
    videoId,
    filename: `${transcript.title}.mp4`,
    contentType: "video/mp4",
    objectKey: `videos/${videoId}/source`,
    probe: transcriptProbe(transcript),
    source: empty,
  });
  const createdAt = nowIso();
  const rows: SegmentRow[] = understanding.segments.map((segment) => ({
    id: segmentId(videoId, segment.index),
    videoId,
    workspaceId,
    position: segment.index,
    startTime: segment.start,
    endTime: segment.end,
    sceneDescription: segment.sceneDescription,
    transcript: segment.transcript,
    tags: segment.tags,
    evidence: segment.evidence,
    createdAt,
  }));
  const media = {
    engine: understanding.engine,
    coverage: understanding.coverage,
    limitations: understanding.limitations,
    tags: understanding.tags,
    title: understanding.title,
  };
  await runBatch(db, [
    ...replaceSegmentsStatements(db, videoId, rows),
    updateVideoStatement(db, videoId, { progress: 80, media, updatedAt: createdAt }),
  ]);
}

/**
 * The media facts processing stores for a captioned 720p MP4 with a generated poster: what a
 * real video row carries (~700 bytes of JSON), so that reads which carry it cost what they do.
 */
function syntheticMedia(videoId: string, duration: number): VideoMedia {
  return {
    container: "mp4",
    fps: 25,
    width: 1280,
    height: 720,
    video_codec: "avc1.64001f",
    audio: { codec: "mp4a.40.2", channels: 2, sample_rate: 48_000 },
    thumbnail: { key: thumbnailKeyOf(videoId), content_type: "image/jpeg", source: "poster" },
    engine: LOCAL_ENGINE_ID,
    index_key: indexKey(videoId),
    coverage: { transcript: true, ocr: false, scene: false, metadata: false },
    extent: {
      transcript: [
        {
          origin: "captions",
          source: "text-track:0:eng",
          language: "en",
          seconds: duration,
          share: 1,
        },
      ],
      scene: { seconds: 0, share: 0 },
      ocr: { seconds: 0, share: 0 },
    },
    limitations: ["no-container-metadata", "thumbnail-generated-poster"],
    tags: ["english"],
    title: null,
  };
}

function generator(seed: number) {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 0x100000000;
  };
}

/**
 * Bench-only routes for search: index a synthetic transcript the way a
 * captioned upload is indexed, seed many synthetic segments, and read the local index's size.
 */
export function registerBenchSearchRoutes(app: Hono<HonoEnv>, ports: () => Ports) {
  app.post("/__bench/index-transcript", async (c) => {
    const workspaceId = c.req.query("workspace_id") ?? "";
    const transcript = await c.req.json<Transcript>();
    const db = database(c.env.DB);
    const id = newId("vid");
    const now = nowIso();
    await insertVideo(db, {
      id,
      workspaceId,
      filename: `${transcript.title}.mp4`,
      contentType: "video/mp4",
      fileSize: 1,
      status: "processing",
      progress: 30,
      duration: transcript.duration,
      createdAt: now,
      updatedAt: now,
    });
    await indexTranscript(c.env, ports(), id, workspaceId, transcript);
    await indexVideo(createDeps(c.env, ports()), {
      type: "index-video",
      video_id: id,
      workspace_id: workspaceId,
    });
    return c.json({ video_id: id });
  });

  app.post("/__bench/seed-segments", async (c) => {
    const workspaceId = c.req.query("workspace_id") ?? "";
    const videoCount = Number(c.req.query("videos") ?? 10);
    const perVideo = Number(c.req.query("segments") ?? 100);
    const random = generator(Number(c.req.query("seed") ?? 1));
    const db = database(c.env.DB);
    for (let v = 0; v < videoCount; v++) {
      const id = newId("vid");
      const now = nowIso();
      await insertVideo(db, {
        id,
        workspaceId,
        filename: `synthetic-${v}.mp4`,
        contentType: "video/mp4",
        fileSize: 1,
        status: "processing",
        progress: 80,
        duration: perVideo * 8,
        media: syntheticMedia(id, perVideo * 8),
        createdAt: now,
        updatedAt: now,
      });
      const rows: SegmentRow[] = Array.from({ length: perVideo }, (_, position) => {
        const words = Array.from(
          { length: 14 },
          () => WORDS[Math.floor(random() * WORDS.length)] ?? "tool",
        );
        const transcript = `${words.join(" ")}.`;
        return {
          id: segmentId(id, position),
          videoId: id,
          workspaceId,
          position,
          startTime: position * 8,
          endTime: position * 8 + 8,
          sceneDescription: `Captioned speech: "${transcript}"`,
          transcript,
          tags: [],
          evidence: [
            {
              kind: "transcript",
              start: position * 8,
              end: position * 8 + 8,
              text: transcript,
              source: "text-track:0",
            },
          ],
          createdAt: now,
        };
      });
      await runBatch(db, replaceSegmentsStatements(db, id, rows));
      await indexVideo(createDeps(c.env, ports()), {
        type: "index-video",
        video_id: id,
        workspace_id: workspaceId,
      });
    }
    return c.json({ videos: videoCount, segments: videoCount * perVideo });
  });

  app.get("/__bench/index-stats", async (c) => {
    return c.json(await c.env.LOCAL_INDEX.getByName(c.req.query("workspace_id") ?? "").stats());
  });
}
