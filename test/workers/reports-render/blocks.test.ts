import { describe, expect, it } from "vitest";
import type { TemplateBlock } from "../../../src/domain/report-templates";
import { answer, ev, input, item, json, rowsOf, text } from "./fixtures";
import { sampleInput } from "./sample";

describe("verdict blocks", () => {
  const verdict = (state: "found" | "not_found" | "uncertain" | "not_checked", value?: boolean) =>
    input(
      [{ type: "verdict", answer_key: "gate", label: "Gate closed" }],
      [answer("gate", "verdict", state, value === undefined ? {} : { value })],
    );

  it("reads Pass only for a found true verdict, in en and ja", () => {
    const cases = [
      ["found", true, "Pass", "合格"],
      ["found", false, "Fail", "不合格"],
      ["not_found", false, "Fail", "不合格"],
      ["not_found", undefined, "Not found", "未検出"],
      ["not_found", true, "Not found", "未検出"],
      ["uncertain", true, "Uncertain — not a pass", "不確定（合格ではありません）"],
      ["not_checked", true, "Not checked", "未確認"],
      ["not_checked", undefined, "Not checked", "未確認"],
    ] as const;
    for (const [state, value, en, ja] of cases) {
      const enInput = verdict(state, value);
      const jaInput = { ...enInput, template: { ...enInput.template, language: "ja" } };
      expect(text(enInput, "markdown"), `${state}/${value}`).toContain(
        `## Gate closed\n\n**Verdict:** ${en}\n\nSummary of gate.\n`,
      );
      expect(text(jaInput, "markdown"), `${state}/${value}`).toContain(`**判定:** ${ja}\n`);
      expect(json(enInput).report.sections[0]?.fields).toEqual([
        { key: "verdict", label: "Verdict", text: en },
      ]);
    }
  });

  it("carries the raw value in JSON only where it cannot read as a pass", () => {
    expect(json(verdict("found", true)).report.sections[0]?.value).toBe(true);
    expect(json(verdict("found", false)).report.sections[0]?.value).toBe(false);
    expect(json(verdict("uncertain", true)).report.sections[0]?.value).toBeNull();
    expect(json(verdict("not_found", true)).report.sections[0]?.value).toBeNull();
    expect(json(verdict("not_found", false)).report.sections[0]?.value).toBe(false);
  });

  it("shows a non-yes/no verdict value on a line of its own", () => {
    const md = text(
      input(
        [{ type: "verdict", answer_key: "grade" }],
        [answer("grade", "verdict", "found", { value: "B+" })],
      ),
      "markdown",
    );
    expect(md).toContain("## grade\n\n**Verdict:** Found\n\n**Value:** B+\n");
  });
});

describe("measurement blocks", () => {
  it("shows value with unit and the result state", () => {
    expect(text(sampleInput(), "markdown")).toContain(
      "## Forklifts\n\n**Value:** 2 vehicles\n\n**Result:** Found\n\n" +
        "Summary of forklift_count. [evidence_a1 00:05–00:08]\n",
    );
    expect(text(sampleInput("ja"), "markdown")).toContain(
      "## Forklifts\n\n**値:** 2 vehicles\n\n**結果:** 検出\n",
    );
    const uncertain = input(
      [{ type: "measurement", answer_key: "temp" }],
      [answer("temp", "measurement", "uncertain", { value: -0, unit: "°C" })],
    );
    expect(text(uncertain, "markdown")).toContain("**Value:** 0 °C\n\n**Result:** Uncertain\n");
    const none = input(
      [{ type: "measurement", answer_key: "temp" }],
      [answer("temp", "measurement", "not_checked")],
    );
    expect(text(none, "markdown")).toContain("**Value:** —\n\n**Result:** Not checked\n");
  });
});

describe("timeline blocks", () => {
  it("orders events by start time with mm:ss and h:mm:ss, labels from field_labels", () => {
    const md = text(sampleInput(), "markdown");
    expect(md).toContain(
      [
        "| Time | What happened | Result | Zone | Evidence |",
        "| --- | --- | --- | --- | --- |",
        "| 00:05–00:08 | Forklift enters | Found | A | [evidence_a1 00:05–00:08] |",
        "| 01:05–01:10 | Helmet off? | Uncertain | — | [evidence_b2 01:05–01:10] |",
        "| 1:01:40–1:01:50 | Late delivery | Found | B | [evidence_c3 1:01:40–1:01:50] |",
      ].join("\n"),
    );
    expect(text(sampleInput("ja"), "markdown")).toContain(
      [
        "| 時刻 | What happened | 結果 | Zone | 証拠 |",
        "| --- | --- | --- | --- | --- |",
        "| 00:05–00:08 | Forklift enters | 検出 | A | [evidence_a1 00:05–00:08] |",
        "| 01:05–01:10 | Helmet off? | 不確定 | — | [evidence_b2 01:05–01:10] |",
      ].join("\n"),
    );
  });

  it("reads start from start_time attributes in seconds or clock form before the evidence", () => {
    const blocks: TemplateBlock[] = [
      {
        type: "timeline",
        answer_key: "t",
        columns: [
          { key: "time", label: "When" },
          { key: "label", label: "What" },
        ],
      },
    ];
    const items = [
      item("a", "by evidence", "found", { evidence: [ev("x", 30, 31)] }),
      item("b", "by clock", "found", { attributes: { start_time: "00:20", end_time: "0:00:25" } }),
      item("c", "by seconds", "found", {
        attributes: { start_time: 40 },
        evidence: [ev("y", 41, 45)],
      }),
      item("d", "no time", "found"),
    ];
    const section = json(input(blocks, [answer("t", "timeline", "found", { items })])).report
      .sections[0];
    expect(rowsOf(section)).toEqual([
      ["00:20–00:25", "by clock", "Found"],
      ["00:30–00:31", "by evidence", "Found"],
      ["00:40–00:45", "by seconds", "Found"],
      [null, "no time", "Found"],
    ]);
  });
});

