import type { TextCue } from "../../src/domain/media";
import { MediaError } from "../../src/media/errors";
import { probeMedia } from "../../src/media/probe";
import { r2RangeSource } from "../../src/media/r2-source";

/** What the simulated speech recognition "hears" of a source: its first captioned track. */
export interface SourceCaptions {
  language: string | null;
  cues: TextCue[];
  /** The track speaks for [0, last cue end]; past it nothing is known. */
  until: number;
}

const MAX_CACHED = 16;
/**
 * Captions read so far, per object. Values are kept, never promises: invocations run side by
 * side in the isolate, and one awaiting a promise another made is cancelled if that one ends
 * first. Two first reads of one object may both read it; the answer is the same.
 */
const cache = new Map<string, SourceCaptions | null>();

/** The captions of a stored source (cached per object), or null when it has none. */
export async function sourceCaptions(
  bucket: R2Bucket,
  key: string,
): Promise<SourceCaptions | null> {
  if (cache.has(key)) return cache.get(key) ?? null;
  const found = await read(bucket, key);
  if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value ?? "");
  cache.set(key, found);
  return found;
}

async function read(bucket: R2Bucket, key: string): Promise<SourceCaptions | null> {
  const head = await bucket.head(key);
  if (!head) return null;
  const probe = await probeMedia(r2RangeSource(bucket, key, head.size), {
    filename: key,
    contentType: "application/octet-stream",
  }).catch((error: unknown) => {
    // A source the service cannot read has no captions the simulator could hear.
    if (error instanceof MediaError) return null;
    throw error;
  });
  if (!probe) return null;
  const track = probe.textTracks.find((t) => t.cues.length > 0);
  if (!track) return null;
  return {
    language: track.language ?? null,
    cues: track.cues,
    until: Math.max(...track.cues.map((c) => c.end)),
  };
}
