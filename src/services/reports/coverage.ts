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
  /** Its sources left unchecked: nothing heard or seen of them, or its own item not checked. */
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

/**
 * The answer's partial coverage over `sources` when a whole source went unchecked for it:
 * nothing was heard or seen of it (the run's notices), or the answer's own item for it is not
 * checked (its evidence was not extracted, or the budget stopped the reading). A source read in
 * part (captions read, frames never seen) is no unchecked source: a found there stands.
 */
export function partialCoverage(
  answer: StoredAnswer,
  sources: ReadonlySet<string>,
  unread: ReadonlySet<string>,
): PartialCoverage | undefined {
  if (answer.coverage.state === "complete") return undefined;
  const cited = new Set(citedVideos(answer).filter((id) => sources.has(id)));
  const unchecked = new Set([
    ...[...unread].filter((id) => sources.has(id)),
    ...answer.answer_payload.items
      .filter((item) => item.result_state === "not_checked" && sources.has(item.item_id))
      .map((item) => item.item_id),
  ]);
  if (unchecked.size === 0) return undefined;
  return { cited: cited.size, total: sources.size, unchecked: unchecked.size };
}

/** Whether an answer decided something (found or not found) with a source left unchecked. */
export function decidedOnPart(partial: PartialCoverage | undefined, answer: StoredAnswer): boolean {
  const decided = answer.result_state === "found" || answer.result_state === "not_found";
  return decided && partial !== undefined;
}
