// The screen reader: a loopback HTTP service next to `wrangler dev` that decodes one frame of a
// small cut and reads its on-screen text (docs/media-understanding.md, "Local engine"). The
// Worker cannot load native code, so this process holds ffmpeg and the OCR models for it.
// Started by scripts/lib/screen-reader.mjs; prints one READY or FAILED line, then serves.
import { spawnSync } from "node:child_process";
import { timingSafeEqual } from "node:crypto";
import { createServer } from "node:http";
import { identicalFrames } from "./identical-frames.mjs";
import { startOcrPool } from "./ocr-pool.mjs";
import { decodeFrame, UndecodableError } from "./read-frame.mjs";
import { hearSpeech, loadSpeech } from "./speech.mjs";

/** The reader's name, as the Worker stores it with what it read. */
export const ENGINE = "pp-ocrv4";
/** A cut is at most 24 MB (the Worker's budget); anything much larger is not one. */
const MAX_BODY_BYTES = 64 * 1024 * 1024;
const MAX_BOX = 1920;

const secret = process.env.SCREEN_READER_SECRET ?? "";
const port = Number(process.env.SCREEN_READER_PORT ?? 0);

function fail(reason) {
  process.stdout.write(`SCREEN_READER_FAILED ${reason.replace(/\s+/g, " ").slice(0, 300)}\n`);
  process.exit(1);
}

/** Loads the native parts now, so a machine that cannot run them is told at start. */
async function loadParts() {
  const { default: installer } = await import("@ffmpeg-installer/ffmpeg");
  const probe = spawnSync(installer.path, ["-hide_banner", "-version"], { encoding: "utf8" });
  if (probe.status !== 0)
    throw new Error(`ffmpeg does not run here (${probe.error ?? probe.status})`);
  return { ocr: await startOcrPool(), ffmpegPath: installer.path };
}

if (secret.length < 16) fail("SCREEN_READER_SECRET must be set (16 characters at least)");
let parts;
try {
  parts = await loadParts();
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
}
const frames = identicalFrames((imagePath) => parts.ocr.read(imagePath));
// Speech spans are optional: without them the reader still reads on-screen text.
const speech = await loadSpeech(process.env);

// Speech detection runs one cut at a time.
let speechTurn = Promise.resolve();
function inTurn(work) {
  const result = speechTurn.then(work);
  speechTurn = result.catch(() => undefined);
  return result;
}

function authorised(req) {
  const given = Buffer.from(req.headers.authorization ?? "");
  const wanted = Buffer.from(`Bearer ${secret}`);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

function answer(res, status, body) {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
  });
  res.end(text);
}

async function readBody(req) {
  const chunks = [];
  let size = 0;
  for await (const chunk of req) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

async function readFrame(req, res, url) {
  const offset = Number(url.searchParams.get("offset") ?? "0");
  const box = Number(url.searchParams.get("box") ?? "640");
  if (!Number.isFinite(offset) || offset < 0 || !Number.isInteger(box) || box < 32 || box > MAX_BOX)
    return answer(res, 400, { error: "invalid offset or box" });
  const cut = await readBody(req);
  if (cut === null) return answer(res, 413, { error: "the cut is too large" });
  if (cut.byteLength === 0) return answer(res, 400, { error: "invalid: empty cut" });
  let frame;
  try {
    frame = await decodeFrame(parts.ffmpegPath, cut, offset, box);
  } catch (error) {
    const status = error instanceof UndecodableError ? 422 : 500;
    return answer(res, status, { error: String(error instanceof Error ? error.message : error) });
  }
  try {
    const lines = await frames.read(frame.jpeg, frame.path);
    answer(res, 200, {
      engine: ENGINE,
      frame: { content_type: "image/jpeg", base64: frame.jpeg.toString("base64") },
      lines: lines.map(({ text, confidence }) => ({ text, confidence })),
    });
  } finally {
    await frame.dispose();
  }
}

async function hearCut(req, res) {
  if (speech.vad === null) return answer(res, 503, { error: `no speech spans: ${speech.notice}` });
  const cut = await readBody(req);
  if (cut === null) return answer(res, 413, { error: "the cut is too large" });
  if (cut.byteLength === 0) return answer(res, 400, { error: "invalid: empty cut" });
  try {
    answer(res, 200, await hearSpeech(speech, parts.ffmpegPath, cut, inTurn));
  } catch (error) {
    const status = error instanceof UndecodableError ? 422 : 500;
    answer(res, status, { error: String(error instanceof Error ? error.message : error) });
  }
}

const server = createServer((req, res) => {
  const url = new URL(req.url ?? "/", "http://screen-reader");
  if (req.method === "GET" && url.pathname === "/healthz") {
    const { rss } = process.memoryUsage();
    return answer(res, 200, {
      status: "ok",
      engine: ENGINE,
      rss_bytes: rss,
      ocr_workers: parts.ocr.started,
      frames_read: frames.counts.frames,
      frames_identical: frames.counts.identical,
    });
  }
  if (!authorised(req)) return answer(res, 401, { error: "unauthorised" });
  if (req.method === "POST" && url.pathname === "/v1/speech") {
    hearCut(req, res).catch((error) => {
      if (!res.headersSent) answer(res, 500, { error: String(error) });
      else res.destroy();
    });
    return;
  }
  if (req.method === "POST" && url.pathname === "/v1/frames") {
    readFrame(req, res, url).catch((error) => {
      if (!res.headersSent) answer(res, 500, { error: String(error) });
      else res.destroy();
    });
    return;
  }
  answer(res, 404, { error: "not found" });
});
server.requestTimeout = 120_000;
server.on("error", (error) => fail(error.message));
server.listen(port, "127.0.0.1", () => {
  const address = server.address();
  process.stdout.write(
    `SCREEN_READER_READY ${JSON.stringify({ port: address.port, engine: ENGINE, speech: speech.engine, speech_notice: speech.notice, transcribes: speech.vad !== null && speech.whisperUrl !== null })}\n`,
  );
});
// Ends with the process that started it: an orphan is adopted by another parent.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) process.exit(0);
}, 2000).unref();
