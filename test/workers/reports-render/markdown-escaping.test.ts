import { describe, expect, it } from "vitest";
import type { TemplateBlock } from "../../../src/domain/report-templates";
import { escapeCell, escapeInline, escapeLineStart } from "../../../src/services/reports/markdown";
import { answer, input, item, json, text } from "./fixtures";

describe("Markdown escaping", () => {
  it("escapes pipes and line breaks in table cells so a row stays one row", () => {
    expect(escapeCell("a | b\nc\r\nd")).toBe("a \\| b<br>c<br>d");
    expect(escapeCell("  ")).toBe("—");
    expect(escapeCell(null)).toBe("—");
  });

  it("escapes inline markup but keeps ordinary punctuation and intraword underscores", () => {
    expect(escapeInline("*bold* _it_ `code` [link](x) <b> a&b ~s~ #1 \\")).toBe(
      "\\*bold\\* \\_it\\_ \\`code\\` \\[link\\](x) \\<b\\> a\\&b \\~s\\~ \\#1 \\\\",
    );
    expect(escapeInline("forklift_count (yellow)!")).toBe("forklift_count (yellow)!");
    expect(escapeInline("荷物_台車")).toBe("荷物_台車");
    expect(escapeInline("bell\u0007 tab\there")).toBe("bell tab here");
  });

  it("escapes what would open a block at the start of a line", () => {
    expect(escapeLineStart("- not a list")).toBe("\\- not a list");
    expect(escapeLineStart("+ plus")).toBe("\\+ plus");
    expect(escapeLineStart("12. not ordered")).toBe("12\\. not ordered");
    expect(escapeLineStart("# not a heading")).toBe("\\# not a heading");
    expect(escapeLineStart("> not a quote")).toBe("\\> not a quote");
    expect(escapeLineStart("    not code")).toBe("not code");
  });

  it("keeps hostile answer text inside its paragraph, heading and cell", () => {
    const hostile = "x |\n## Injected\n| a | b |";
    const blocks: TemplateBlock[] = [
      { type: "table", answer_key: "t", label: "Label | with pipe\n# and break" },
    ];
    const answers = [
      answer("t", "enumeration", "found", {
        summary: hostile,
        items: [item("i1", hostile, "found", { value: "v|1" })],
      }),
    ];
    const md = text(input(blocks, answers), "markdown");
    const lines = md.split("\n");
    expect(lines).toContain("## Label \\| with pipe<br>\\# and break");
    expect(lines).toContain("x \\|<br>\\#\\# Injected<br>\\| a \\| b \\|");
    expect(lines).toContain("| x \\|<br>\\#\\# Injected<br>\\| a \\| b \\| | v\\|1 | Found | — |");
    expect(lines.filter((l) => l.startsWith("#"))).toEqual([
      "# Analysis report",
      "## Label \\| with pipe<br>\\# and break",
    ]);
    // JSON keeps the text as it was.
    expect(json(input(blocks, answers)).report.sections[0]?.paragraphs[0]?.text).toBe(hostile);
  });

  it("writes ids as code spans only when they are plain", () => {
    const odd = input([], []);
    odd.run.id = "run_`x`";
    expect(text(odd, "markdown")).toContain("- **Run:** run\\_\\`x\\`\n");
    expect(text(input([], []), "markdown")).toContain("- **Run:** `run_demo`\n");
  });
});
