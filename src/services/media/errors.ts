/** Why a file could not be probed; `code` becomes the video's error code. */
export class MediaError extends Error {
  readonly code: "unsupported-media" | "corrupt-media";
  readonly nextAction: string;

  constructor(code: "unsupported-media" | "corrupt-media", detail: string, nextAction: string) {
    super(detail);
    this.name = "MediaError";
    this.code = code;
    this.nextAction = nextAction;
  }
}

/** What to do about a file that is not one of the supported containers. */
export const UNSUPPORTED_NEXT_ACTION = "Upload an MP4, MOV, M4V, WebM or MKV file.";

/** What to do about a damaged file of a supported container. */
export const CORRUPT_NEXT_ACTION =
  "Upload the complete file again; if it still fails, re-export it from the recording or editing software.";

/** A MediaError for a file that is not a supported video. */
export function unsupportedMedia(detail: string, nextAction = UNSUPPORTED_NEXT_ACTION): MediaError {
  return new MediaError("unsupported-media", detail, nextAction);
}

/** A MediaError for a damaged or truncated file of a supported container. */
export function corruptMedia(detail: string): MediaError {
  return new MediaError("corrupt-media", detail, CORRUPT_NEXT_ACTION);
}
