/**
 * The counters of a workspace's usage, as the daily rollup stores them (`usage_daily.metric`).
 * Bytes are stored as what was added and removed, so the level at any day is their sum up to
 * it; `bytes_peak` is the highest level reached on a day when bytes were added.
 */
export const USAGE_METRICS = [
  "videos_uploaded",
  "bytes_added",
  "bytes_removed",
  "bytes_peak",
  "processed_seconds",
  "heard_seconds",
  "seen_seconds",
  "model_calls",
  "input_tokens",
  "output_tokens",
  "audio_seconds",
  "searches",
  "runs",
  "findings",
  "webhook_attempts",
  "webhook_deliveries",
] as const;

/** One usage counter. */
export type UsageMetric = (typeof USAGE_METRICS)[number];

/** The UTC day (`YYYY-MM-DD`) of an ISO 8601 instant: the day a count is added to. */
export function dayOf(iso: string): string {
  return iso.slice(0, 10);
}

/** One increment of a counter: by model for model counters (`key`), "" for the others. */
export interface UsageCount {
  metric: UsageMetric;
  key: string;
  value: number;
}

/** What the calls to one model used: answered calls, reported tokens, audio sent. */
export interface ModelUse {
  model: string;
  calls: number;
  input_tokens: number;
  output_tokens: number;
  audio_seconds: number;
}

/** What a piece of media work used: speech recognised, frames described, model calls. */
export interface MediaUsage {
  heard_seconds: number;
  seen_seconds: number;
  models: ModelUse[];
}

/** Media work that used nothing (no model was called). */
export const NO_MEDIA_USAGE: MediaUsage = { heard_seconds: 0, seen_seconds: 0, models: [] };

/** The counter increments of model uses, by model; zero increments are left out. */
export function modelCounts(uses: readonly ModelUse[]): UsageCount[] {
  const counts: UsageCount[] = [];
  for (const use of uses) {
    const add = (metric: UsageMetric, value: number) => {
      if (value > 0) counts.push({ metric, key: use.model, value });
    };
    add("model_calls", use.calls);
    add("input_tokens", use.input_tokens);
    add("output_tokens", use.output_tokens);
    add("audio_seconds", use.audio_seconds);
  }
  return counts;
}

/** The counter increments of media work; zero increments are left out. */
export function mediaCounts(usage: MediaUsage): UsageCount[] {
  const counts: UsageCount[] = [];
  if (usage.heard_seconds > 0)
    counts.push({ metric: "heard_seconds", key: "", value: usage.heard_seconds });
  if (usage.seen_seconds > 0)
    counts.push({ metric: "seen_seconds", key: "", value: usage.seen_seconds });
  return [...counts, ...modelCounts(usage.models)];
}
