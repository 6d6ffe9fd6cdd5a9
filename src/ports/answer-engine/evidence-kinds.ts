import type { AnswerSpec } from "../../domain/answers";
import type { EvidenceKind, ExtractionCoverage } from "../../domain/evidence";
import type { EngineVideo } from "./port";

/**
 * One accepted evidence type of a spec: the kinds that can serve it. It counts as extracted
 * for a video when any of its kinds was extracted for the whole video.
 */
export interface KindGroup {
  type: string;
  kinds: EvidenceKind[];
}

/** What a spec accepts as evidence: groups that must all be extracted, and the kinds matched. */
export interface KindRequirement {
  groups: KindGroup[];
  kinds: Set<EvidenceKind>;
}

const TIMED_KINDS: EvidenceKind[] = ["transcript", "scene", "ocr"];

// A clip is a stretch of the video, inspected through whichever timed track the index holds
// for it; naming a kind (`scene`, `ocr`) asks for that kind specifically.
const TYPE_KINDS: Record<string, EvidenceKind[]> = {
  clip: TIMED_KINDS,
  transcript: ["transcript"],
  speech: ["transcript"],
  audio: ["transcript"],
  ocr: ["ocr"],
  on_screen_text: ["ocr"],
  text: ["ocr"],
  scene: ["scene"],
  frame: ["scene"],
  visual: ["scene"],
  thumbnail: ["thumbnail"],
  metadata: ["metadata"],
};

/** The evidence requirement of a spec; no (known) accepted type means `clip`. */
export function kindRequirement(spec: AnswerSpec): KindRequirement {
  const seen = new Set<string>();
  const groups: KindGroup[] = [];
  for (const raw of spec.evidence?.accepted_types ?? []) {
    const type = raw
      .trim()
      .toLowerCase()
      .replace(/[\s-]+/g, "_");
    const kinds = TYPE_KINDS[type];
    if (kinds === undefined || seen.has(type)) continue;
    seen.add(type);
    groups.push({ type, kinds });
  }
  if (groups.length === 0) groups.push({ type: "clip", kinds: TIMED_KINDS });
  return { groups, kinds: new Set(groups.flatMap((g) => g.kinds)) };
}

// The thumbnail is one picture, never the whole video: it cannot make an absence certain.
function extracted(coverage: ExtractionCoverage, kind: EvidenceKind): boolean {
  return kind === "thumbnail" ? false : coverage[kind];
}

/** Whether every accepted type was extracted for the whole video (absences then count). */
export function requiredExtracted(video: EngineVideo, requirement: KindRequirement): boolean {
  return requirement.groups.every((g) => g.kinds.some((k) => extracted(video.coverage, k)));
}

/** Accepted types that were not extracted for the whole video, for summaries. */
export function missingTypes(video: EngineVideo, requirement: KindRequirement): string[] {
  return requirement.groups
    .filter((g) => !g.kinds.some((k) => extracted(video.coverage, k)))
    .map((g) => g.type);
}
