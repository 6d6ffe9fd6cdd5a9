import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { WINDOWS_PER_PAGE } from "../../../src/db/repos/media-windows";
import type { Env } from "../../../src/env";
import type { UnderstandWindowMessage } from "../../../src/lib/queue-messages";
import { probeMedia } from "../../../src/media/probe";
import { createPorts, type Ports } from "../../../src/ports";
import { pacedAi } from "../../../src/ports/ai/model-calls";
import { R2FrameStore } from "../../../src/ports/media-understanding/frame-store";
import { WorkersAiMediaUnderstanding } from "../../../src/ports/media-understanding/workers-ai";
import { consumeProcessing } from "../../../src/queues/processing";
import { createDeps } from "../../../src/services/deps";
import { storeProbe } from "../../../src/services/media/probe-store";
import { insertVideos } from "../../helpers/factories";
import { newTenant } from "../../helpers/harness";
import { instantCalls } from "../../helpers/instant-calls";
import { longMp4 } from "../../helpers/long-mp4";
import { recordingEnv } from "../../helpers/sweep";
import { RecordingAi, RecordingMedia } from "../media-understanding/recording-fakes";

// A 50-hour video, at the planning and assembly level: its probe is that of a virtual 50-hour
// MP4 (test/helpers/long-mp4.ts, real sample tables), kept as a delivery that probed it and
// then stopped keeps it; its windows' results are made in D1 as the windows would store them.

const HOURS = 50;

/**
 * D1 as the consumers reach it, recording the SQL of each batch and the rows of each query;
 * with `crashAt`, the batch that would record that page of windows stops the invocation.
 */
