import type { EvidenceSpan } from "../../domain/evidence";

/** The parts of a segment search reads: what was said or seen, never generated filler. */
export interface SearchableSegment {
  transcript: string;
  tags: string[];
  evidence: EvidenceSpan[];
}

const EVIDENCE_KINDS_SEARCHED = new Set(["scene", "ocr", "metadata"]);

/**
 * The text a segment is found by: its transcript, the text of its scene, OCR and metadata
 * evidence, and its tags. Scene descriptions are left out: where no picture was analysed
 * they only say that nothing was found.
 */
export function searchText(segment: SearchableSegment): string {
  const parts = [segment.transcript];
  for (const span of segment.evidence) {
    if (EVIDENCE_KINDS_SEARCHED.has(span.kind) && !parts.includes(span.text)) parts.push(span.text);
  }
  if (segment.tags.length > 0) parts.push(segment.tags.join(" "));
  return parts
    .map((part) => part.trim())
    .filter((part) => part !== "")
    .join("\n");
}
