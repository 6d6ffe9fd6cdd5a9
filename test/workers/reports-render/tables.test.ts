import { describe, expect, it } from "vitest";
import type { AnswerItem } from "../../../src/domain/answers";
import type { TemplateBlock } from "../../../src/domain/report-templates";
import { answer, ev, input, item, json, rowsOf, text } from "./fixtures";

/** Items whose ids, labels and attributes disagree in order, so each sort is visible. */
function crew(): AnswerItem[] {
  return [
    item("i3", "Carol", "found", { value: 3, attributes: { team: "blue", start: 30 } }),
    item("i1", "Alice", "uncertain", { value: 10, attributes: { team: "red", start: 10 } }),
    item("i2", "Bob", "found", { value: 3, attributes: { team: "blue" } }),
    item("i4", "Dave", "not_checked", { attributes: { team: "red", start: 5 } }),
  ];
}

function tableOf(block: Omit<TemplateBlock, "type" | "answer_key">) {
  const blocks: TemplateBlock[] = [
    { type: "table", answer_key: "crew", columns: [{ key: "label", label: "Name" }], ...block },
  ];
  return input(blocks, [answer("crew", "enumeration", "found", { items: crew() })]);
}

function names(block: Omit<TemplateBlock, "type" | "answer_key">): (string | null)[] {
  return rowsOf(json(tableOf(block)).report.sections[0]).map((cells) => cells[0] ?? null);
}

describe("sort_by and sort_direction", () => {
  it("keeps the engine's order without sort_by, reversed by desc", () => {
    expect(names({})).toEqual(["Carol", "Alice", "Bob", "Dave"]);
    expect(names({ sort_direction: "desc" })).toEqual(["Dave", "Bob", "Alice", "Carol"]);
  });

  it("sorts by a field, ties by item id, empty values last in both directions", () => {
    expect(names({ sort_by: "value" })).toEqual(["Bob", "Carol", "Alice", "Dave"]);
    expect(names({ sort_by: "value", sort_direction: "desc" })).toEqual([
      "Alice",
      "Bob",
      "Carol",
      "Dave",
    ]);
    expect(names({ sort_by: "start", sort_direction: "desc" })).toEqual([
      "Carol",
      "Alice",
      "Dave",
      "Bob",
    ]);
    expect(names({ sort_by: "label", sort_direction: "desc" })).toEqual([
      "Dave",
      "Carol",
      "Bob",
      "Alice",
    ]);
  });

  it("sorts by an attribute and by result state in spec order", () => {
    expect(names({ sort_by: "team" })).toEqual(["Bob", "Carol", "Alice", "Dave"]);
    expect(names({ sort_by: "result_state" })).toEqual(["Bob", "Carol", "Alice", "Dave"]);
    expect(names({ sort_by: "no_such_field" })).toEqual(["Alice", "Bob", "Carol", "Dave"]);
  });

  it("lets sort_by reorder a timeline", () => {
    const blocks: TemplateBlock[] = [
      { type: "timeline", answer_key: "crew", sort_by: "label", sort_direction: "desc" },
    ];
    const section = json(input(blocks, [answer("crew", "timeline", "found", { items: crew() })]))
      .report.sections[0];
    expect(rowsOf(section).map((r) => r[1])).toEqual(["Dave", "Carol", "Bob", "Alice"]);
    const byTime = json(
      input(
        [{ type: "timeline", answer_key: "crew" }],
        [answer("crew", "timeline", "found", { items: crew() })],
      ),
    ).report.sections[0];
    expect(rowsOf(byTime).map((r) => r[1])).toEqual(["Dave", "Alice", "Carol", "Bob"]);
  });
});

