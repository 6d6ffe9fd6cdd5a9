import type { StoredError } from "../domain/async-errors";

/**
 * The one table of errors that work done after the response ends with: a video that could
 * not be uploaded or processed, a run that could not execute. Each code keeps one title
 * and the default detail and next action that the stored `error` object shows.
 */
export const ASYNC_ERROR_CODES = {
  "upload-aborted": {
    title: "The upload was aborted",
    detail: "The upload session was aborted before it completed; no bytes were kept.",
    next_action: "Start a new upload with POST /videos.",
  },
  "upload-expired": {
    title: "The upload session expired",
    detail: "The upload was not completed within 24 hours; its bytes were discarded.",
    next_action: "Start a new upload with POST /videos.",
  },
  "unsupported-media": {
    title: "The file is not a supported video",
    detail: "The file is not a video this service can read.",
    next_action: "Upload an MP4, MOV, M4V, WebM or MKV file.",
  },
  "corrupt-media": {
    title: "The video file is damaged",
    detail: "The video file is damaged or truncated.",
    next_action:
      "Upload the complete file again; if it still fails, re-export it from the recording or editing software.",
  },
  "processing-failed": {
    title: "Processing failed",
    detail: "The video could not be processed after several attempts.",
    next_action: "Upload the video again; if it fails again, contact support with the video id.",
  },
  "processing-stalled": {
    title: "Processing stalled",
    detail: "Processing made no progress after several restarts.",
    next_action: "Upload the video again; if it stalls again, contact support with the video id.",
  },
  execution_failed: {
    title: "The run could not be executed",
    detail: "Executing the run failed after several attempts; no trustworthy result exists.",
    next_action: "Start the run again; if it fails again, contact support with the run id.",
  },
  execution_stalled: {
    title: "The run stalled",
    detail: "Executing the run made no progress after several restarts.",
    next_action: "Start the run again; if it stalls again, contact support with the run id.",
  },
} as const satisfies Record<string, Omit<StoredError, "code">>;

/** One code of a stored async error. */
export type AsyncErrorCode = keyof typeof ASYNC_ERROR_CODES;

/** The stored error of `code`, with what this occurrence knows in place of the defaults. */
export function asyncError(
  code: AsyncErrorCode,
  specific: { detail?: string; next_action?: string } = {},
): StoredError {
  const entry = ASYNC_ERROR_CODES[code];
  return {
    code,
    title: entry.title,
    detail: specific.detail ?? entry.detail,
    next_action: specific.next_action ?? entry.next_action,
  };
}
