import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_SWEEP_INTERVAL_SECONDS } from "../../scripts/lib/local.mjs";
import { AUDIT_RETENTION_DAYS } from "../../src/domain/audit";
import { DEFAULT_LEASE_SECONDS } from "../../src/services/sweep/lease";
import { DEFAULT_RETRY_JITTER } from "../../src/services/webhooks/config";

// Defaults are stated in prose where operators read them (the start script's header, the
// README, docs/); each must be the number the code uses. Limits quoted in docs are checked in
// test/workers/foundation/stated-limits.test.ts, where the Worker's modules load.
const ROOT = path.resolve(import.meta.dirname, "../..");
const read = (file: string) => readFileSync(path.join(ROOT, file), "utf8");
const DOCS = [
  "README.md",
  "docs/architecture.md",
  "docs/api-overview.md",
  "docs/deploy.md",
  ...readdirSync(path.join(ROOT, "docs/decisions")).map((name) => `docs/decisions/${name}`),
];

/** The number a comment states in "NAME (number" form. */
function statedInComment(text: string, name: string): number {
  const match = new RegExp(`${name} \\((\\d+(?:\\.\\d+)?)`).exec(text);
  if (!match) throw new Error(`${name} is not stated`);
  return Number(match[1]);
}

/** The cell in `column` of the first row of a Markdown table whose first cell is `first`. */
function tableCell(markdown: string, first: string, column = 1): string {
  const rows = markdown.split("\n").map((line) => line.split("|").map((cell) => cell.trim()));
  const cell = rows.find((cells) => cells[0] === "" && cells[1] === first)?.[column + 1];
  if (cell === undefined) throw new Error(`no table row for ${first}`);
  return cell;
}

/** Every "NAME … default N" in `text`, as `file: N` (the default within the same clause). */
function statedDefaults(file: string, text: string, name: string): string[] {
  const pattern = new RegExp(`\`?${name}\`?[^.;:\\n]{0,40}?default\\W{0,3}(\\d+)`, "g");
  return [...text.matchAll(pattern)].map((m) => `${file}: ${m[1]}`);
}

describe("defaults stated in prose", () => {
  it("scripts/dev.mjs states the crash sweep's defaults the code has", () => {
    const header = read("scripts/dev.mjs");
    expect(statedInComment(header, "SWEEP_INTERVAL_SECONDS")).toBe(DEFAULT_SWEEP_INTERVAL_SECONDS);
    expect(statedInComment(header, "WORK_LEASE_SECONDS")).toBe(DEFAULT_LEASE_SECONDS);
  });

  it("the README's configuration table states the defaults the code has", () => {
    const readme = read("README.md");
    expect(tableCell(readme, "`SWEEP_INTERVAL_SECONDS`")).toBe(
      `\`${DEFAULT_SWEEP_INTERVAL_SECONDS}\``,
    );
    expect(tableCell(readme, "`WORK_LEASE_SECONDS`")).toBe(`\`${DEFAULT_LEASE_SECONDS}\``);
    expect(tableCell(readme, "`WEBHOOK_RETRY_JITTER`")).toBe(`\`${DEFAULT_RETRY_JITTER}\``);
  });

  it("every default of a setting the docs quote is the code's", () => {
    const settings = {
      WORK_LEASE_SECONDS: DEFAULT_LEASE_SECONDS,
      SWEEP_INTERVAL_SECONDS: DEFAULT_SWEEP_INTERVAL_SECONDS,
    };
    for (const [name, value] of Object.entries(settings)) {
      const stated = DOCS.flatMap((file) => statedDefaults(file, read(file), name));
      expect(
        stated.filter((s) => !s.endsWith(`: ${value}`)),
        name,
      ).toEqual([]);
    }
  });

  it("the audit trail is kept as long as the docs say", () => {
    const stated = DOCS.flatMap((file) =>
      read(file)
        .split(/\.\s/)
        .filter((sentence) => /audit|trail|Entries are kept/.test(sentence))
        .flatMap((sentence) =>
          [...sentence.matchAll(/(?:kept|for|past) (\d+) days/g)].map((m) => `${file}: ${m[1]}`),
        ),
    );
    expect(stated.length).toBeGreaterThan(1);
    expect(stated.filter((s) => !s.endsWith(`: ${AUDIT_RETENTION_DAYS}`))).toEqual([]);
  });

  it("finds a stated number, and says so when one is missing", () => {
    expect(statedInComment("WORK_LEASE_SECONDS (900) for", "WORK_LEASE_SECONDS")).toBe(900);
    expect(() => statedInComment("nothing here", "WORK_LEASE_SECONDS")).toThrow("not stated");
    expect(
      statedDefaults("f", "`WORK_LEASE_SECONDS` (default 900 s).", "WORK_LEASE_SECONDS"),
    ).toEqual(["f: 900"]);
  });
});
