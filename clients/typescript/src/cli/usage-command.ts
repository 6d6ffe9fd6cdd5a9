import type { VasClient } from "../client.js";
import type { UsagePeriod } from "../types.js";
import { EXIT, type Settings } from "./config.js";
import { formatBytes, printJson, printTable } from "./output.js";

/** The flags of `vas usage`. */
export interface UsageFlags {
  from?: string;
  to?: string;
  month?: boolean;
}

const HEADER = [
  "period",
  "uploads",
  "stored",
  "peak",
  "processed s",
  "heard s",
  "seen s",
  "model calls",
  "searches",
  "runs",
  "findings",
  "webhooks",
];

function row(label: string, period: UsagePeriod) {
  const calls = period.models.reduce((sum, model) => sum + model.calls, 0);
  return [
    label,
    period.videos_uploaded,
    formatBytes(period.bytes_stored),
    formatBytes(period.bytes_stored_peak),
    period.processed_seconds,
    period.heard_seconds,
    period.seen_seconds,
    calls,
    period.searches,
    period.runs,
    period.findings,
    period.webhook_deliveries,
  ];
}

/**
 * `vas usage [--from DAY] [--to DAY] [--month]`: a row per day (or month) and the totals, then
 * the model calls and tokens per model; `--json` prints the report as the API answers it. A
 * date the service refuses is named in its 400, which the CLI prints.
 */
export async function usage(client: VasClient, s: Settings, flags: UsageFlags) {
  const report = await client.usage({
    ...(flags.from === undefined ? {} : { from: flags.from }),
    ...(flags.to === undefined ? {} : { to: flags.to }),
    granularity: flags.month ? "month" : "day",
  });
  if (s.json) {
    printJson(report);
    return EXIT.ok;
  }
  const label = (p: UsagePeriod) => (p.start === p.end ? p.start : `${p.start}..${p.end}`);
  printTable([
    HEADER,
    ...report.data.map((period) => row(label(period), period)),
    row("total", report.totals),
  ]);
  if (report.totals.models.length > 0) {
    process.stdout.write("\n");
    printTable([
      ["model", "calls", "input tokens", "output tokens", "audio s"],
      ...report.totals.models.map((m) => [
        m.model,
        m.calls,
        m.input_tokens,
        m.output_tokens,
        m.audio_seconds,
      ]),
    ]);
  }
  process.stdout.write(`\nStored now: ${formatBytes(report.bytes_stored_now)}\n`);
  return EXIT.ok;
}
