import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ANSWER_TYPES, type AnswerItem, RESULT_STATES } from "../../../src/domain/answers";
import type { EvidenceRef } from "../../../src/domain/evidence";
import type { RenderInput, StoredAnswer } from "../../../src/services/reports/types";
import { answer, ev, input, item, type JsonSection, json, text } from "./fixtures";

// Two sources: vid_dock stays, vid_yard is deleted after the report was issued.
const GONE = "vid_yard";

function yard(id: string, start: number, end: number): EvidenceRef {
  return { ...ev(id, start, end), video_id: GONE, text: `yard secret ${id}` };
}

function twoSources(answers: StoredAnswer[], language = "en"): RenderInput {
  const base = input(
    answers.map((a) => ({ type: a.type === "verdict" ? "verdict" : "table", answer_key: a.key })),
    answers,
    language,
  );
  return {
    ...base,
    run: { ...base.run, source_ids: ["vid_dock", GONE] },
    videos: [...base.videos, { id: GONE, title: "Yard at night", duration: 61 }],
  };
}

const withheld = (i: RenderInput): RenderInput => ({ ...i, redacted: [GONE] });

describe("a report with a deleted source withheld", () => {
  const dock = ev("k1", 5, 8);
  const night = yard("y1", 12, 14);
  const issued = twoSources([
    answer("vests", "verdict", "found", {
      value: true,
      summary: `Supported in 2 of 2 videos, first at 00:12: "yard secret y1"`,
      representative: [night, dock],
      items: [
        item("vid_dock", "Loading dock", "found", { value: true, evidence: [dock] }),
        item(GONE, "Yard at night", "found", { value: true, evidence: [night] }),
      ],
    }),
    answer("rules", "timeline", "found", {
      items: [
        item("vid_dock:0", "spoken words k1", "found", { evidence: [dock] }),
        item(`${GONE}:0`, "yard secret y1", "found", { evidence: [night] }),
      ],
    }),
  ]);

  it("shows no quote, title or summary of it, in Markdown and JSON, and says why", () => {
    const markdown = text(withheld(issued), "markdown");
    const body = text(withheld(issued), "json");
    for (const rendered of [markdown, body]) {
      expect(rendered).not.toContain("yard secret");
      expect(rendered).not.toContain("Yard at night");
      expect(rendered).toContain("spoken words k1");
    }
    expect(markdown).toContain("- \\[redacted: source deleted\\] (`vid_yard`)");
    expect(markdown).toContain(
      "  - vid_yard: This video was deleted: its quotes, title and media are withheld from this report, which otherwise reads as issued.",
    );
    // The verdict stands as issued; the citation of the withheld span keeps its id and time.
    expect(markdown).toContain("**Verdict:** Pass");
    expect(markdown).toContain("[evidence_y1 00:12–00:14]");
    const report = JSON.parse(body).report;
    expect(report.sources[1]).toEqual({
      video_id: GONE,
      title: null,
      duration: null,
      duration_text: null,
      redacted: "source_deleted",
    });
    expect(report.notices).toEqual([
      expect.objectContaining({ code: "source_deleted", video_id: GONE }),
    ]);
    const cited = report.sections.flatMap((s: JsonSection) => s.evidence);
    expect(cited).toContainEqual(
      expect.objectContaining({ evidence_id: "evidence_y1", redacted: "source_deleted" }),
    );
    expect(cited.find((e: { evidence_id: string }) => e.evidence_id === "evidence_k1")).toEqual(
      expect.not.objectContaining({ redacted: expect.anything() }),
    );
  });

  it("says it in the report's language", () => {
    const markdown = text(withheld(twoSources(issued.answers, "ja")), "markdown");
    expect(markdown).not.toContain("yard secret");
    expect(markdown).toContain("\\[非表示: ソースは削除済み\\]");
    expect(markdown).toContain("この動画は削除されました");
  });

  it("renders the issued bytes when nothing is withheld", () => {
    expect(text({ ...issued, redacted: [] }, "json")).toBe(text(issued, "json"));
    expect(text({ ...issued, redacted: [] }, "markdown")).toBe(text(issued, "markdown"));
  });
});

