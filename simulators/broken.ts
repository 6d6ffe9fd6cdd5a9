/** A simulated platform service that `SIMULATE_BROKEN` can break for good. */
export type BrokenPart = "speech" | "vision" | "media";

/**
 * How it fails every call: `refuse` as the platform refuses an input it cannot take (Workers
 * AI `5004` Invalid data; Media Transformations an unsupported input), `quota` as it refuses
 * once the account's free allocation is used up (Workers AI `3036`; Media `9422`).
 */
export type BreakKind = "refuse" | "quota";

/** The parts broken and how; an empty map breaks nothing. */
export type Broken = ReadonlyMap<BrokenPart, BreakKind>;

/** Nothing broken. */
export const NOTHING_BROKEN: Broken = new Map();

const PARTS: readonly BrokenPart[] = ["speech", "vision", "media"];
const KINDS: readonly BreakKind[] = ["refuse", "quota"];

/**
 * `SIMULATE_BROKEN`: a comma list of `part` or `part:kind` (`speech`, `vision`, `media`;
 * `refuse`, the default, or `quota`), e.g. `speech,media:quota`. A malformed value is refused,
 * never read as nothing broken.
 */
export function brokenFrom(raw: string | undefined): Broken {
  const broken = new Map<BrokenPart, BreakKind>();
  if (raw === undefined || raw.trim() === "" || raw.trim() === "none") return broken;
  for (const item of raw.split(",")) {
    const [part = "", kind = "refuse", extra] = item.split(":").map((s) => s.trim());
    const knownPart = PARTS.find((p) => p === part);
    const knownKind = KINDS.find((k) => k === kind);
    if (!knownPart || !knownKind || extra !== undefined)
      throw new Error(
        `SIMULATE_BROKEN takes a comma list of speech, vision or media, each optionally :refuse or :quota, not ${raw}`,
      );
    broken.set(knownPart, knownKind);
  }
  return broken;
}