describe("table, enumeration, comparison and retrieval blocks", () => {
  it("renders table columns and mapping from the template", () => {
    const md = text(sampleInput(), "markdown");
    expect(md).toContain(
      [
        "## Checks",
        "",
        "**Result:** OK",
        "",
        "Summary of checks.",
        "",
        "| Check | Outcome | Passed |",
        "| --- | --- | --- |",
        "| Gate | Uncertain | Uncertain — not a pass |",
        "| Lights | OK | Yes! |",
        "| Cones | Not found | No |",
      ].join("\n"),
    );
    expect(text(sampleInput("ja"), "markdown")).toContain(
      "| Gate | 不確定 | 不確定（合格ではありません） |\n| Lights | OK | Yes! |\n| Cones | 未検出 | いいえ |",
    );
  });

  it("gives enumeration and comparison the item columns, retrieval its rank and time", () => {
    const items = [
      item("m1", "Dock 4", "found", { value: 0.91, evidence: [ev("r1", 12, 14)] }),
      item("m2", "Dock 2", "found", { value: 0.5, evidence: [ev("r2", 3, 4)] }),
    ];
    const answers = [
      answer("en", "enumeration", "found", { items }),
      answer("cmp", "comparison", "found", { items }),
      answer("ret", "retrieval", "found", { items }),
    ];
    const blocks: TemplateBlock[] = [
      { type: "enumeration", answer_key: "en" },
      { type: "comparison", answer_key: "cmp" },
      { type: "retrieval", answer_key: "ret" },
    ];
    const [enumeration, comparison, retrieval] = json(input(blocks, answers)).report.sections;
    expect(enumeration?.table?.columns.map((c) => c.label)).toEqual([
      "Item",
      "Value",
      "Result",
      "Evidence",
    ]);
    expect(rowsOf(comparison)).toEqual([
      ["Dock 4", "0.91", "Found", "[evidence_r1 00:12–00:14]"],
      ["Dock 2", "0.5", "Found", "[evidence_r2 00:03–00:04]"],
    ]);
    expect(rowsOf(retrieval)).toEqual([
      ["1", "Dock 4", "00:12–00:14", "0.91", "Found", "[evidence_r1 00:12–00:14]"],
      ["2", "Dock 2", "00:03–00:04", "0.5", "Found", "[evidence_r2 00:03–00:04]"],
    ]);
    const ja = json(input(blocks, answers, "ja")).report.sections[2];
    expect(ja?.table?.columns.map((c) => c.label)).toEqual([
      "順位",
      "項目",
      "時刻",
      "値",
      "結果",
      "証拠",
    ]);
  });

  it("says a tabular answer has no items, per language", () => {
    const blocks: TemplateBlock[] = [{ type: "timeline", answer_key: "t", label: "Events" }];
    const none = [answer("t", "timeline", "not_found")];
    expect(text(input(blocks, none), "markdown")).toContain(
      "## Events\n\n**Result:** Not found\n\nSummary of t.\n\nNo items.\n",
    );
    expect(text(input(blocks, none, "ja"), "markdown")).toContain("項目はありません。\n");
  });
});

describe("narrative blocks", () => {
  it("renders one answer's summary, or every answer's summary led by its key", () => {
    const md = text(sampleInput(), "markdown");
    expect(md).toContain("## Story\n\nA quiet shift.\n");
    expect(md).toContain(
      [
        "## Overall",
        "",
        "**checks:** Summary of checks.",
        "",
        "**events:** Summary of events.",
        "",
        "**forklift_count:** Summary of forklift_count. [evidence_a1 00:05–00:08]",
      ].join("\n"),
    );
    const section = json(sampleInput()).report.sections[6];
    expect(section?.paragraphs.map((p) => p.answer_key)).toEqual([
      "checks",
      "events",
      "forklift_count",
      "gate_closed",
      "helmets_worn",
      "story",
    ]);
    expect(text(input([{ type: "narrative" }], [], "ja"), "markdown")).toContain(
      "## 概要\n\n回答はありません。\n",
    );
  });

  it("renders a later heading block as a bare heading", () => {
    const blocks: TemplateBlock[] = [
      { type: "heading", label: "Main" },
      { type: "heading", label: "Part two" },
    ];
    const md = text(input(blocks, []), "markdown");
    expect(md).toContain("# Main\n");
    expect(md.endsWith("## Part two\n")).toBe(true);
  });
});