const WORDS = ["dock", "gate", "crane", "zone"];
const KEPT = [ev("p1", 1, 2), ev("p2", 62, 64)];
const YARD = [yard("q1", 3, 4), yard("q2", 70, 71)];

const itemArb = fc
  .record({
    owner: fc.constantFrom("vid_dock", GONE, "none"),
    label: fc.constantFrom(...WORDS),
    state: fc.constantFrom(...RESULT_STATES),
    evidence: fc.subarray([...KEPT, ...YARD]),
    value: fc.option(fc.oneof(fc.boolean(), fc.integer({ min: 0, max: 9 })), { nil: undefined }),
  })
  .map((r): Omit<AnswerItem, "item_id"> & { owner: string } => ({
    owner: r.owner,
    // An item standing for the deleted video carries its title, as engines label them.
    label: r.owner === GONE ? "Yard at night" : r.label,
    result_state: r.state,
    attributes: [],
    // Only an item of no one video may cite both.
    evidence: r.owner === "vid_dock" ? r.evidence.filter((e) => e.video_id !== GONE) : r.evidence,
    ...(r.value === undefined ? {} : { value: r.value }),
  }));

const answersArb = fc.uniqueArray(
  fc.record({
    key: fc.constantFrom("k0", "k1", "k2", "k3"),
    type: fc.constantFrom(...ANSWER_TYPES),
    state: fc.constantFrom(...RESULT_STATES),
    value: fc.option(fc.boolean(), { nil: undefined }),
    representative: fc.subarray([...KEPT, ...YARD]),
    items: fc.array(itemArb, { maxLength: 3 }),
  }),
  { selector: (a) => a.key, maxLength: 4 },
);

type Drawn = typeof answersArb extends fc.Arbitrary<infer T> ? T : never;

function answersOf(drawn: Drawn): StoredAnswer[] {
  return drawn.map((a) => {
    const cited = a.representative.filter((e) => e.video_id === GONE);
    // An engine's summary quotes what the answer cites.
    const summary = cited.length > 0 ? `First at 00:03: "${cited[0]?.text}"` : `About ${a.key}.`;
    return answer(a.key, a.type, a.state, {
      summary,
      representative: a.representative,
      ...(a.value === undefined ? {} : { value: a.value }),
      items: a.items.map(({ owner, ...rest }, i) => ({
        ...rest,
        item_id: owner === "none" ? `item_${i}` : `${owner}:${i}`,
      })),
    });
  });
}

/** What a reader sees as the report's structure: what withholding must leave as issued. */
function structure(sections: JsonSection[]) {
  return sections.map((s) => ({
    kind: s.kind,
    heading: s.heading,
    answer: [s.answer_id, s.result_state, s.result_state_text],
    verdict: s.fields.filter((f) => f.key === "verdict" || f.key === "result_state"),
    rows: (s.table?.groups ?? []).flatMap((g) => g.rows.map((r) => [r.row_id, r.result_state])),
    evidence: s.evidence.map((e) => [e.evidence_id, e.start_time, e.end_time]),
  }));
}

describe("withholding a deleted source, whatever the answers", () => {
  it("leaves none of its words and the structure as issued", () => {
    fc.assert(
      fc.property(answersArb, (drawn) => {
        const issued = twoSources(answersOf(drawn));
        for (const format of ["json", "markdown"] as const) {
          const shown = text(withheld(issued), format);
          expect(shown).not.toContain("yard secret");
          expect(shown).not.toContain("Yard at night");
          expect(shown).toContain("vid_yard");
        }
        const before = json(issued).report;
        const after = json(withheld(issued)).report;
        expect(structure(after.sections)).toEqual(structure(before.sections));
        expect(after.limitations).toEqual([
          ...(before.limitations as unknown[]),
          {
            code: "source_deleted",
            text: expect.stringMatching(/^vid_yard: This video was deleted/),
          },
        ]);
      }),
      { numRuns: 200 },
    );
  });
});
