// The Node entry: everything of the browser entry, plus uploads from a file path.
import { openAsBlob } from "node:fs";
import { basename } from "node:path";
import type { VasClient } from "./client.js";
import type { Video } from "./types.js";
import { type UploadOptions, uploadFile } from "./upload.js";

export * from "./index.js";

/** A Blob over a file on disk: parts are read from the file as they are sent. */
export function fileBlob(path: string): Promise<Blob> {
  return openAsBlob(path);
}

/** `uploadFile` for a path or a Blob; a path's base name is the default filename. */
export async function uploadPath(
  client: VasClient,
  pathOrBlob: string | Blob,
  options: UploadOptions = {},
): Promise<Video> {
  if (typeof pathOrBlob !== "string") return uploadFile(client, pathOrBlob, options);
  return uploadFile(client, await fileBlob(pathOrBlob), {
    filename: basename(pathOrBlob),
    ...options,
  });
}
