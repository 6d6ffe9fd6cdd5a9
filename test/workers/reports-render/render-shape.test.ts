import { describe, expect, it } from "vitest";
import { renderReport } from "../../../src/services/reports/render";
import { answer, input, json, text } from "./fixtures";
import { sampleInput } from "./sample";

const SECTION_KEYS = [
  "block",
  "kind",
  "heading",
  "answer_id",
  "answer_key",
  "answer_type",
  "result_state",
  "result_state_text",
  "value",
  "unit",
  "fields",
  "paragraphs",
  "table",
  "notice",
  "evidence",
];

describe("renderReport: determinism", () => {
  it("gives byte-identical bodies for the same input, in both formats", () => {
    for (const format of ["json", "markdown"] as const) {
      const a = renderReport(sampleInput(), format);
      const b = renderReport(sampleInput(), format);
      expect(Array.from(a.bytes)).toEqual(Array.from(b.bytes));
      expect(a.format).toBe(format);
    }
    expect(renderReport(sampleInput(), "json").content_type).toBe("application/json");
    expect(renderReport(sampleInput(), "markdown").content_type).toBe("text/markdown");
  });

  it("does not depend on the order the store returned the answers or mapping keys in", () => {
    const ordered = sampleInput();
    const shuffled = sampleInput();
    shuffled.answers = [...shuffled.answers].reverse();
    const mapped = shuffled.template.blocks.find((b) => b.mapping !== undefined);
    if (mapped?.mapping === undefined) throw new Error("fixture has no mapping");
    mapped.mapping = Object.fromEntries(Object.entries(mapped.mapping).reverse());
    for (const format of ["json", "markdown"] as const) {
      expect(text(shuffled, format)).toBe(text(ordered, format));
    }
  });

  it("writes UTF-8 with \\n line ends and one final newline", () => {
    for (const format of ["json", "markdown"] as const) {
      const body = text(sampleInput("ja"), format);
      expect(body.includes("\r")).toBe(false);
      expect(body.endsWith("\n")).toBe(true);
      expect(body.endsWith("\n\n")).toBe(false);
    }
    const bytes = renderReport(sampleInput("ja"), "markdown").bytes;
    const decoded = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
    expect(decoded).toContain("**判定:** 合格");
  });
});

describe("renderReport: JSON shape", () => {
  it("is { report } with the header keys, then one section per block in a fixed key order", () => {
    const body = text(sampleInput(), "json");
    expect(body.startsWith('{\n  "report": {\n    "title": "Dock safety review",\n')).toBe(true);
    const { report } = json(sampleInput());
    expect(Object.keys(report)).toEqual([
      "title",
      "language",
      "run_id",
      "template",
      "profile_ref",
      "execution_profile_ref",
      "sources",
      "limitations",
      "notices",
      "sections",
    ]);
    expect(report.template).toEqual({ id: "tpl_safety", version: 3 });
    expect(report.sources).toEqual([
      { video_id: "vid_dock", title: "Loading dock", duration: 3725.4, duration_text: "1:02:05" },
    ]);
    expect(report.sections).toHaveLength(sampleInput().template.blocks.length);
    for (const section of report.sections) expect(Object.keys(section)).toEqual(SECTION_KEYS);
    expect(report.sections.map((s) => s.kind)).toEqual([
      "title",
      "verdict",
      "verdict",
      "measurement",
      "table",
      "table",
      "narrative",
      "narrative",
      "listing",
      "missing",
    ]);
  });

  it("echoes each block with its fields in a fixed order and the mapping keys sorted", () => {
    const { report } = json(
      input(
        [
          {
            mapping: { zebra: "Z", alpha: "A" },
            sort_direction: "desc",
            label: "Checks",
            answer_key: "checks",
            type: "table",
          },
        ],
        [answer("checks", "enumeration", "found")],
      ),
    );
    const block = report.sections[0]?.block;
    expect(Object.keys(block ?? {})).toEqual([
      "type",
      "answer_key",
      "label",
      "sort_direction",
      "mapping",
    ]);
    expect(Object.keys(block?.mapping ?? {})).toEqual(["alpha", "zebra"]);
  });

  it("puts the run's limitations in words and says None without any", () => {
    const withLimits = input([], []);
    withLimits.run.limitations = ["budget_exhausted", "something_new"];
    expect(json(withLimits).report.limitations).toEqual([
      { code: "budget_exhausted", text: "The processing budget limited the result" },
      { code: "something_new", text: "something_new" },
    ]);
    const md = text(withLimits, "markdown");
    expect(md).toContain(
      "- **Limitations:**\n  - The processing budget limited the result\n  - something_new\n",
    );
    expect(text(input([], []), "markdown")).toContain("- **Limitations:** None\n");
  });
});

