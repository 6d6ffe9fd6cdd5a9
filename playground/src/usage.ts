// The workspace's usage over a range: the totals, then a row for each day something happened.
import type { Api } from "./api";
import { byId, h, show } from "./dom";

interface Period {
  start: string;
  end: string;
  videos_uploaded: number;
  bytes_stored: number;
  bytes_stored_peak: number;
  processed_seconds: number;
  heard_seconds: number;
  seen_seconds: number;
  models: { model: string; calls: number; input_tokens: number; output_tokens: number }[];
  searches: number;
  runs: number;
  findings: number;
  webhook_deliveries: number;
}

interface Report {
  from: string;
  to: string;
  bytes_stored_now: number;
  data: Period[];
  totals: Period;
}

const HEADINGS = ["Day", "Uploads", "Stored (MB)", "Processed s", "Heard s", "Seen s"];
const MORE = ["Model calls", "Searches", "Runs", "Findings", "Webhooks"];

function cells(label: string, p: Period): HTMLTableRowElement {
  const calls = p.models.reduce((sum, m) => sum + m.calls, 0);
  const values = [
    p.videos_uploaded,
    (p.bytes_stored / 1e6).toFixed(1),
    p.processed_seconds,
    p.heard_seconds,
    p.seen_seconds,
    calls,
    p.searches,
    p.runs,
    p.findings,
    p.webhook_deliveries,
  ];
  return h("tr", {}, h("th", { text: label }), ...values.map((v) => h("td", { text: String(v) })));
}

function busy(p: Period): boolean {
  return (
    p.videos_uploaded + p.processed_seconds + p.searches + p.runs + p.findings > 0 ||
    p.models.length > 0 ||
    p.webhook_deliveries > 0
  );
}

/** Reads GET /usage for the range (the service's defaults where a field is empty). */
export async function showUsage(api: Api, from: string, to: string): Promise<void> {
  const query = new URLSearchParams();
  if (from !== "") query.set("from", from);
  if (to !== "") query.set("to", to);
  const report = await api.json<Report>("GET", `/usage?${query}`);
  const days = report.data.filter(busy);
  byId("usage-status").textContent =
    `${report.from} to ${report.to}: ${(report.bytes_stored_now / 1e6).toFixed(1)} MB stored now` +
    (days.length === 0 ? "; nothing was used in this range." : ".");
  const head = h("tr", {}, ...[...HEADINGS, ...MORE].map((text) => h("th", { text })));
  const rows = [...days.map((p) => cells(p.start, p)), cells("Total", report.totals)];
  show(byId("usage"), h("thead", {}, head), h("tbody", {}, ...rows));
}
