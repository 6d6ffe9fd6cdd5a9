import { z } from "zod";
import type { TextCue } from "../src/domain/media";
import written from "./known-media.json";

/**
 * What the script that made a few committed files (test/fixtures/media/make-known-fixtures.sh)
 * wrote down they say and show, keyed by each file's SHA-256. The simulated Whisper and vision
 * model answer from it for those exact bytes, as a person who made the file would: the file
 * itself carries no caption track or tag, so the service learns nothing of it but through
 * them. The service never reads this (it lives under simulators/, which src/ cannot import).
 */
const KnownSchema = z.object({
  files: z.array(
    z.object({
      file: z.string(),
      sha256: z.string().regex(/^[0-9a-f]{64}$/),
      bytes: z.number().int().positive(),
      language: z.string(),
      speech: z.array(z.object({ start: z.number(), end: z.number(), text: z.string() })),
      pictures: z.array(
        z.object({
          from: z.number(),
          to: z.number(),
          description: z.string(),
          tags: z.array(z.string()),
          visible_text: z.array(z.string()),
        }),
      ),
    }),
  ),
});

/** One file the simulators know: its speech (timed) and its pictures (by stretch of time). */
export type KnownFile = z.infer<typeof KnownSchema>["files"][number];

const KNOWN = KnownSchema.parse(written).files;
const SIZES = new Set(KNOWN.map((f) => f.bytes));

const MAX_CACHED = 16;
/** Per stored object: the file it is, or null. Values, never promises (see captions.ts). */
const cache = new Map<string, KnownFile | null>();

/** The known file a stored object is, by its bytes; null for any other object. */
export async function knownFile(bucket: R2Bucket, key: string): Promise<KnownFile | null> {
  if (cache.has(key)) return cache.get(key) ?? null;
  const found = await identify(bucket, key);
  if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value ?? "");
  cache.set(key, found);
  return found;
}

async function identify(bucket: R2Bucket, key: string): Promise<KnownFile | null> {
  // Only an object of a known size is read and hashed: a customer's 10 GB file never is.
  const head = await bucket.head(key);
  if (!head || !SIZES.has(head.size)) return null;
  const object = await bucket.get(key);
  if (!object) return null;
  const digest = await crypto.subtle.digest("SHA-256", await object.arrayBuffer());
  const hex = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
  return KNOWN.find((f) => f.sha256 === hex) ?? null;
}

/**
 * A known file's speech as the cues the simulated Whisper hears (like a caption track), known
 * for the whole file: its maker wrote down everything said in it, not only up to a last cue.
 */
export function spokenCues(file: KnownFile): { cues: TextCue[]; until: number } {
  const cues = file.speech.map((s) => ({ start: s.start, end: s.end, text: s.text }));
  return { cues, until: Number.POSITIVE_INFINITY };
}

/** What a known file shows over a stretch of time. */
export type KnownPicture = KnownFile["pictures"][number];

/** The picture a known file shows at `time`, or null past its pictures. */
export function pictureAt(file: KnownFile, time: number): KnownPicture | null {
  return file.pictures.find((p) => time >= p.from && time < p.to) ?? null;
}
