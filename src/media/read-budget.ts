/**
 * How many reads a pass over a whole file may make. Every R2 read is a subrequest of the
 * processing invocation, so a pass that must visit the whole file (a Matroska cluster walk,
 * captions spread through an MP4's `mdat`) reads it in windows whose size grows with the
 * file: at most this many windows up to 8 GiB, and 320 at the 10 GiB upload limit.
 */
export const SEQUENTIAL_READS = 256;

const MiB = 1024 * 1024;
/** Smaller windows save nothing worth a subrequest. */
const MIN_SEQUENTIAL_WINDOW_BYTES = MiB;
/** One window is held at a time; this keeps it a small share of a Worker's 128 MB. */
export const MAX_SEQUENTIAL_WINDOW_BYTES = 32 * MiB;

/** The window a whole-file pass reads with, for a file of `size` bytes. */
export function sequentialWindowBytes(size: number): number {
  const even = Math.ceil(size / SEQUENTIAL_READS);
  return Math.min(MAX_SEQUENTIAL_WINDOW_BYTES, Math.max(MIN_SEQUENTIAL_WINDOW_BYTES, even));
}
