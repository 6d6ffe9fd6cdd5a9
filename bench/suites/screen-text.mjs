// On-screen text under the local adapters: how well the screen reader reads the labelled
// frames of bench/screen-text (character error rate, lines read, search precision), and how
// long a 5-minute 720p video takes from upload complete to indexed, with the memory of the
// local processes (the screen reader and workerd).
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { localConfig, ROOT, startWrangler, waitForReady } from "../../scripts/lib/local.mjs";
import { applyMigrations } from "../../scripts/lib/migrations.mjs";
import { postToReader, startScreenReader } from "../../scripts/lib/screen-reader.mjs";

export const name = "screen-text";
/** Starts its own service: the local adapters with the screen reader. */
export const ownService = true;

const SET = path.join(ROOT, "bench", "screen-text");
const CELL_SECONDS = 4;
const VIDEO_SECONDS = 300;
/** The engine's threshold (src/media-understanding/screen-text.ts). */
const MIN_CONFIDENCE = 0.9;

const fold = (text) => text.replace(/\s+/g, " ").trim();

function distance(a, b) {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length];
}

async function readFrame(reader, bytes) {
  const res = await postToReader(reader, "/v1/frames?offset=0&box=640", bytes);
  if (!res.ok) throw new Error(`screen reader: ${res.status} ${await res.text()}`);
  return res.json();
}

/** Reads every labelled frame: CER over the confident lines, lines read exactly, wrong lines. */
async function labelledSet(reader, labels) {
  let errors = 0;
  let chars = 0;
  let exact = 0;
  let labelled = 0;
  let kept = 0;
  let wrong = 0;
  const seconds = [];
  const rows = [];
  for (const [file, lines] of Object.entries(labels)) {
    const started = performance.now();
    const reading = await readFrame(reader, readFileSync(path.join(SET, file)));
    seconds.push((performance.now() - started) / 1000);
    const confident = reading.lines
      .filter((l) => l.confidence >= MIN_CONFIDENCE)
      .map((l) => fold(l.text));
    const truth = lines.join("\n");
    const read = confident.join("\n");
    errors += distance(read, truth);
    chars += truth.length;
    labelled += lines.length;
    exact += lines.filter((line) => confident.includes(line)).length;
    kept += confident.length;
    const letters = (text) => text.replace(/\s/g, "");
    wrong += confident.filter((line) => !lines.some((l) => letters(l) === letters(line))).length;
    rows.push(
      `| ${file} | ${lines.length} | ${lines.filter((l) => confident.includes(l)).length} | ${confident.map((l) => `\`${l}\``).join(", ") || "–"} |`,
    );
  }
  return { cer: errors / chars, exact, labelled, kept, wrong, seconds, rows };
}

/**
 * The labelled frames, each shown for one 4 s cell, in turn until 5 minutes: 720p H.264.
 * `panning` moves the picture as a hand-held camera would (a few pixels each frame), so no
 * two frames decode alike, as in camera footage; still, a cell's frames are one picture, as
 * in slides and screen recordings.
 */
function makeVideo(ffmpegPath, labels, dir, panning) {
  const files = Object.keys(labels);
  const cells = VIDEO_SECONDS / CELL_SECONDS;
  const shown = Array.from({ length: cells }, (_, i) => files[i % files.length]);
  const list = shown.flatMap((f) => [`file '${path.join(SET, f)}'`, `duration ${CELL_SECONDS}`]);
  list.push(`file '${path.join(SET, shown.at(-1))}'`);
  writeFileSync(path.join(dir, "list.txt"), `${list.join("\n")}\n`);
  const out = path.join(dir, `five-minutes-720p-${panning ? "panning" : "stills"}.mp4`);
  const made = spawnSync(ffmpegPath, [
    ...["-hide_banner", "-loglevel", "error", "-y", "-f", "concat", "-safe", "0"],
    ...[
      "-i",
      path.join(dir, "list.txt"),
      "-vf",
      panning
        ? "fps=25,crop=w=1216:h=684:x='32+31*sin(2*PI*t/7)':y='18+17*cos(2*PI*t/5)',scale=1280:720,format=yuv420p"
        : "fps=25,format=yuv420p",
      "-t",
      String(VIDEO_SECONDS),
    ],
    ...[
      "-c:v",
      "libx264",
      "-preset",
      "veryfast",
      "-crf",
      "28",
      "-g",
      "50",
      "-movflags",
      "+faststart",
      out,
    ],
  ]);
  if (made.status !== 0) throw new Error(`ffmpeg: ${made.stderr}`);
  return { file: out, shown, panning };
}

/** Resident memory now and at its peak (kB), of a process and of its process group. */
function memoryOf(pid, group) {
  const status = (p) => {
    try {
      return readFileSync(`/proc/${p}/status`, "utf8");
    } catch {
      return "";
    }
  };
  const kb = (text, key) => Number(text.match(new RegExp(`${key}:\\s+(\\d+)`))?.[1] ?? 0);
  let groupRss = 0;
  for (const p of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${p}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[2]) === group) groupRss += kb(status(p), "VmRSS");
    } catch {
      // Gone meanwhile.
    }
  }
  return { peak: kb(status(pid), "VmHWM"), groupRss };
}

async function api(base, key, method, route, body) {
  const res = await fetch(`${base}/api/v1alpha1${route}`, {
    method,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${text}`);
  return JSON.parse(text);
}

