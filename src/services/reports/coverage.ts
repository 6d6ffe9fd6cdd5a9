import type { StoredAnswer } from "./types";

/**
 * How much of the run's sources an answer rests on when its coverage is not complete: such an
 * answer may be found, but it is never a pass over every source.
 */
export interface PartialCoverage {
  /** Sources of the answer that it cites evidence in. */
  cited: number;
  /** The answer's distinct sources: the run's, or a workflow verdict's one video. */
  total: number;
  /** Its sources nothing was heard or seen of (the run's notices) that it does not cite. */
  unchecked: number;
}

/** The notice code of a video nothing was heard or seen of. */
export const NOTHING_UNDERSTOOD = "nothing_understood";

function citedVideos(answer: StoredAnswer): string[] {
  const payload = answer.answer_payload;
  const refs = [
    ...payload.evidence_summary.representative,
    ...payload.items.flatMap((item) => [
      ...item.evidence,
      ...item.attributes.flatMap((attribute) => attribute.evidence ?? []),
    ]),
  ];
  return refs.map((ref) => ref.video_id);
}

/** The answer's partial coverage over `sources`, or undefined when it read them all whole. */
export function partialCoverage(
  answer: StoredAnswer,
  sources: ReadonlySet<string>,
  unread: ReadonlySet<string>,
): PartialCoverage | undefined {
  if (answer.coverage.state === "complete") return undefined;
  const cited = new Set(citedVideos(answer).filter((id) => sources.has(id)));
  const unchecked = [...unread].filter((id) => sources.has(id) && !cited.has(id)).length;
  return { cited: cited.size, total: sources.size, unchecked };
}

/** Whether an answer decided something (found or not found) without everything read. */
export function decidedOnPart(answer: StoredAnswer): boolean {
  const decided = answer.result_state === "found" || answer.result_state === "not_found";
  return decided && answer.coverage.state !== "complete";
}
