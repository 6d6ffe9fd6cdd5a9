// One frame of a small cut, decoded by ffmpeg and read by PaddleOCR: the screen reader's work.
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

/** How long one decode may take before it is ended: a cut is a few seconds of video. */
const DECODE_TIMEOUT_MS = 30_000;

/** Thrown when ffmpeg cannot decode the cut: the input is at fault, not the reader. */
export class UndecodableError extends Error {}

/**
 * Runs `work` on the path of a file holding `cut`, removed afterwards: an MP4 whose index
 * follows its packets cannot be read from a pipe.
 */
export async function decodeInput(cut, work) {
  const dir = await mkdtemp(path.join(tmpdir(), "screen-reader-"));
  try {
    const input = path.join(dir, "cut");
    await writeFile(input, cut);
    return await work(input);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * The frame `offset` seconds into `cut` (an MP4 or WebM of a few frames), scaled to fit a
 * `box` pixel square, as JPEG bytes. The cut goes through a file of its own: an MP4 whose
 * index follows its packets cannot be read from a pipe.
 */
export async function decodeFrame(ffmpegPath, cut, offset, box) {
  const dir = await mkdtemp(path.join(tmpdir(), "screen-reader-"));
  try {
    const input = path.join(dir, "cut");
    const output = path.join(dir, "frame.jpg");
    await writeFile(input, cut);
    const fit = `scale=w=${box}:h=${box}:force_original_aspect_ratio=decrease`;
    await runFfmpeg(
      ffmpegPath,
      [
        ...["-hide_banner", "-loglevel", "error", "-nostdin", "-threads", "1"],
        ...["-ss", String(offset), "-i", input, "-frames:v", "1", "-vf", fit],
        ...["-q:v", "3", "-f", "image2", "-y", output],
      ],
      "the cut",
      DECODE_TIMEOUT_MS,
    );
    const jpeg = await readFile(output).catch(() => null);
    if (jpeg === null || jpeg.byteLength === 0)
      throw new UndecodableError(`no frame at ${offset} s of the cut`);
    return { jpeg, path: output, dispose: () => rm(dir, { recursive: true, force: true }) };
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

/**
 * Runs ffmpeg with `args`, ended after `timeoutMs`; resolves to what it wrote to stdout, and
 * rejects with an UndecodableError naming `what` and ffmpeg's last line when it fails.
 */
export function runFfmpeg(file, args, what, timeoutMs) {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { stdio: ["ignore", "pipe", "pipe"] });
    const chunks = [];
    let stderr = "";
    child.stdout.on("data", (chunk) => chunks.push(chunk));
    child.stderr.on("data", (chunk) => {
      if (stderr.length < 2000) stderr += chunk;
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once("close", (code, signal) => {
      clearTimeout(timer);
      if (code === 0) return resolve(Buffer.concat(chunks));
      const last = stderr.trim().split("\n").at(-1) ?? "";
      reject(
        new UndecodableError(
          `ffmpeg could not decode ${what} (${signal ?? `exit ${code}`}): ${last}`,
        ),
      );
    });
  });
}

/**
 * The text lines PaddleOCR reads in the image at `imagePath`, top to bottom, each with its
 * confidence (the mean of its characters' probabilities, 0-1) and its box.
 */
export async function readLines(ocr, imagePath) {
  const lines = await ocr.detect(imagePath);
  return lines
    .map((line) => ({
      text: String(line.text ?? "")
        .replace(/\s+/g, " ")
        .trim(),
      confidence: Math.round(Number(line.mean ?? 0) * 1000) / 1000,
      box: Array.isArray(line.box) ? line.box.map((p) => [Math.round(p[0]), Math.round(p[1])]) : [],
    }))
    .filter((line) => line.text !== "")
    .sort(
      (a, b) =>
        (a.box[0]?.[1] ?? 0) - (b.box[0]?.[1] ?? 0) || (a.box[0]?.[0] ?? 0) - (b.box[0]?.[0] ?? 0),
    );
}
