import { expect } from "vitest";
import type { UploadSessionDto } from "../../src/routes/uploads/schemas";
import { type Client, expectJson, workerFetch } from "./harness";

/** Deterministic bytes for part `partNumber` of a test upload (no two parts alike). */
export function partBytes(size: number, partNumber: number): Uint8Array {
  const bytes = new Uint8Array(size);
  for (let i = 0; i < size; i += 4096) bytes[i] = (partNumber * 31 + i / 4096) & 0xff;
  return bytes;
}

/** POST /videos, asserting success. */
export async function startUpload(
  api: Client,
  filename: string,
  fileSize: number,
): Promise<UploadSessionDto> {
  return expectJson<UploadSessionDto>(
    await api.post("/videos", { filename, file_size: fileSize }),
    201,
  );
}

/** PUTs bytes to a storage target the way a client would; returns the response. */
export function putToTarget(
  target: { url: string; headers: Record<string, string> },
  body: Uint8Array | string,
) {
  return workerFetch(target.url, { method: "PUT", headers: target.headers, body });
}

/** PUTs bytes to a target and returns the ETag storage answered. */
export async function uploadTo(
  target: { url: string; headers: Record<string, string> },
  body: Uint8Array | string,
) {
  const res = await putToTarget(target, body);
  expect(res.status, await res.clone().text()).toBe(200);
  const etag = res.headers.get("etag");
  expect(etag).toBeTruthy();
  return etag ?? "";
}
