import { ASYNC_ERROR_CODES } from "../errors/async-codes";

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
export const UNSUPPORTED_NEXT_ACTION = ASYNC_ERROR_CODES["unsupported-media"].next_action;

/** What to do about a damaged file of a supported container. */
export const CORRUPT_NEXT_ACTION = ASYNC_ERROR_CODES["corrupt-media"].next_action;

/** A MediaError for a file that is not a supported video. */
export function unsupportedMedia(
  detail: string,
  nextAction: string = UNSUPPORTED_NEXT_ACTION,
): MediaError {
  return new MediaError("unsupported-media", detail, nextAction);
}

/** A MediaError for a damaged or truncated file of a supported container. */
export function corruptMedia(detail: string): MediaError {
  return new MediaError("corrupt-media", detail, CORRUPT_NEXT_ACTION);
}