/** The screen reader's counts of frames read and frames answered as identical. */
async function readerCounts(reader) {
  const health = await (await fetch(`${reader.url}/healthz`)).json();
  return { frames: health.frames_read ?? 0, identical: health.frames_identical ?? 0 };
}

/**
 * Uploads `video` and times it from upload complete to `completed`, sampling the memory of
 * the screen reader and of wrangler and workerd every half second.
 */
async function indexVideo({ config, key, reader, child }, video) {
  const bytes = readFileSync(video.file);
  const filename = path.basename(video.file);
  const session = await api(config.baseUrl, key, "POST", "/videos", {
    filename,
    file_size: bytes.length,
  });
  const put = await fetch(session.target.url, {
    method: "PUT",
    headers: session.target.headers,
    body: bytes,
  });
  if (!put.ok) throw new Error(`PUT: ${put.status}`);
  const before = await readerCounts(reader);
  await api(config.baseUrl, key, "POST", `/videos/${session.video_id}/upload/complete`, {});
  const started = performance.now();
  let status;
  let workerd = 0;
  let readerPeak = 0;
  do {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const memory = memoryOf(reader.pid, child.pid);
    workerd = Math.max(workerd, memory.groupRss);
    readerPeak = Math.max(readerPeak, memory.peak);
    status = (await api(config.baseUrl, key, "GET", `/videos/${session.video_id}`)).status;
  } while (
    status !== "completed" &&
    status !== "failed" &&
    performance.now() - started < 30 * 60_000
  );
  const seconds = (performance.now() - started) / 1000;
  if (status !== "completed") throw new Error(`${filename} ended ${status}`);
  const after = await readerCounts(reader);
  return {
    panning: video.panning,
    bytes: bytes.length,
    seconds,
    frames: after.frames - before.frames,
    identical: after.identical - before.identical,
    workerd,
    readerPeak,
  };
}