describe("group_by", () => {
  it("groups rows by the column's displayed value, groups ascending, rows sorted within", () => {
    const section = json(tableOf({ group_by: "team", sort_by: "label", sort_direction: "desc" }))
      .report.sections[0];
    expect(section?.table?.group_by).toBe("team");
    expect(
      section?.table?.groups.map((g) => [g.key, g.label, g.rows.map((r) => r.cells[0])]),
    ).toEqual([
      ["blue", "team: blue", ["Carol", "Bob"]],
      ["red", "team: red", ["Dave", "Alice"]],
    ]);
  });

  it("writes a ### heading and table per group in Markdown, labelled from field_labels", () => {
    const md = text(
      tableOf({ group_by: "team", field_labels: [{ key: "team", label: "Team" }] }),
      "markdown",
    );
    expect(md).toContain(
      [
        "### Team: blue",
        "",
        "| Name | Result |",
        "| --- | --- |",
        "| Carol | Found |",
        "| Bob | Found |",
        "",
        "### Team: red",
        "",
        "| Name | Result |",
        "| --- | --- |",
        "| Alice | Uncertain |",
        "| Dave | Not checked |",
      ].join("\n"),
    );
  });

  it("orders numeric groups numerically and puts the empty group last", () => {
    const section = json(tableOf({ group_by: "value" })).report.sections[0];
    expect(section?.table?.groups.map((g) => g.key)).toEqual(["3", "10", null]);
    expect(section?.table?.groups[2]?.label).toBe("Value: —");
  });

  it("never puts an uncertain yes into the group of the found ones", () => {
    const items = [
      item("a", "Found yes", "found", { value: true }),
      item("b", "Uncertain yes", "uncertain", { value: true }),
    ];
    const blocks: TemplateBlock[] = [
      {
        type: "table",
        answer_key: "c",
        group_by: "value",
        columns: [{ key: "label", label: "Check" }],
      },
    ];
    const section = json(input(blocks, [answer("c", "enumeration", "found", { items })])).report
      .sections[0];
    expect(section?.table?.groups.map((g) => [g.key, g.rows.map((r) => r.row_id)])).toEqual([
      ["Uncertain — not a pass", ["b"]],
      ["Yes", ["a"]],
    ]);
  });
});

describe("columns, field_labels and mapping", () => {
  it("takes attribute columns with their unit and evidence, and maps displayed values", () => {
    const items = [
      item("w1", "Worker 1", "found", { evidence: [ev("w1", 70, 75), ev("w0", 2, 3)] }),
    ];
    const first = items[0];
    if (first === undefined) throw new Error("no item");
    first.attributes.push({
      key: "ppe",
      label: "PPE",
      value: "hard_hat",
      evidence: [ev("p1", 71, 72)],
    });
    first.attributes.push({ key: "height", label: "Height", value: 1.8, unit: "m" });
    const blocks: TemplateBlock[] = [
      {
        type: "table",
        answer_key: "w",
        columns: [
          { key: "label", label: "" },
          { key: "ppe", label: "Gear" },
          { key: "height", label: "Height" },
          { key: "evidence", label: "Proof" },
          { key: "item_id", label: "ID" },
        ],
        mapping: { hard_hat: "Hard hat", found: "Seen", constructor: "x" },
      },
    ];
    const section = json(input(blocks, [answer("w", "enumeration", "found", { items })])).report
      .sections[0];
    expect(section?.table?.columns.map((c) => c.label)).toEqual([
      "Item",
      "Gear",
      "Height",
      "Proof",
      "ID",
      "Result",
    ]);
    expect(rowsOf(section)).toEqual([
      [
        "Worker 1",
        "Hard hat [evidence_p1 01:11–01:12]",
        "1.8 m",
        "[evidence_w0 00:02–00:03] [evidence_w1 01:10–01:15]",
        "w1",
        "Seen",
      ],
    ]);
    expect(section?.result_state_text).toBe("Seen");
  });

  it("never maps the uncertain or not_checked wording", () => {
    const blocks: TemplateBlock[] = [
      { type: "measurement", answer_key: "m", mapping: { uncertain: "Fine", not_checked: "Fine" } },
    ];
    const md = text(
      input(blocks, [answer("m", "measurement", "uncertain", { value: 1 })]),
      "markdown",
    );
    expect(md).toContain("**Result:** Uncertain\n");
  });
});
