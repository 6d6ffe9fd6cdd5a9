import type { AnswerAttribute, AnswerItem, AnswerPayload } from "../../domain/answers";
import type { Redaction } from "../../domain/evidence";

/**
 * The reason every redaction of a read carries, and the notice code of a run's or report's
 * source deleted since.
 */
export const SOURCE_DELETED: Redaction = "source_deleted";

/** What a withheld text reads in API answers (reports use their language's words). */
export const REDACTED_TEXT = "[redacted: source deleted]";

/** Ids of deleted videos whose quotes, names and links a read withholds. */
export type DeletedSources = ReadonlySet<string>;

/** A span with its text withheld when its video is deleted; the span's ids and times stay. */
export function redactSpan<T extends { video_id: string; text: string; redacted?: Redaction }>(
  span: T,
  deleted: DeletedSources,
  marker = REDACTED_TEXT,
): T {
  if (!deleted.has(span.video_id)) return span;
  return { ...span, text: marker, redacted: SOURCE_DELETED };
}

/**
 * Whether an item stands for or cites a deleted video. Engines name a per-video item by the
 * video's id (`vid_…`, a timeline's `vid_…:3`) or a `video_id` attribute, and label it with the
 * video's title, which the video's deletion withholds too.
 */
function itemTouches(item: AnswerItem, deleted: DeletedSources): boolean {
  const cut = item.item_id.indexOf(":");
  if (deleted.has(cut < 0 ? item.item_id : item.item_id.slice(0, cut))) return true;
  if (item.evidence.some((ref) => deleted.has(ref.video_id))) return true;
  return item.attributes.some(
    (attribute) =>
      (attribute.key === "video_id" && deleted.has(String(attribute.value))) ||
      (attribute.evidence ?? []).some((ref) => deleted.has(ref.video_id)),
  );
}

function redactAttribute(
  attribute: AnswerAttribute,
  deleted: DeletedSources,
  marker: string,
): AnswerAttribute {
  const out = { ...attribute };
  // Ids stay (they are the report's structure); any other text may be the video's words.
  if (typeof out.value === "string" && out.key !== "video_id") out.value = marker;
  if (out.evidence !== undefined)
    out.evidence = out.evidence.map((r) => redactSpan(r, deleted, marker));
  return out;
}

function redactItem(item: AnswerItem, deleted: DeletedSources, marker: string): AnswerItem {
  if (!itemTouches(item, deleted)) return item;
  return {
    ...item,
    label: marker,
    ...(typeof item.value === "string" ? { value: marker } : {}),
    attributes: item.attributes.map((a) => redactAttribute(a, deleted, marker)),
    evidence: item.evidence.map((ref) => redactSpan(ref, deleted, marker)),
    redacted: SOURCE_DELETED,
  };
}

/**
 * An answer's payload as a read shows it once some of its videos are deleted. Spans of those
 * videos keep their ids and times but not their text; items standing for or citing them lose
 * their label and text values. The summary and a text value of an answer citing them are
 * withheld whole: the engines' summaries quote what they cite (a verdict's first sentence, a
 * model's words), and no rule can tell which words of a sentence came from which video.
 * Numbers, yes/no values and result states stay, so the answer keeps its structure.
 */
export function redactPayload(
  payload: AnswerPayload,
  deleted: DeletedSources,
  marker = REDACTED_TEXT,
): AnswerPayload {
  if (deleted.size === 0) return payload;
  const items = payload.items.map((item) => redactItem(item, deleted, marker));
  const representative = payload.evidence_summary.representative;
  const touched =
    items.some((item, i) => item !== payload.items[i]) ||
    representative.some((ref) => deleted.has(ref.video_id));
  if (!touched) return payload;
  return {
    ...payload,
    summary: marker,
    ...(typeof payload.value === "string" ? { value: marker } : {}),
    items,
    evidence_summary: {
      ...payload.evidence_summary,
      representative: representative.map((ref) => redactSpan(ref, deleted, marker)),
    },
    redacted: SOURCE_DELETED,
  };
}

/**
 * A run's input snapshot as a read shows it: a deleted source keeps its id and loses the facts
 * the snapshot froze of it (file name, title, duration), which its deletion withholds.
 */
export function redactInputSnapshot(
  content: Record<string, unknown>,
  deleted: DeletedSources,
): Record<string, unknown> {
  const sources = content.sources;
  if (deleted.size === 0 || !Array.isArray(sources)) return content;
  return {
    ...content,
    sources: sources.map((source: unknown) => {
      const id =
        typeof source === "object" && source !== null && "video_id" in source
          ? source.video_id
          : undefined;
      return typeof id === "string" && deleted.has(id)
        ? { video_id: id, redacted: SOURCE_DELETED }
        : source;
    }),
  };
}