function recordingD1(d1: D1Database, crashAt = Number.POSITIVE_INFINITY) {
  const sqlOf = new WeakMap<D1PreparedStatement, string>();
  const batches: string[][] = [];
  const reads: { sql: string; rows: number }[] = [];
  let windowPages = 0;
  const wrap = (statement: D1PreparedStatement, sql: string): D1PreparedStatement => {
    // The strict binding binds through the statement it was given: one recording is enough.
    if (sqlOf.has(statement)) return statement;
    const wrapped = new Proxy(statement, {
      get(target, property) {
        const value: unknown = Reflect.get(target, property, target);
        if (typeof value !== "function") return value;
        if (property === "bind")
          return (...args: unknown[]) => wrap(Reflect.apply(value, target, args), sql);
        if (property !== "raw" && property !== "all") return value.bind(target);
        return async (...args: unknown[]) => {
          const result: unknown = await Reflect.apply(value, target, args);
          const rows = Array.isArray(result) ? result : (result as D1Result).results;
          reads.push({ sql, rows: rows.length });
          return result;
        };
      },
    });
    sqlOf.set(wrapped, sql);
    return wrapped;
  };
  const db = new Proxy(d1, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (property === "prepare") return (sql: string) => wrap(target.prepare(sql), sql);
      if (property === "batch")
        return (statements: D1PreparedStatement[]) => {
          const sqls = statements.map((s) => sqlOf.get(s) ?? "");
          if (sqls.some((sql) => sql.startsWith('insert into "media_windows"'))) {
            if (++windowPages >= crashAt) throw new Error("the invocation stopped here");
          }
          batches.push(sqls);
          return target.batch(statements);
        };
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { db, batches, reads };
}

function productionPorts(target: Env): Ports {
  const instant = instantCalls();
  return {
    ...createPorts(target),
    understanding: new WorkersAiMediaUnderstanding({
      ai: pacedAi(new RecordingAi(), instant),
      media: new RecordingMedia(),
      frames: new R2FrameStore(env.MEDIA_BUCKET),
    }),
  };
}

async function deliver(message: unknown, d1: D1Database, queues = recordingEnv()) {
  const target: Env = { ...queues.env, DB: d1 };
  const batch = createMessageBatch("video-processing", [
    { id: crypto.randomUUID(), timestamp: new Date(), attempts: 1, body: message },
  ]);
  const ctx = createExecutionContext();
  await consumeProcessing(batch, createDeps(target, productionPorts(target)));
  return { result: await getQueueResult(batch, ctx), queues };
}

async function count(sql: string, ...values: unknown[]): Promise<number> {
  const row = await env.DB.prepare(sql)
    .bind(...values)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

/** What every window would store: a span of speech per audio window, each frame described. */
async function understandEveryWindow(videoId: string): Promise<void> {
  await env.DB.prepare(
    `UPDATE media_windows SET state = 'done', result = CASE kind
      WHEN 'audio' THEN json_object(
        'spans', json_array(json_object(
          'start', json_extract(plan, '$.start') + 1, 'end', json_extract(plan, '$.start') + 5,
          'text', 'pallet ' || position || ' is scanned', 'origin', 'speech',
          'source', 'whisper:en', 'language', 'en', 'group', 0)),
        'language', 'en',
        'heard', json_extract(plan, '$.end') - json_extract(plan, '$.start'),
        'notes', json('[]'))
      ELSE json_object(
        'frames', (SELECT json_group_array(json_object(
          'time', json_extract(cell.value, '$.at'), 'from', json_extract(cell.value, '$.from'),
          'to', json_extract(cell.value, '$.to'),
          'description', 'a forklift at bay ' || position, 'tags', json('["forklift"]'),
          'visibleText', json('[]'))) FROM json_each(plan, '$.cells') AS cell),
        'thumbnail', NULL, 'notes', json('[]'))
      END
    WHERE video_id = ?`,
  )
    .bind(videoId)
    .run();
}

describe("a 50-hour video", () => {
  it("is planned and assembled in bounded batches and pages, planning resumed after a crash", async () => {
    const probe = await probeMedia(await longMp4({ hours: HOURS }), {
      filename: "fifty-hours.mp4",
      contentType: "video/mp4",
    });
    expect(probe.duration).toBeGreaterThanOrEqual(HOURS * 3600);
    const { workspaceId } = await newTenant();
    // A delivery started processing it and kept its probe, then stopped.
    const [videoId = ""] = await insertVideos(workspaceId, 1, {
      status: "processing",
      progress: 10,
      filename: "fifty-hours.mp4",
      fileSize: 10 * 1024 ** 3,
    });
    await storeProbe(env.MEDIA_BUCKET, videoId, probe);
    const message = { type: "process-video", video_id: videoId, workspace_id: workspaceId };

    // 30 s audio windows and 8 frames (one per 4 s) a frames window, over 50 hours.
    const audio = Math.ceil(probe.duration / 30);
    const frames = Math.ceil(Math.ceil(probe.duration / 4) / 8);
    const total = audio + frames;
    const pages = Math.ceil(total / WINDOWS_PER_PAGE);
    expect(pages).toBeGreaterThan(20);

    const crashing = recordingD1(env.DB, 10);
    const stopped = await deliver(message, crashing.db);
    expect(stopped.result.retryMessages).toHaveLength(1);
    // Nine pages in; the video is not past `probed`, and nothing was sent.
    expect(await count("SELECT count(*) AS n FROM media_windows WHERE video_id = ?", videoId)).toBe(
      9 * WINDOWS_PER_PAGE,
    );
    expect(await count("SELECT progress AS n FROM videos WHERE id = ?", videoId)).toBe(10);
    expect(stopped.queues.queues.WINDOWS_QUEUE.sent).toEqual([]);

    const replay = recordingD1(env.DB);
    const done = await deliver(message, replay.db);
    expect(done.result.explicitAcks).toHaveLength(1);
    expect(await count("SELECT progress AS n FROM videos WHERE id = ?", videoId)).toBe(30);
    expect(
      await count(
        "SELECT count(DISTINCT position) AS n FROM media_windows WHERE video_id = ? AND position < ?",
        videoId,
        total,
      ),
    ).toBe(total);
    expect(await count("SELECT count(*) AS n FROM media_windows WHERE video_id = ?", videoId)).toBe(
      total,
    );
    // The replay wrote only the pages left, each a batch of one JSON statement (the last with
    // the probed facts), and read the pending windows a page at a time to send them.
    const planning = replay.batches.filter((b) => b[0]?.startsWith('insert into "media_windows"'));
    expect(planning.map((b) => b.length)).toEqual([...Array(pages - 10).fill(1), 2]);
    const sent = (queue: { sent: unknown[] }) =>
      (queue.sent as UnderstandWindowMessage[]).map((m) => m.position);
    const { WINDOWS_QUEUE, FRAMES_QUEUE } = done.queues.queues;
    expect(sent(WINDOWS_QUEUE)).toHaveLength(audio);
    expect(sent(FRAMES_QUEUE)).toHaveLength(frames);
    expect(new Set([...sent(WINDOWS_QUEUE), ...sent(FRAMES_QUEUE)]).size).toBe(total);
    const windowReads = replay.reads.filter((r) => r.sql.includes('from "media_windows"'));
    expect(Math.max(...windowReads.map((r) => r.rows))).toBeLessThanOrEqual(WINDOWS_PER_PAGE);

    // Assembly reads the results a page at a time and stores the segments in bounded batches.
    await understandEveryWindow(videoId);
    const assembly = recordingD1(env.DB);
    const assembled = await deliver(
      { type: "assemble-video", video_id: videoId, workspace_id: workspaceId },
      assembly.db,
    );
    expect(assembled.result.explicitAcks).toHaveLength(1);
    const resultReads = assembly.reads.filter((r) => r.sql.includes('"result"'));
    expect(resultReads.length).toBe(Math.floor(total / WINDOWS_PER_PAGE) + 1);
    expect(Math.max(...resultReads.map((r) => r.rows))).toBeLessThanOrEqual(WINDOWS_PER_PAGE);
    const segmentBatches = assembly.batches.filter((b) =>
      b.some((sql) => sql.includes('"video_segments"')),
    );
    expect(segmentBatches.length).toBeGreaterThan(1);
    expect(Math.max(...segmentBatches.map((b) => b.length))).toBeLessThanOrEqual(6);

    const segments = await env.DB.prepare(
      "SELECT count(*) AS n, min(start_time) AS first, max(end_time) AS last FROM video_segments WHERE video_id = ?",
    )
      .bind(videoId)
      .first<{ n: number; first: number; last: number }>();
    expect(segments?.n).toBeGreaterThan(HOURS * 360);
    expect([segments?.first, segments?.last]).toEqual([0, probe.duration]);
    const video = await env.DB.prepare("SELECT progress, media FROM videos WHERE id = ?")
      .bind(videoId)
      .first<{ progress: number; media: string }>();
    expect(video?.progress).toBe(80);
    const media = JSON.parse(video?.media ?? "{}") as {
      extent: { scene: { share: number }; transcript: { origin: string; seconds: number }[] };
    };
    expect(media.extent.scene.share).toBe(1);
    expect(media.extent.transcript.find((t) => t.origin === "speech")?.seconds).toBeCloseTo(
      probe.duration,
    );
    expect(done.queues.queues.INDEXING_QUEUE.sent).toEqual([]);
    expect(assembled.queues.queues.INDEXING_QUEUE.sent).toHaveLength(1);
  }, 180_000);
});