describe("renderReport: header", () => {
  it("writes the title, run, profile, execution profile, template and sources", () => {
    const md = text(sampleInput(), "markdown");
    expect(md.startsWith("# Dock safety review\n\n")).toBe(true);
    expect(md).toContain(
      [
        "- **Run:** `run_demo`",
        "- **Profile:** `prof_safety@2`",
        "- **Execution profile:** `balanced-analysis@1`",
        "- **Template:** `tpl_safety@3`",
        "- **Sources:**",
        "  - Loading dock (`vid_dock`, 1:02:05)",
      ].join("\n"),
    );
    // The title block is the title, not a section of its own.
    expect(md).not.toContain("## Dock safety review");
  });

  it("falls back to the fixed title per language when no heading block has a label", () => {
    expect(text(input([], []), "markdown").startsWith("# Analysis report\n")).toBe(true);
    expect(text(input([], [], "ja"), "markdown").startsWith("# 分析レポート\n")).toBe(true);
    expect(
      text(input([{ type: "heading" }], []), "markdown").startsWith("# Analysis report\n"),
    ).toBe(true);
  });

  it("renders unknown languages with the English strings, saying nothing about it", () => {
    const fr = text(sampleInput("fr"), "markdown");
    expect(fr).toBe(text(sampleInput("en"), "markdown"));
    expect(text(sampleInput("ja-JP"), "markdown")).toBe(text(sampleInput("ja"), "markdown"));
    expect(json(sampleInput("fr")).report.language).toBe("fr");
  });

  it("lists a source missing from the videos as untitled", () => {
    const missing = input([], []);
    missing.run.source_ids = ["vid_dock", "vid_gone"];
    expect(text(missing, "markdown")).toContain("  - Untitled (`vid_gone`)\n");
    expect(json(missing).report.sources).toContainEqual({
      video_id: "vid_gone",
      title: null,
      duration: null,
      duration_text: null,
    });
  });
});

describe("renderReport: missing answers and unknown block types", () => {
  it("says an answer was not produced, in the template language", () => {
    const blocks = [{ type: "verdict", answer_key: "fire_exit", label: "Fire exits" }];
    expect(text(input(blocks, []), "markdown")).toContain(
      '## Fire exits\n\nAnswer "fire_exit" was not produced.\n',
    );
    expect(text(input(blocks, [], "ja"), "markdown")).toContain(
      "## Fire exits\n\n回答「fire_exit」は生成されませんでした。\n",
    );
    const section = json(input(blocks, [])).report.sections[0];
    expect(section?.kind).toBe("missing");
    expect(section?.answer_id).toBeNull();
    expect(section?.notice).toBe('Answer "fire_exit" was not produced.');
  });

  it("lists an answer under an unknown block type with its result, value, summary and items", () => {
    const md = text(sampleInput(), "markdown");
    expect(md).toContain(
      "## forklift_count\n\n**Result:** Found\n\n**Value:** 2 vehicles\n\n" +
        'Summary of forklift_count. "spoken words a1" (00:05–00:08) [evidence_a1 00:05–00:08]\n\nNo items.\n',
    );
  });

  it("renders an unknown block type without answer_key as a table of all answers", () => {
    const blocks = [{ type: "dashboard", label: "All answers" }];
    const answers = [
      answer("zeta", "measurement", "found", { value: 3, unit: "m" }),
      answer("alpha", "verdict", "found", { value: true, summary: "All good." }),
    ];
    const section = json(input(blocks, answers)).report.sections[0];
    expect(section?.kind).toBe("overview");
    expect(section?.table?.columns.map((c) => c.key)).toEqual([
      "answer_key",
      "result_state",
      "value",
      "summary",
      "evidence",
    ]);
    expect(section?.table?.groups[0]?.rows.map((r) => r.cells)).toEqual([
      ["alpha", "Found", "Pass", "All good.", null],
      ["zeta", "Found", "3 m", "Summary of zeta.", null],
    ]);
    expect(text(input(blocks, []), "markdown")).toContain("## All answers\n\nNo answers.\n");
  });
});
