// Untyped on purpose: typing them by UploadSessionDto would make the schema that carries
// them depend on itself. The OpenAPI lint checks them against the schema instead.

const TARGET = {
  method: "put" as const,
  url: "http://127.0.0.1:8787/storage/videos/vid_01jd3m6t8y0c7x4k2n9q5r1s3v/staging?partNumber=1&X-Amz-Expires=3600&X-Amz-Signature=…",
  headers: {},
  part_number: 1,
  expires_at: "2026-11-21T10:30:00.000Z",
};

/** A multipart session as POST /videos opens it: 700 MiB in 70 parts of 10 MiB, all open. */
export const OPEN_SESSION_EXAMPLE = {
  video_id: "vid_01jd3m6t8y0c7x4k2n9q5r1s3v",
  filename: "warehouse-walkthrough.mp4",
  content_type: "video/mp4",
  state: "open",
  strategy: "multipart",
  file_size: 734003200,
  chunk_size: 10485760,
  total_chunks: 70,
  completed_parts: 0,
  received_parts: [],
  uploaded_bytes: 0,
  reported_bytes: 0,
  verified_bytes: 0,
  expires_at: "2026-11-22T09:30:00.000Z",
  target: TARGET,
  targets: [TARGET, { ...TARGET, part_number: 2, url: TARGET.url.replace("=1&", "=2&") }],
};

/** A direct session after DELETE /videos/{video_id}/upload: aborted, nothing stored. */
export const ABORTED_SESSION_EXAMPLE = {
  video_id: OPEN_SESSION_EXAMPLE.video_id,
  filename: "briefing.mp4",
  content_type: "video/mp4",
  state: "aborted",
  strategy: "direct",
  file_size: 48213504,
  chunk_size: 48213504,
  total_chunks: 1,
  completed_parts: 0,
  received_parts: [],
  uploaded_bytes: 0,
  reported_bytes: 0,
  verified_bytes: 0,
  expires_at: OPEN_SESSION_EXAMPLE.expires_at,
  targets: [],
};
