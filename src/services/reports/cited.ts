import { buildReport } from "./build";
import { type ReportModel, sectionCitations, uniqueCitations } from "./model";
import type { CitedEvidence, RenderInput } from "./types";

/**
 * Every evidence reference the rendered report cites, once per evidence id, in the order the
 * report first cites it (section by section, paragraphs before tables). Built from the same
 * model the renderers write, so the manifest and the report cannot disagree.
 */
export function citedEvidence(input: RenderInput): CitedEvidence[] {
  return citedInModel(buildReport(input));
}

/** `citedEvidence` of an already built model. */
export function citedInModel(model: ReportModel): CitedEvidence[] {
  const citations = uniqueCitations(model.sections.flatMap(sectionCitations));
  return citations.map((c) => ({ answer_id: c.answer_id, evidence: c.evidence }));
}
