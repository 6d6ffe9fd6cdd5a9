import type { Api } from "./api";

/** A presigned storage target (the spec's Upload session section). */
interface Target {
  url: string;
  headers: Record<string, string>;
  part_number: number;
}

/** The parts of an upload session this page reads. */
interface Session {
  video_id: string;
  strategy: "direct" | "multipart";
  chunk_size: number;
  targets: Target[];
}

/** Parts in flight at once for a multipart upload. */
const PARALLEL_PARTS = 3;

/**
 * PUTs `body` straight to storage (XMLHttpRequest: fetch reports no upload progress) and
 * answers the ETag storage sent back, the part's receipt.
 */
function put(target: Target, body: Blob, onSent: (bytes: number) => void): Promise<string> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("PUT", target.url);
    for (const [name, value] of Object.entries(target.headers)) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => onSent(event.loaded);
    xhr.onload = () => {
      const etag = xhr.getResponseHeader("ETag");
      if (xhr.status >= 200 && xhr.status < 300 && etag !== null) {
        onSent(body.size);
        resolve(etag);
      } else reject(new Error(`storage refused part ${target.part_number} (${xhr.status})`));
    };
    xhr.onerror = () => reject(new Error(`part ${target.part_number} was interrupted`));
    xhr.send(body);
  });
}

/**
 * Uploads `file` the way the API asks: one PUT for a direct session, parts of `chunk_size`
 * (a few at a time, each receipt recorded as it arrives) for a multipart one; then completes
 * the upload. `onProgress` hears bytes sent of the whole file. Answers the video id.
 */
export async function uploadFile(
  api: Api,
  file: File,
  onProgress: (sent: number, total: number) => void,
): Promise<string> {
  const session = await api.json<Session>("POST", "/videos", {
    filename: file.name,
    file_size: file.size,
  });
  const id = session.video_id;
  const sent = new Map<number, number>();
  const report = (part: number, bytes: number) => {
    sent.set(part, bytes);
    onProgress(
      [...sent.values()].reduce((sum, n) => sum + n, 0),
      file.size,
    );
  };
  const queue = [...session.targets].sort((a, b) => a.part_number - b.part_number);
  const slice = (target: Target) =>
    session.strategy === "direct"
      ? file
      : file.slice(
          (target.part_number - 1) * session.chunk_size,
          target.part_number * session.chunk_size,
        );
  const worker = async () => {
    for (let target = queue.shift(); target; target = queue.shift()) {
      const part = target.part_number;
      const etag = await put(target, slice(target), (bytes) => report(part, bytes));
      if (session.strategy === "multipart")
        await api.json("PUT", `/videos/${id}/upload/parts`, {
          parts: [{ part_number: part, etag }],
        });
    }
  };
  await Promise.all(Array.from({ length: PARALLEL_PARTS }, worker));
  await api.json("POST", `/videos/${id}/upload/complete`, {});
  return id;
}
