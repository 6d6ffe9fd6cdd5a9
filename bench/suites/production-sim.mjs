// A 2-hour 1080p video through the production adapters over the local simulators: how much of
// it is heard and seen, how long from upload complete to indexed (against its duration), the
// most subrequests one invocation made, and model calls a minute against the published rates.
import {
  closeSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readSync,
  rmSync,
  statSync,
  writeSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ROOT } from "../../scripts/lib/local.mjs";
import { loopVideo } from "../../test/helpers/long-video.ts";
import { benchClient, fmt, json, startService } from "../lib.mjs";

export const name = "production-sim";
/** Starts its own service, with the production adapters. */
export const ownService = true;

/** 1,800 plays of the 4 s 1080p clip: 2 hours. */
const LOOPS = 1800;
const PART_BYTES = 10 * 1024 * 1024;
/**
 * Per-call latencies the simulators add. Workers AI publishes no latency figures; these are
 * what Cloudflare's model pages and blog posts show for these models (Whisper large-v3-turbo
 * on 30 s of audio ~1.5 s; Llama 4 Scout describing one image ~2.5 s; BGE-M3 ~150 ms; a Media
 * Transformations frame ~800 ms), rounded up.
 */
const LATENCIES = "speech-recognition=1500,text-generation=2500,text-embeddings=150,media=800";
const PUBLISHED_PER_MINUTE = {
  "speech-recognition": 720,
  "text-generation": 300,
  "text-embeddings": 3000,
};

/** Writes the 2-hour file to disk as mediabunny makes it (positioned writes, moov at the end). */
async function makeVideo(file) {
  const fd = openSync(file, "w");
  const writable = new WritableStream({
    write(chunk) {
      writeSync(fd, chunk.data, 0, chunk.data.length, chunk.position);
    },
  });
  try {
    await loopVideo(readFileSync(path.join(ROOT, "test/fixtures/media/clip-1080p.mp4")), {
      loops: LOOPS,
      caption: (loop) => `Pallet ${loop + 1} is scanned at bay ${(loop % 12) + 1}`,
      writable,
    });
  } finally {
    closeSync(fd);
  }
}

/** A multipart upload as a client makes it: every part PUT to its target, receipts, complete. */
async function upload({ api, headers }, file) {
  const size = statSync(file).size;
  const session = await json(
    await fetch(`${api}/videos`, {
      method: "POST",
      headers,
      body: JSON.stringify({ filename: "two-hours.mp4", file_size: size }),
    }),
  );
  const fd = openSync(file, "r");
  try {
    const targets = [...session.targets];
    const worker = async () => {
      for (let target = targets.shift(); target; target = targets.shift()) {
        const start = (target.part_number - 1) * PART_BYTES;
        const bytes = Buffer.alloc(Math.min(PART_BYTES, size - start));
        readSync(fd, bytes, 0, bytes.length, start);
        const res = await fetch(target.url, {
          method: "PUT",
          headers: target.headers,
          body: bytes,
        });
        if (!res.ok)
          throw new Error(`part ${target.part_number}: ${res.status} ${await res.text()}`);
        const etag = res.headers.get("etag");
        await json(
          await fetch(`${api}/videos/${session.video_id}/upload/parts`, {
            method: "PUT",
            headers,
            body: JSON.stringify({ parts: [{ part_number: target.part_number, etag }] }),
          }),
        );
      }
    };
    await Promise.all(Array.from({ length: 4 }, worker));
  } finally {
    closeSync(fd);
  }
  await json(
    await fetch(`${api}/videos/${session.video_id}/upload/complete`, {
      method: "POST",
      headers,
      body: "{}",
    }),
  );
  return { videoId: session.video_id, size };
}

export async function run() {
  const dir = mkdtempSync(path.join(tmpdir(), "vas-production-sim-"));
  const file = path.join(dir, "two-hours.mp4");
  const made = Date.now();
  await makeVideo(file);
  const makeSeconds = (Date.now() - made) / 1000;
  const service = await startService({
    adapters: "production",
    env: { SIMULATE_VISION: "describe", SIMULATE_MODEL_LATENCY_MS: LATENCIES },
  });
  try {
    const client = await benchClient(service, "production-sim");
    const { videoId, size } = await upload(client, file);
    const completedAt = Date.now();
    const peakRates = { "speech-recognition": 0, "text-generation": 0, "text-embeddings": 0 };
    let video;
    for (;;) {
      video = await json(
        await fetch(`${client.api}/videos/${videoId}`, { headers: client.headers }),
      );
      const stats = await json(await fetch(`${service.baseUrl}/__simulator/stats`));
      for (const [task, count] of Object.entries(stats.model_calls_last_minute))
        peakRates[task] = Math.max(peakRates[task], count);
      if (video.status === "completed" || video.status === "failed") break;
      await new Promise((resolve) => setTimeout(resolve, 5000));
    }
    const indexedSeconds = (Date.now() - completedAt) / 1000;
    const stats = await json(await fetch(`${service.baseUrl}/__simulator/stats`));
    const coverage = video.media?.coverage ?? {};
    const heard = coverage.transcript?.find((t) => t.origin === "speech")?.share ?? 0;
    const captioned = coverage.transcript?.find((t) => t.origin === "captions")?.share ?? 0;
    const seen = coverage.scene?.share ?? 0;
    const peaks = Object.entries(stats.invocation_peaks)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([kind, count]) => `${kind} ${count}`)
      .join(", ");
    const rates = Object.entries(peakRates)
      .map(([task, count]) => `${task} ${count}/min (published ${PUBLISHED_PER_MINUTE[task]})`)
      .join("; ");
    return [
      "### production-sim: a 2-hour 1080p video through the production adapters",
      "",
      `A ${fmt(size / 1024 ** 3, 2)} GiB MP4 (talk-free 1080p test pattern, H.264 + AAC, one WebVTT cue every 4 s; made in ${fmt(makeSeconds, 0)} s) uploaded in 10 MiB parts through the simulated R2 S3 API, under \`ADAPTERS=production\` with \`SIMULATE_VISION=describe\` and \`SIMULATE_MODEL_LATENCY_MS=${LATENCIES}\`.`,
      "",
      "| measure | result | aim |",
      "| --- | --- | --- |",
      `| status | ${video.status}${video.error ? ` (${video.error.code})` : ""} | completed |`,
      `| share heard (speech recognition) | ${fmt(heard * 100, 1)} % (captions ${fmt(captioned * 100, 1)} %) | 100 % |`,
      `| share seen (frames described, one per 4 s) | ${fmt(seen * 100, 1)} % | 100 % |`,
      `| upload complete → indexed | ${fmt(indexedSeconds, 0)} s = ${fmt(indexedSeconds / 7200, 3)} × the duration | ≤ 0.1 × |`,
      `| most subrequests in one invocation | ${peaks} | < 1,000 |`,
      `| model calls in the busiest minute | ${rates} | under each |`,
    ].join("\n");
  } finally {
    await service.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
