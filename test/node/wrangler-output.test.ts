import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { plain, wranglerOutputFilter } from "../../scripts/lib/wrangler-output.mjs";

// What wrangler 4 printed on a first `npm start` (stdout and stderr together), kept verbatim.
const START = readFileSync(
  path.join(import.meta.dirname, "../fixtures/wrangler-dev-start.txt"),
  "utf8",
).split("\n");

function shownOf(lines: string[]): string[] {
  const shown = wranglerOutputFilter();
  return lines.filter((line) => shown(line)).map(plain);
}

describe("wrangler's start-up output as npm start shows it", () => {
  it("shows the bindings table once, whole, however often wrangler reprints it", () => {
    const heading = "Your Worker has access to the following bindings:";
    expect(START.filter((line) => line.includes(heading)).length).toBe(3);
    const shown = shownOf(START);
    expect(shown.filter((line) => line.includes(heading))).toHaveLength(1);
    const rows = START.filter((line) => line.startsWith("env."));
    for (const row of new Set(rows)) expect(shown.filter((line) => line === row)).toHaveLength(1);
    expect(shown.join("\n")).not.toContain("Connection status updated");
  });

  it("leaves out the cron and types warnings, and keeps the lines that matter", () => {
    const shown = shownOf(START).join("\n");
    expect(shown).not.toContain("WARNING");
    expect(shown).not.toContain("Scheduled Workers");
    expect(shown).not.toContain("cdn-cgi/local/scheduled");
    expect(shown).not.toContain("types might be out of date");
    expect(shown).toContain("Ready on http://127.0.0.1:8787");
    expect(shown).toContain("Starting local server");
    expect(shown).not.toMatch(/\n\s*\n\s*\n/);
  });

  it("passes everything else through unchanged, errors included", () => {
    const lines = [
      "[wrangler:info] GET /healthz 200 OK (3ms)",
      "✘ [ERROR] something broke",
      "",
      "  at the line after a blank one",
      '{"level":"info","msg":"video indexed"}',
    ];
    expect(shownOf(lines)).toEqual(lines);
  });
});
