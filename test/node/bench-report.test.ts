import { describe, expect, it } from "vitest";
import { parseReport, replaceSections, suiteSection } from "../../bench/report.mjs";

const RUN = { measuredAt: "2026-11-26T10:00:00.000Z", command: "npm run bench -- b", machine: "M" };
const ORDER = ["a", "b", "c"];
const REPORT = [
  "# Benchmarks",
  "",
  "Intro.",
  "",
  "## a",
  "",
  "Measured then.",
  "",
  "### A's table",
  "",
  "| x |",
  "",
  "## b",
  "",
  "old b",
  "",
].join("\n");

describe("docs/benchmarks.md keeps one section per suite", () => {
  it("replaces the section of a suite that ran and keeps the others as they were", () => {
    const next = replaceSections(REPORT, new Map([["b", suiteSection("b", "new b", RUN)]]), ORDER);
    const { preamble, sections } = parseReport(next);
    expect(preamble.trim()).toBe("# Benchmarks\n\nIntro.");
    expect([...sections.keys()]).toEqual(["a", "b"]);
    expect(sections.get("a")).toContain("### A's table");
    expect(sections.get("b")).toContain(
      "Measured 2026-11-26T10:00:00.000Z by `npm run bench -- b` on M.",
    );
    expect(next).not.toContain("old b");
  });

  it("adds a suite's first section in the suites' order", () => {
    const next = replaceSections(REPORT, new Map([["c", suiteSection("c", "c", RUN)]]), [
      "c",
      "a",
      "b",
    ]);
    expect([...parseReport(next).sections.keys()]).toEqual(["c", "a", "b"]);
  });

  it("changes nothing when no suite ran", () => {
    const once = replaceSections(REPORT, new Map(), ORDER);
    expect(replaceSections(once, new Map(), ORDER)).toBe(once);
  });
});
