import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_SWEEP_INTERVAL_SECONDS } from "../../scripts/lib/local.mjs";
import { DEFAULT_LEASE_SECONDS } from "../../src/services/sweep/lease";
import { DEFAULT_RETRY_JITTER } from "../../src/services/webhooks/config";

// Defaults are stated in prose where operators read them (the start script's header, the
// README's configuration table); each must be the number the code uses.
const ROOT = path.resolve(import.meta.dirname, "../..");
const read = (file: string) => readFileSync(path.join(ROOT, file), "utf8");

/** The number a comment states in "NAME (number" form. */
function statedInComment(text: string, name: string): number {
  const match = new RegExp(`${name} \\((\\d+(?:\\.\\d+)?)`).exec(text);
  if (!match) throw new Error(`${name} is not stated`);
  return Number(match[1]);
}

/** The default column of the README's configuration row for `name`. */
function statedInReadme(name: string): string {
  const row = read("README.md")
    .split("\n")
    .find((line) => line.startsWith(`| \`${name}\``));
  const cell = row?.split("|")[2]?.trim();
  if (cell === undefined) throw new Error(`README has no configuration row for ${name}`);
  return cell;
}

describe("defaults stated in prose", () => {
  it("scripts/dev.mjs states the crash sweep's defaults the code has", () => {
    const header = read("scripts/dev.mjs");
    expect(statedInComment(header, "SWEEP_INTERVAL_SECONDS")).toBe(DEFAULT_SWEEP_INTERVAL_SECONDS);
    expect(statedInComment(header, "WORK_LEASE_SECONDS")).toBe(DEFAULT_LEASE_SECONDS);
  });

  it("the README's configuration table states the defaults the code has", () => {
    expect(statedInReadme("SWEEP_INTERVAL_SECONDS")).toBe(`\`${DEFAULT_SWEEP_INTERVAL_SECONDS}\``);
    expect(statedInReadme("WORK_LEASE_SECONDS")).toBe(`\`${DEFAULT_LEASE_SECONDS}\``);
    expect(statedInReadme("WEBHOOK_RETRY_JITTER")).toBe(`\`${DEFAULT_RETRY_JITTER}\``);
  });

  it("finds a stated number, and says so when one is missing", () => {
    expect(statedInComment("WORK_LEASE_SECONDS (900) for", "WORK_LEASE_SECONDS")).toBe(900);
    expect(() => statedInComment("nothing here", "WORK_LEASE_SECONDS")).toThrow("not stated");
  });
});
