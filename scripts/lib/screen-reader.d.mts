// Types of screen-reader.mjs for the node tests.
import type { ChildProcess } from "node:child_process";

/** A started screen reader, or the one line saying why there is none. */
export type ScreenReaderStart =
  | {
      child: ChildProcess;
      url: string;
      secret: string;
      pid: number;
      /** The speech detector (`silero-vad@5`), or null when it did not load. */
      speech: string | null;
      /** Whether the speech it finds is also transcribed (WHISPER_URL names a whisper.cpp server). */
      transcribes: boolean;
      speechNotice?: string;
      notice?: undefined;
    }
  | {
      notice: string;
      child?: undefined;
      url?: undefined;
      secret?: undefined;
      pid?: undefined;
      speech?: undefined;
      transcribes?: undefined;
      speechNotice?: undefined;
    };

/** Posts `bytes` to a started reader's `route` with its secret; the response, unread. */
export function postToReader(
  reader: { url: string; secret: string },
  route: string,
  bytes: Uint8Array,
): Promise<Response>;

/** Starts the screen reader; never throws. */
export function startScreenReader(
  env?: Record<string, string | undefined>,
): Promise<ScreenReaderStart>;
