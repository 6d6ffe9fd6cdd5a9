import type { UsageMetric } from "../../domain/usage";

/** What the calls to one model used, on the wire. */
export interface ModelUsageDto {
  model: string;
  calls: number;
  input_tokens: number;
  output_tokens: number;
  audio_seconds: number;
}

/** What processing a video used (`usage` on GET /videos/{video_id}). */
export interface VideoUsageDto {
  processed_seconds: number;
  heard_seconds: number;
  seen_seconds: number;
  models: ModelUsageDto[];
}

/** A workspace's usage over one period (a day, a month, or the whole range for totals). */
export interface UsagePeriodDto extends VideoUsageDto {
  /** First and last day of the period (`YYYY-MM-DD`, UTC), both included. */
  start: string;
  end: string;
  videos_uploaded: number;
  /** Bytes of uploaded source files stored at the end of the period. */
  bytes_stored: number;
  /** The most bytes stored at any moment of the period. */
  bytes_stored_peak: number;
  searches: number;
  runs: number;
  findings: number;
  webhook_attempts: number;
  webhook_deliveries: number;
}

/** GET /usage and its admin twin. */
export interface UsageReportDto {
  workspace_id: string;
  from: string;
  to: string;
  granularity: "day" | "month";
  /** Bytes of uploaded source files stored as the report is read. */
  bytes_stored_now: number;
  data: UsagePeriodDto[];
  totals: UsagePeriodDto;
}

/** Counters added up by metric and key, as read from the rollup or a video's own rows. */
export type Tally = Map<UsageMetric, Map<string, number>>;

/** Adds one counter to a tally. */
export function addTo(tally: Tally, metric: UsageMetric, key: string, value: number): void {
  let keys = tally.get(metric);
  if (!keys) {
    keys = new Map();
    tally.set(metric, keys);
  }
  keys.set(key, (keys.get(key) ?? 0) + value);
}

const seconds = (value: number) => Math.round(value * 1000) / 1000;

/** A counter's total over its keys. */
function total(tally: Tally, metric: UsageMetric): number {
  let sum = 0;
  for (const value of tally.get(metric)?.values() ?? []) sum += value;
  return sum;
}

/** The models named by any model counter, each with its counters, sorted by model. */
function models(tally: Tally): ModelUsageDto[] {
  const names = new Set<string>();
  for (const metric of ["model_calls", "input_tokens", "output_tokens", "audio_seconds"] as const)
    for (const key of tally.get(metric)?.keys() ?? []) names.add(key);
  const of = (metric: UsageMetric, model: string) => tally.get(metric)?.get(model) ?? 0;
  return [...names].sort().map((model) => ({
    model,
    calls: Math.round(of("model_calls", model)),
    input_tokens: Math.round(of("input_tokens", model)),
    output_tokens: Math.round(of("output_tokens", model)),
    audio_seconds: seconds(of("audio_seconds", model)),
  }));
}

/** A video's usage on the wire, zeros where nothing was counted. */
export function presentVideoUsage(tally: Tally): VideoUsageDto {
  return {
    processed_seconds: seconds(total(tally, "processed_seconds")),
    heard_seconds: seconds(total(tally, "heard_seconds")),
    seen_seconds: seconds(total(tally, "seen_seconds")),
    models: models(tally),
  };
}

/** A period's usage on the wire: its counters, and the bytes stored at its end and at most. */
export function presentPeriod(
  period: { start: string; end: string },
  tally: Tally,
  bytes: { stored: number; peak: number },
): UsagePeriodDto {
  const count = (metric: UsageMetric) => Math.round(total(tally, metric));
  return {
    start: period.start,
    end: period.end,
    videos_uploaded: count("videos_uploaded"),
    bytes_stored: Math.round(bytes.stored),
    bytes_stored_peak: Math.round(bytes.peak),
    ...presentVideoUsage(tally),
    searches: count("searches"),
    runs: count("runs"),
    findings: count("findings"),
    webhook_attempts: count("webhook_attempts"),
    webhook_deliveries: count("webhook_deliveries"),
  };
}
