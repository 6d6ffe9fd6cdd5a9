import { describe, expect, it } from "vitest";
import type { TemplateBlock } from "../../../src/domain/report-templates";
import { citedEvidence } from "../../../src/services/reports/cited";
import { answer, ev, input, item, json, text } from "./fixtures";
import { sampleInput } from "./sample";

/** Every `[evidence_… mm:ss–mm:ss]` citation in a body, in order of appearance. */
function citationsIn(body: string): string[] {
  return [...body.matchAll(/\[(evidence_[A-Za-z0-9_]+) [0-9:]+(?:–[0-9:]+)?\]/g)].map(
    (m) => m[1] ?? "",
  );
}

function firstSeen(ids: readonly string[]): string[] {
  return ids.filter((id, i) => ids.indexOf(id) === i);
}

describe("citedEvidence", () => {
  it("lists each evidence reference the report cites once, in the order it is first cited", () => {
    const cited = citedEvidence(sampleInput());
    const ids = cited.map((c) => c.evidence.evidence_id);
    expect(ids).toEqual(["evidence_b2", "evidence_a1", "evidence_c3"]);
    for (const format of ["json", "markdown"] as const) {
      expect(firstSeen(citationsIn(text(sampleInput(), format)))).toEqual(ids);
    }
    expect(cited[0]).toEqual({ answer_id: "ans_helmets_worn", evidence: ev("b2", 65, 70) });
  });

  it("matches the evidence each JSON section lists", () => {
    const sections = json(sampleInput()).report.sections;
    const listed = firstSeen(sections.flatMap((s) => s.evidence.map((e) => e.evidence_id)));
    expect(listed).toEqual(citedEvidence(sampleInput()).map((c) => c.evidence.evidence_id));
  });

  it("includes attribute evidence and leaves out evidence the template does not show", () => {
    const shown = item("i1", "Worker", "found", { evidence: [ev("hidden", 1, 2)] });
    shown.attributes.push({
      key: "ppe",
      label: "PPE",
      value: "vest",
      evidence: [ev("attr", 9, 10)],
    });
    const answers = [
      answer("t", "enumeration", "found", { items: [shown], representative: [ev("rep", 4, 5)] }),
      answer("unused", "verdict", "found", { representative: [ev("never", 7, 8)] }),
    ];
    const blocks: TemplateBlock[] = [
      { type: "table", answer_key: "t", columns: [{ key: "ppe", label: "PPE" }] },
    ];
    const renderInput = input(blocks, answers);
    const ids = citedEvidence(renderInput).map((c) => c.evidence.evidence_id);
    expect(ids).toEqual(["evidence_rep", "evidence_attr"]);
    expect(firstSeen(citationsIn(text(renderInput, "markdown")))).toEqual(ids);
    expect(text(renderInput, "markdown")).not.toContain("http");
  });

  it("is empty for a report citing nothing and deterministic across calls", () => {
    expect(citedEvidence(input([{ type: "heading", label: "Empty" }], []))).toEqual([]);
    expect(citedEvidence(sampleInput())).toEqual(citedEvidence(sampleInput()));
  });
});
