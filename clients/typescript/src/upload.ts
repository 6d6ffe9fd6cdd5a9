import type { VasClient } from "./client.js";
import { throwIfAborted } from "./clock.js";
import { VasError } from "./errors.js";
import { unwrap } from "./http.js";
import { fetchWithRetry, type RetryOptions, storageError } from "./retry.js";
import type { StorageTarget, UploadSession, Video } from "./types.js";

export interface UploadProgress {
  videoId: string;
  /** Bytes storage holds (parts recorded before a resume count from the start). */
  loaded: number;
  total: number;
}

export interface UploadOptions extends RetryOptions {
  /** The name the video gets (its extension gives the content type); default the Blob's. */
  filename?: string;
  /** Resume this video's open upload instead of opening a new one. */
  videoId?: string;
  /** Parts in flight at once (default 4). */
  concurrency?: number;
  onProgress?: (progress: UploadProgress) => void;
  /** Called once the session is known, before any byte is sent: keep its id to resume. */
  onSession?: (session: UploadSession) => void;
}

type Session = { client: VasClient; videoId: string; options: UploadOptions };

function sessionPath(videoId: string) {
  return { params: { path: { video_id: videoId } } };
}

function freshTargets({ client, videoId }: Session): Promise<UploadSession> {
  return unwrap(
    client.api.POST("/videos/{video_id}/upload/targets", sessionPath(videoId)),
    "POST /videos/{video_id}/upload/targets",
  );
}

function targetsOf(session: UploadSession): StorageTarget[] {
  if (session.targets.length > 0) return session.targets;
  return session.target ? [session.target] : [];
}

/** Bytes of the parts the session has recorded (they are not sent again). */
export function recordedBytes(session: UploadSession): number {
  if (session.strategy === "direct") return 0;
  return session.received_parts.reduce(
    (sum, n) =>
      sum + Math.min(session.chunk_size, session.file_size - (n - 1) * session.chunk_size),
    0,
  );
}

async function putPart(
  ctx: Session,
  blob: Blob,
  session: UploadSession,
  target: StorageTarget,
  signal: AbortSignal,
): Promise<number> {
  const n = target.part_number;
  const part =
    session.strategy === "direct"
      ? blob
      : blob.slice((n - 1) * session.chunk_size, Math.min(n * session.chunk_size, blob.size));
  let current = target;
  for (let refreshed = false; ; refreshed = true) {
    const response = await fetchWithRetry(
      ctx.client.rawFetch,
      () =>
        new Request(current.url, {
          method: current.method.toUpperCase(),
          headers: current.headers,
          body: part,
          signal,
        }),
      { ...ctx.options, signal },
    );
    // An expired target answers 403: mint fresh ones once and try again.
    if (response.status === 403 && !refreshed) {
      await response.body?.cancel();
      const fresh = targetsOf(await freshTargets(ctx)).find((t) => t.part_number === n);
      if (!fresh) return part.size;
      current = fresh;
      continue;
    }
    if (!response.ok) throw await storageError(response, n);
    await response.body?.cancel();
    const etag = response.headers.get("etag");
    if (session.strategy === "multipart") {
      if (!etag) throw await storageError(response, n);
      await unwrap(
        ctx.client.api.PUT("/videos/{video_id}/upload/parts", {
          ...sessionPath(ctx.videoId),
          body: { parts: [{ part_number: n, etag }] },
          signal,
        }),
        "PUT /videos/{video_id}/upload/parts",
        signal,
      );
    }
    return part.size;
  }
}

/** Sends every target's bytes, `concurrency` at a time; the first failure stops the rest. */
async function sendTargets(ctx: Session, blob: Blob, session: UploadSession, loaded: number) {
  const inner = new AbortController();
  const outer = ctx.options.signal;
  const onAbort = () => inner.abort(outer?.reason);
  outer?.addEventListener("abort", onAbort, { once: true });
  const queue = [...targetsOf(session)];
  let failure: unknown;
  let done = loaded;
  const worker = async () => {
    for (let target = queue.shift(); target && failure === undefined; target = queue.shift()) {
      try {
        // Read `done` only after the await: `done += await …` would lose parallel parts.
        const sent = await putPart(ctx, blob, session, target, inner.signal);
        done += sent;
        ctx.options.onProgress?.({ videoId: ctx.videoId, loaded: done, total: blob.size });
      } catch (error) {
        failure ??= error;
        inner.abort(error);
      }
    }
  };
  try {
    const workers = Math.max(1, Math.min(ctx.options.concurrency ?? 4, queue.length));
    await Promise.all(Array.from({ length: workers }, worker));
  } finally {
    outer?.removeEventListener("abort", onAbort);
  }
  throwIfAborted(outer);
  if (failure !== undefined) throw failure;
}

/** Opens (or, with `videoId`, resumes) the upload session of `blob`. */
async function openSession(client: VasClient, blob: Blob, options: UploadOptions) {
  if (!options.videoId) {
    const filename = options.filename ?? (blob instanceof File ? blob.name : undefined);
    if (!filename)
      throw new TypeError("uploadFile needs a filename for a Blob that is not a File.");
    return unwrap(
      client.api.POST("/videos", { body: { filename, file_size: blob.size } }),
      "POST /videos",
    );
  }
  const ctx = { client, videoId: options.videoId, options };
  const state = await unwrap(
    client.api.GET("/videos/{video_id}/upload", sessionPath(options.videoId)),
    "GET /videos/{video_id}/upload",
  );
  if (state.file_size !== blob.size) {
    throw new VasError("http", {
      type: "/problems/upload-size-mismatch",
      title: "Not the same file",
      status: 409,
      detail: `The upload of ${state.video_id} is ${state.file_size} bytes; this file is ${blob.size}.`,
      code: "upload-size-mismatch",
    });
  }
  if (state.state === "aborted" || state.state === "expired") {
    const expired = state.state === "expired";
    throw new VasError("http", {
      type: `/problems/${expired ? "upload-expired" : "conflict"}`,
      title: "The upload cannot resume",
      status: expired ? 410 : 409,
      detail: `The upload of ${state.video_id} was ${state.state}; start a new one.`,
      code: expired ? "upload-expired" : "conflict",
    });
  }
  return state.state === "open" ? freshTargets(ctx) : state;
}

/**
 * Uploads a video: one PUT up to the direct limit, else parts in parallel, each recorded with
 * its ETag as soon as storage answers, then completes. An interrupted upload resumes with the
 * same call and `videoId`: only the parts not recorded yet are sent. Returns the video.
 */
export async function uploadFile(
  client: VasClient,
  blob: Blob,
  options: UploadOptions = {},
): Promise<Video> {
  throwIfAborted(options.signal);
  const session = await openSession(client, blob, options);
  const ctx: Session = { client, videoId: session.video_id, options };
  options.onSession?.(session);
  if (session.state === "completed") return client.getVideo(session.video_id);
  let current = session;
  // A completion refused for missing parts (a receipt lost to a crash) gets one more round.
  for (let round = 0; ; round++) {
    await sendTargets(ctx, blob, current, recordedBytes(current));
    try {
      return await unwrap(
        client.api.POST("/videos/{video_id}/upload/complete", {
          ...sessionPath(ctx.videoId),
          body: {},
          signal: options.signal,
        }),
        "POST /videos/{video_id}/upload/complete",
        options.signal,
      );
    } catch (error) {
      if (round > 0 || !(error instanceof VasError) || error.code !== "upload-incomplete")
        throw error;
      current = await freshTargets(ctx);
    }
  }
}
