import type { AnswerSpec } from "../../domain/answers";
import { tokenize } from "../../lib/text/text-features";
import { keyWords } from "../question-probes";
import { coveredSeconds, type Occurrence } from "./occurrences";

/** What a measurement measures, chosen from the spec's words. */
export type Metric = "count" | "duration" | "first_time" | "last_time";

/** Unit of each metric's value. */
export const METRIC_UNITS: Record<Metric, string> = {
  count: "occurrences",
  duration: "seconds",
  first_time: "seconds",
  last_time: "seconds",
};

/** Label of each metric, for attributes. */
export const METRIC_LABELS: Record<Metric, string> = {
  count: "Occurrences",
  duration: "Total duration",
  first_time: "First occurrence",
  last_time: "Last occurrence",
};

// Checked in this order: "how many seconds" is a duration, "how many times" a count, and a
// "last" beats a "when".
const RULES: [Metric, RegExp][] = [
  [
    "duration",
    / (duration|how long|length|total (time|seconds|minutes)|how many (seconds|minutes)|number of (seconds|minutes)) /,
  ],
  ["count", / (how many|count|counts|number of|times|occurrences?|how often|frequency) /],
  ["last_time", / (last|latest|final) /],
  ["first_time", / (when|first|earliest|what time|timestamp|start time) /],
];

/** The metric named by the spec's description, key and fields; a count when none is. */
export function metricOf(spec: AnswerSpec): Metric {
  const words = [
    spec.description ?? "",
    keyWords(spec.answer_key),
    ...(spec.fields ?? []).flatMap((f) => [f.key, f.label, f.description ?? ""]),
  ].join(" ");
  const text = ` ${tokenize(words).join(" ")} `;
  return RULES.find(([, pattern]) => pattern.test(text))?.[0] ?? "count";
}

/**
 * The metric over occurrences sorted by video then time; times are those of the first video
 * (in source order) that has any. Undefined for a time with no occurrence.
 */
export function metricValue(metric: Metric, occurrences: Occurrence[]): number | undefined {
  switch (metric) {
    case "count":
      return occurrences.length;
    case "duration":
      return coveredSeconds(occurrences);
    case "first_time":
      return occurrences[0]?.start;
    case "last_time": {
      const video = occurrences[0]?.videoIndex;
      return occurrences.filter((o) => o.videoIndex === video).at(-1)?.start;
    }
  }
}

/** Whether a metric has a meaningful value when nothing occurs (zero), unlike times. */
export function zeroWhenAbsent(metric: Metric): boolean {
  return metric === "count" || metric === "duration";
}
