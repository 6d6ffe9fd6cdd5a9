import { describe, expect, it } from "vitest";
import type { AnswerRow } from "../../../src/db/repos/runs";
import { defaultTemplate } from "../../../src/services/reports/input";
import { answer, input, item, json, rowsOf, text } from "./fixtures";

describe("what a report always says", () => {
  it("shows every row's state in a table with custom columns", () => {
    const crew = answer("crew", "enumeration", "found", {
      items: [
        item("forklift", "Forklift", "found", { value: "Forklift" }),
        item("ladder", "Ladder", "not_found"),
        item("crane", "Crane", "uncertain"),
      ],
    });
    const report = json(
      input(
        [{ type: "table", answer_key: "crew", columns: [{ key: "label", label: "Name" }] }],
        [crew],
      ),
    );
    const section = report.report.sections[0];
    expect(section?.table?.columns.map((c) => c.key)).toEqual(["label", "result_state"]);
    expect(rowsOf(section)).toEqual([
      ["Forklift", "Found"],
      ["Ladder", "Not found"],
      ["Crane", "Uncertain"],
    ]);
  });

  it("renders a lower bound as at least, in the headline and in the rows", () => {
    const count = answer("spills", "measurement", "uncertain", {
      value: 3,
      unit: "occurrences",
      items: [
        item("vid_dock", "Loading dock", "uncertain", { value: 3, attributes: { at_least: true } }),
      ],
    });
    const blocks = [
      { type: "measurement" as const, answer_key: "spills" },
      { type: "table" as const, answer_key: "spills", columns: [{ key: "value", label: "Count" }] },
    ];
    const markdown = text(input(blocks, [count]), "markdown");
    expect(markdown).toContain("at least 3 occurrences");
    const report = json(input(blocks, [count]));
    expect(rowsOf(report.report.sections[1])).toEqual([["at least 3", "Uncertain"]]);
    const ja = text(input(blocks, [count], "ja"), "markdown");
    expect(ja).toContain("3 occurrences以上");
  });

  it("heads a workflow's sections by rule title when given, never by ids", () => {
    const row = { key: "dock-hours/vid_1", type: "verdict" } as AnswerRow;
    const template = defaultTemplate([row], "en", {
      "dock-hours/vid_1": "Loading dock closes at six pm — Safety talk",
    });
    expect(template.blocks.map((b) => b.label)).toEqual([
      "Loading dock closes at six pm — Safety talk",
    ]);
  });
});
