import { bytesLevel, type UsageRow, usageRows, videoUsageRows } from "../../db/repos/usage";
import { invalidRequest } from "../../errors/api-error";
import type { Deps } from "../deps";
import {
  addTo,
  presentPeriod,
  presentVideoUsage,
  type Tally,
  type UsagePeriodDto,
  type UsageReportDto,
  type VideoUsageDto,
} from "../presenters/usage";

/** The longest range one report covers, in days: a leap year. */
export const MAX_USAGE_DAYS = 366;
/** The days a report covers when `from` is not given: `to` and the 29 before it. */
export const DEFAULT_USAGE_DAYS = 30;

/** How a report's days are grouped. */
export type Granularity = UsageReportDto["granularity"];

/** A report as asked for: days (`YYYY-MM-DD`, UTC) where given, and the grouping. */
export interface UsageQuery {
  from?: string | undefined;
  to?: string | undefined;
  granularity: Granularity;
}

const DAY_MS = 86_400_000;

/** The day `n` days after `day`. */
function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
}

/** Days from `from` to `to`, both included. */
function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;
}

/**
 * The range a query covers: `to` defaults to today, `from` to 29 days before `to`. A range
 * that ends before it starts, or is longer than MAX_USAGE_DAYS, is refused naming the field.
 */
export function usageRange(query: UsageQuery, today: string): { from: string; to: string } {
  const to = query.to ?? today;
  const from = query.from ?? addDays(to, 1 - DEFAULT_USAGE_DAYS);
  if (from > to) {
    // Only a given field can be wrong: `to` when both are, else `from` after today.
    const error =
      query.to === undefined
        ? { path: "from", message: `must not be after today (${today})` }
        : { path: "to", message: `must not be before from (${from})` };
    throw invalidRequest([error]);
  }
  const days = daysBetween(from, to);
  if (days > MAX_USAGE_DAYS)
    throw invalidRequest([
      {
        path: "from",
        message: `must leave a range of at most ${MAX_USAGE_DAYS} days to ${to} (this one has ${days})`,
      },
    ]);
  return { from, to };
}

/** The last day of the calendar month `day` is in. */
function monthEnd(day: string): string {
  const [year = 0, month = 0] = day.split("-").map(Number);
  // Day 0 of the next month (months count from 0 in Date.UTC) is this month's last.
  return new Date(Date.UTC(year, month, 0)).toISOString().slice(0, 10);
}

/** The periods of a range: each day, or each calendar month cut to the range. */
function periodsOf(from: string, to: string, granularity: Granularity) {
  const periods: { start: string; end: string }[] = [];
  for (let start = from; start <= to; ) {
    const last = granularity === "day" ? start : monthEnd(start);
    const end = last < to ? last : to;
    periods.push({ start, end });
    start = addDays(end, 1);
  }
  return periods;
}

/** One day's counters and its bytes stored: at its end, and at most during it. */
interface Day {
  tally: Tally;
  stored: number;
  peak: number;
}

/**
 * Walks the days of a range from the level stored before it: each day's level moves by what
 * was added and removed, and its peak is the highest of its start, its end and the peaks
 * recorded as bytes were added (a level reached between them).
 */
function walkDays(rows: readonly UsageRow[], from: string, to: string, start: number) {
  const byDay = new Map<string, UsageRow[]>();
  for (const row of rows) {
    const list = byDay.get(row.day);
    if (list) list.push(row);
    else byDay.set(row.day, [row]);
  }
  const days = new Map<string, Day>();
  let level = start;
  for (let day = from; day <= to; day = addDays(day, 1)) {
    const tally: Tally = new Map();
    for (const row of byDay.get(day) ?? []) addTo(tally, row.metric, row.key, row.value);
    const at = (metric: "bytes_added" | "bytes_removed" | "bytes_peak") =>
      tally.get(metric)?.get("") ?? 0;
    const before = level;
    level += at("bytes_added") - at("bytes_removed");
    days.set(day, { tally, stored: level, peak: Math.max(before, level, at("bytes_peak")) });
  }
  return days;
}

/** One period's usage from the days it spans. */
function period(days: Map<string, Day>, span: { start: string; end: string }): UsagePeriodDto {
  const tally: Tally = new Map();
  let peak = 0;
  let stored = 0;
  for (let day = span.start; day <= span.end; day = addDays(day, 1)) {
    const found = days.get(day);
    if (!found) continue;
    for (const [metric, keys] of found.tally)
      for (const [key, value] of keys) addTo(tally, metric, key, value);
    peak = Math.max(peak, found.peak);
    stored = found.stored;
  }
  return presentPeriod(span, tally, { stored, peak });
}

/** A workspace's usage over a range, one entry per period with none left out, and totals. */
export async function usageReport(
  deps: Pick<Deps, "db" | "clock">,
  workspaceId: string,
  query: UsageQuery,
): Promise<UsageReportDto> {
  const today = new Date(deps.clock.now()).toISOString().slice(0, 10);
  const { from, to } = usageRange(query, today);
  const rows = await usageRows(deps.db, workspaceId, from, to);
  const start = await bytesLevel(deps.db, workspaceId, from);
  // Everything stored so far, whatever the range.
  const now = await bytesLevel(deps.db, workspaceId);
  const days = walkDays(rows, from, to, start);
  return {
    workspace_id: workspaceId,
    from,
    to,
    granularity: query.granularity,
    bytes_stored_now: Math.round(now),
    data: periodsOf(from, to, query.granularity).map((span) => period(days, span)),
    totals: period(days, { start: from, end: to }),
  };
}

/** What processing a video used, from its own counters (zeros before any were counted). */
export async function videoUsage(deps: Pick<Deps, "db">, videoId: string): Promise<VideoUsageDto> {
  const tally: Tally = new Map();
  for (const row of await videoUsageRows(deps.db, videoId))
    addTo(tally, row.metric, row.key, row.value);
  return presentVideoUsage(tally);
}
