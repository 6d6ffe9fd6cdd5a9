import type { EvidenceRef } from "../../domain/evidence";
import { formatClock } from "../../lib/time-format";

/** A value as an answer carries it; `undefined` when absent. */
export type RawValue = string | number | boolean | undefined;

/** Seconds as `mm:ss`, or `h:mm:ss` from one hour on; null when not a finite number. */
export function formatTime(seconds: number | undefined): string | null {
  if (seconds === undefined || !Number.isFinite(seconds)) return null;
  return formatClock(seconds);
}

/** `00:05–00:08` (en dash); only the start when there is no end; null without a start. */
export function formatRange(start: number | undefined, end: number | undefined): string | null {
  const from = formatTime(start);
  if (from === null) return null;
  const to = formatTime(end);
  return to === null ? from : `${from}–${to}`;
}

/** A number as its shortest round-trip decimal (`-0` is `0`); null when not finite. */
export function formatNumber(n: number): string | null {
  if (!Number.isFinite(n)) return null;
  return Object.is(n, -0) ? "0" : String(n);
}

/** The raw text of a value before any mapping: `true`, `42`, `hard_hat`. */
export function rawText(value: RawValue): string | null {
  if (value === undefined) return null;
  if (typeof value === "number") return formatNumber(value);
  return String(value);
}

/** Code-unit order: unlike `localeCompare` it cannot change with the runtime's ICU data. */
export function compareText(a: string, b: string): number {
  if (a === b) return 0;
  return a < b ? -1 : 1;
}

/** Seconds from a number, a numeric string or `[h:]mm:ss`; undefined otherwise. */
export function parseSeconds(raw: RawValue): number | undefined {
  if (typeof raw === "number") return Number.isFinite(raw) ? raw : undefined;
  if (typeof raw !== "string") return undefined;
  const text = raw.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text);
  const clock = /^(?:(\d+):)?(\d{1,2}):(\d{2})(\.\d+)?$/.exec(text);
  if (clock === null) return undefined;
  const [, h, m, s, frac] = clock;
  return Number(h ?? 0) * 3600 + Number(m) * 60 + Number(s) + Number(frac ?? 0);
}

/** Evidence in time order (start, end, id), one entry per evidence id. */
export function orderEvidence(refs: readonly EvidenceRef[]): EvidenceRef[] {
  const seen = new Set<string>();
  const unique = refs.filter((ref) => {
    if (seen.has(ref.evidence_id)) return false;
    seen.add(ref.evidence_id);
    return true;
  });
  return unique.sort(
    (a, b) =>
      compareNumbers(a.start_time, b.start_time) ||
      compareNumbers(a.end_time, b.end_time) ||
      compareText(a.evidence_id, b.evidence_id),
  );
}

/** Numbers ascending with non-finite values last, so NaN cannot make a sort inconsistent. */
export function compareNumbers(a: number, b: number): number {
  const fa = Number.isFinite(a);
  const fb = Number.isFinite(b);
  if (!fa || !fb) return fa === fb ? 0 : fa ? -1 : 1;
  return a - b;
}

/** How a report cites evidence inline: `[evidence_… 00:05–00:08]`, never a URL. */
export function citationLabel(ref: EvidenceRef): string {
  const range = formatRange(ref.start_time, ref.end_time);
  return range === null ? `[${ref.evidence_id}]` : `[${ref.evidence_id} ${range}]`;
}