export async function run() {
  const labels = JSON.parse(readFileSync(path.join(SET, "labels.json"), "utf8"));
  const reader = await startScreenReader();
  if (reader.notice) throw new Error(reader.notice);
  const work = mkdtempSync(path.join(tmpdir(), "vas-bench-screen-"));
  let child;
  try {
    const set = await labelledSet(reader, labels);
    const ffmpegPath = createRequire(import.meta.url)("@ffmpeg-installer/ffmpeg").path;
    const videos = [false, true].map((panning) => makeVideo(ffmpegPath, labels, work, panning));
    const { shown } = videos[0];
    const adminToken = `bench-${Date.now()}`;
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    const config = localConfig({
      ...process.env,
      PORT: String(port),
      STATE_DIR: path.join(work, "state"),
      ADMIN_TOKEN: adminToken,
    });
    config.secrets.SCREEN_READER_URL = reader.url;
    config.secrets.SCREEN_READER_SECRET = reader.secret;
    await applyMigrations(config.stateDir);
    child = startWrangler(config, { stdio: ["ignore", "ignore", "ignore"], detached: true });
    await waitForReady(config.baseUrl, child);
    const admin = async (route, body) =>
      (
        await fetch(`${config.baseUrl}/admin/v1${route}`, {
          method: "POST",
          headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
          body: JSON.stringify(body),
        })
      ).json();
    const workspace = await admin("/workspaces", { name: "Bench screen text", alpha_opt_in: true });
    const { key } = await admin("/keys", {
      workspace_id: workspace.id,
      type: "alpha",
      permissions: ["*"],
    });
    const indexed = [];
    for (const video of videos)
      indexed.push(await indexVideo({ config, key, reader, child }, video));
    const workerd = Math.max(...indexed.map((i) => i.workerd));
    const readerPeak = Math.max(...indexed.map((i) => i.readerPeak));

    // Search precision: each labelled line as a query; a hit is right when the on-screen text
    // it matched is that line's, at a frame of a cell showing it.
    let hits = 0;
    let right = 0;
    const queries = [...new Set(Object.values(labels).flat())];
    for (const query of queries) {
      const found = await api(config.baseUrl, key, "POST", "/search", { query });
      for (const hit of found.data) {
        const ocr = (hit.matches ?? []).filter((m) => m.kind === "ocr");
        if (ocr.length === 0) continue;
        hits++;
        const shows = (m) =>
          (labels[shown[Math.floor(m.start / CELL_SECONDS)]] ?? []).includes(query);
        if (ocr.some(shows)) right++;
      }
    }
    const mean = set.seconds.reduce((a, b) => a + b, 0) / set.seconds.length;
    return [
      `Labelled set: ${Object.keys(labels).length} frames of 1280×720 in \`bench/screen-text\` (slides, signs, captions and lower thirds over busy generated pictures, small print, one frame without text; \`make-frames.sh\`), each read at 640 px as the engine reads a frame; lines below confidence ${MIN_CONFIDENCE} are not evidence.`,
      "",
      "| measure | value |",
      "| --- | --- |",
      `| character error rate (confident lines against the labels) | ${(set.cer * 100).toFixed(1)} % |`,
      `| labelled lines read exactly | ${set.exact} of ${set.labelled} |`,
      `| confident lines that are no labelled line even ignoring spaces (misreads, stray text) | ${set.wrong} of ${set.kept} |`,
      `| search hits on on-screen text at a frame showing the query | ${right} of ${hits} (precision ${hits ? ((right / hits) * 100).toFixed(1) : "–"} %) for ${queries.length} queries |`,
      `| one frame decoded and read (mean of the set, idle reader) | ${mean.toFixed(2)} s |`,
      ...indexed.map(
        (i) =>
          `| 5-minute 720p H.264 video, ${i.panning ? "moving a few pixels a frame as a hand-held camera does" : "still cells as in slides (a cell's frames alike)"} (${(i.bytes / 1e6).toFixed(1)} MB, ${i.frames} frames read, ${i.identical} answered as identical to one read before), upload complete → \`completed\` | ${i.seconds.toFixed(0)} s (${(i.seconds / VIDEO_SECONDS).toFixed(2)} × its duration) |`,
      ),
      `| screen reader's peak resident memory | ${(readerPeak / 1024).toFixed(0)} MB |`,
      `| wrangler and workerd, resident at the peak sample | ${(workerd / 1024).toFixed(0)} MB |`,
      "",
      "| frame | labelled lines | read exactly | confident lines read |",
      "| --- | --- | --- | --- |",
      ...set.rows,
    ].join("\n");
  } finally {
    if (child) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      try {
        process.kill(-child.pid, "SIGTERM");
      } catch {
        // Already gone.
      }
      await exited;
    }
    reader.child?.kill("SIGTERM");
    rmSync(work, { recursive: true, force: true });
  }
}
