import { invalidRequest } from "../../errors/api-error";

/** Files up to this size use one PUT (the spec's Limits section). */
export const DIRECT_MAX_BYTES = 200 * 1024 * 1024;
/** Multipart chunk size (the spec's Limits section). */
export const CHUNK_BYTES = 10 * 1024 * 1024;
/** Largest accepted video (the spec's Limits section). */
export const MAX_FILE_BYTES = 10 * 1024 * 1024 * 1024;
/** Upload sessions live this long (the spec's decisions on uploads). */
export const SESSION_TTL_MS = 24 * 60 * 60 * 1000;
/** Storage targets expire after this (the spec's decisions on uploads). */
export const TARGET_TTL_MS = 60 * 60 * 1000;

/** The video containers the service can probe, by extension. */
export const VIDEO_CONTENT_TYPES: Record<string, string> = {
  mp4: "video/mp4",
  m4v: "video/x-m4v",
  mov: "video/quicktime",
  webm: "video/webm",
  mkv: "video/x-matroska",
  // Accepted as uploads; processing reads what the bytes are and answers `unsupported-media`
  // with a next action for containers it cannot read yet.
  "3gp": "video/3gpp",
  "3g2": "video/3gpp2",
  avi: "video/x-msvideo",
  flv: "video/x-flv",
  m2ts: "video/mp2t",
  mts: "video/mp2t",
  ts: "video/mp2t",
  mpg: "video/mpeg",
  mpeg: "video/mpeg",
  ogv: "video/ogg",
  wmv: "video/x-ms-wmv",
};

/** The content type of a video filename; a 400 naming `filename` when it is not a video. */
export function contentTypeFor(filename: string): string {
  const extension = filename.match(/\.([A-Za-z0-9]+)$/)?.[1]?.toLowerCase();
  const type = extension === undefined ? undefined : VIDEO_CONTENT_TYPES[extension];
  if (type === undefined) {
    throw invalidRequest([
      {
        path: "filename",
        message: `must end in a video extension: ${Object.keys(VIDEO_CONTENT_TYPES)
          .map((ext) => `.${ext}`)
          .join(", ")}`,
      },
    ]);
  }
  return type;
}

/** How an upload of this size is made: strategy, chunk size and number of chunks. */
export function uploadPlan(fileSize: number): {
  strategy: "direct" | "multipart";
  chunkSize: number;
  totalChunks: number;
} {
  if (fileSize <= DIRECT_MAX_BYTES)
    return { strategy: "direct", chunkSize: fileSize, totalChunks: 1 };
  return {
    strategy: "multipart",
    chunkSize: CHUNK_BYTES,
    totalChunks: Math.ceil(fileSize / CHUNK_BYTES),
  };
}

/** The exact size part `partNumber` must have. */
export function expectedPartSize(fileSize: number, chunkSize: number, partNumber: number): number {
  return Math.min(chunkSize, fileSize - (partNumber - 1) * chunkSize);
}
