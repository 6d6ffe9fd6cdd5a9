import type { EvidenceKind, EvidenceRef } from "../domain/evidence";
import type { EngineSegment, EngineVideo } from "./types";

const MASK_64 = (1n << 64n) - 1n;
const FNV_PRIME_64 = 0x100000001b3n;
// Two lanes with different offset bases give 128 bits, of which 104 (26 hex) are kept: the
// length of the ULIDs the other ids carry, and far past collision range within a workspace.
const LANE_OFFSETS = [0xcbf29ce484222325n, 0x6c62272e07bb0142n];
const ID_HEX_LENGTH = 26;

function fnv1a64(offset: bigint, bytes: Uint8Array): bigint {
  let hash = offset;
  for (const byte of bytes) hash = ((hash ^ BigInt(byte)) * FNV_PRIME_64) & MASK_64;
  return hash;
}

/**
 * `evidence_` + 26 hex characters of FNV-1a 64 (two lanes) over
 * `${segment_id}|${kind}|${start}|${end}` in UTF-8. Synchronous on purpose: crypto.subtle is
 * async, and ids are needed while answers are assembled. Not a security hash; stability is all.
 */
export function evidenceId(
  segmentId: string,
  kind: EvidenceKind,
  start: number,
  end: number,
): string {
  const bytes = new TextEncoder().encode(`${segmentId}|${kind}|${start}|${end}`);
  const hex = LANE_OFFSETS.map((offset) => fnv1a64(offset, bytes).toString(16).padStart(16, "0"));
  return `evidence_${hex.join("").slice(0, ID_HEX_LENGTH)}`;
}

/** The reference an answer cites for one span of an indexed segment. */
export function evidenceRef(
  video: EngineVideo,
  segment: EngineSegment,
  span: EngineSegment["evidence"][number],
): EvidenceRef {
  return {
    evidence_id: evidenceId(segment.id, span.kind, span.start, span.end),
    video_id: video.id,
    segment_id: segment.id,
    kind: span.kind,
    start_time: span.start,
    end_time: span.end,
    text: span.text,
  };
}

/** Refs without repeats (first occurrence wins), in a stable order: time, kind, id. */
export function distinctRefs(refs: Iterable<EvidenceRef>): EvidenceRef[] {
  const byId = new Map<string, EvidenceRef>();
  for (const ref of refs) if (!byId.has(ref.evidence_id)) byId.set(ref.evidence_id, ref);
  return [...byId.values()];
}

/** Orders refs by video position, then time, then kind and id, so output never depends on input order. */
export function compareRefs(videoOrder: Map<string, number>) {
  return (a: EvidenceRef, b: EvidenceRef): number =>
    (videoOrder.get(a.video_id) ?? 0) - (videoOrder.get(b.video_id) ?? 0) ||
    a.start_time - b.start_time ||
    a.end_time - b.end_time ||
    a.kind.localeCompare(b.kind) ||
    a.evidence_id.localeCompare(b.evidence_id);
}
