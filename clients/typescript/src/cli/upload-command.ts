import path from "node:path";
import { MultiBar, type SingleBar } from "cli-progress";
import type { VasClient } from "../client.js";
import { VasError } from "../errors.js";
import { fileBlob } from "../node.js";
import type { Video } from "../types.js";
import { recordedBytes } from "../upload.js";
import { EXIT, type Settings } from "./config.js";
import { formatBytes } from "./output.js";
import { forgetUpload, pendingUpload, rememberUpload } from "./resume-state.js";
import { printVideos } from "./video-output.js";

export interface UploadFlags {
  wait?: boolean;
  concurrency: number;
  timeout: number;
}

/** A bar per file on stderr (bytes, rate, ETA), only when stderr is a terminal. */
function bars(): MultiBar | undefined {
  if (!process.stderr.isTTY) return undefined;
  return new MultiBar({
    stream: process.stderr,
    format: "{file} [{bar}] {percentage}% | {done}/{size} | {rate} | ETA {eta_formatted}",
    barsize: 24,
    hideCursor: true,
    clearOnComplete: false,
    etaBuffer: 20,
  });
}

/** A session gone for good (aborted, expired, unknown) means starting again. */
function sessionGone(error: unknown): boolean {
  return (
    error instanceof VasError &&
    error.kind === "http" &&
    [404, 409, 410].includes(error.status) &&
    error.code !== "upload-size-mismatch"
  );
}

async function uploadOne(
  client: VasClient,
  settings: Settings,
  file: string,
  flags: UploadFlags,
  multibar: MultiBar | undefined,
  signal: AbortSignal,
): Promise<Video> {
  const blob = await fileBlob(file);
  const name = path.basename(file);
  let bar: SingleBar | undefined;
  const started = Date.now();
  let startBytes = 0;
  const run = (videoId: string | undefined) =>
    client.uploadFile(blob, {
      filename: name,
      concurrency: flags.concurrency,
      signal,
      ...(videoId ? { videoId } : {}),
      onSession: (session) => {
        startBytes = recordedBytes(session);
        rememberUpload(file, settings.baseUrl, session.video_id);
      },
      onProgress: ({ loaded, total }) => {
        if (!multibar) return;
        const seconds = Math.max(0.001, (Date.now() - started) / 1000);
        const payload = {
          file: name,
          done: formatBytes(loaded),
          size: formatBytes(total),
          rate: `${formatBytes((loaded - startBytes) / seconds)}/s`,
        };
        bar ??= multibar.create(total, startBytes, payload);
        bar.update(loaded, payload);
      },
    });
  const earlier = pendingUpload(file, settings.baseUrl);
  let video: Video;
  try {
    video = await run(earlier);
  } catch (error) {
    if (!earlier || !sessionGone(error)) throw error;
    video = await run(undefined);
  }
  forgetUpload(file);
  return video;
}

/** `vas upload FILE…`: resumes what an earlier interrupted run of the same file left. */
export async function uploadCommand(
  client: VasClient,
  settings: Settings,
  files: string[],
  flags: UploadFlags,
): Promise<number> {
  const controller = new AbortController();
  const interrupt = () => controller.abort(new Error("interrupted"));
  process.once("SIGINT", interrupt);
  process.once("SIGTERM", interrupt);
  const multibar = bars();
  const videos: Video[] = [];
  try {
    for (const file of files) {
      videos.push(await uploadOne(client, settings, file, flags, multibar, controller.signal));
    }
  } catch (error) {
    multibar?.stop();
    if (!controller.signal.aborted) throw error;
    process.stderr.write("vas: interrupted; run the same command again to resume.\n");
    return EXIT.interrupted;
  } finally {
    process.off("SIGINT", interrupt);
    process.off("SIGTERM", interrupt);
  }
  multibar?.stop();
  const results = flags.wait
    ? await Promise.all(
        videos.map((v) => client.waitForVideo(v.id, { timeoutMs: flags.timeout * 1000 })),
      )
    : videos;
  printVideos(
    results,
    results.map((v, i) => [files[i], v.id, v.status]),
    settings.json,
    (_, i) => files[i] ?? "",
  );
  return EXIT.ok;
}
