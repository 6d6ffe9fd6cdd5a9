import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  ANSWER_TYPES,
  type AnswerItem,
  RESULT_STATES,
  type ResultState,
} from "../../../src/domain/answers";
import type { TemplateBlock } from "../../../src/domain/report-templates";
import type { StoredAnswer } from "../../../src/services/reports/types";
import { answer, ev, input, type JsonSection, json, text } from "./fixtures";

// Words that may legitimately contain "pass"/"合格": the uncertain and partial wordings and the
// Japanese fail.
const ALLOWED = [
  "Uncertain — not a pass",
  "not a pass over all sources",
  "不確定（合格ではありません）",
  "すべてのソースについての合格ではありません",
  "不合格",
];

function readsAsPass(shown: string): boolean {
  const rest = ALLOWED.reduce((s, allowed) => s.split(allowed).join(""), shown);
  return /pass/i.test(rest) || rest.includes("合格");
}

const KEYS = ["k0", "k1", "k2", "k3"];
const FIELDS = ["label", "value", "result_state", "time", "team", "ok", "evidence", "rank"];
const WORDS = ["dock", "gate", "crane", "worker", "荷物", "zone"];
const EVIDENCE = [ev("p1", 1, 2), ev("p2", 62, 64), ev("p3", 3700, 3701)];

const value = fc.option(
  fc.oneof(
    fc.boolean(),
    fc.integer({ min: -5, max: 5 }),
    fc.constantFrom("pass", "Pass", "PASSED", "合格", "ok", ...WORDS),
  ),
  { nil: undefined },
);

function itemArb(states: readonly ResultState[]) {
  return fc
    .record({
      label: fc.constantFrom(...WORDS),
      state: fc.constantFrom(...states),
      value,
      team: fc.constantFrom("a", "b"),
      ok: value,
      evidence: fc.subarray(EVIDENCE),
    })
    .map(
      (r): Omit<AnswerItem, "item_id"> => ({
        label: r.label,
        result_state: r.state,
        ...(r.value === undefined ? {} : { value: r.value }),
        attributes: [
          { key: "team", label: "Team", value: r.team },
          { key: "ok", label: "OK", ...(r.ok === undefined ? {} : { value: r.ok }) },
        ],
        evidence: r.evidence,
      }),
    );
}

function answersArb(states: readonly ResultState[]) {
  return fc
    .uniqueArray(
      fc.record({
        key: fc.constantFrom(...KEYS),
        type: fc.constantFrom(...ANSWER_TYPES),
        state: fc.constantFrom(...states),
        value,
        items: fc.array(itemArb(states), { maxLength: 3 }),
        representative: fc.subarray(EVIDENCE),
        coverage: fc.constantFrom("complete", "complete", "partial", "none"),
        // Its first item stands for the run's video (a verdict's per-video item).
        perVideo: fc.boolean(),
      }),
      { selector: (a) => a.key, maxLength: 4 },
    )
    .map((drafts): StoredAnswer[] =>
      drafts.map((d) =>
        answer(d.key, d.type, d.state, {
          ...(d.value === undefined ? {} : { value: d.value }),
          summary: `the ${d.key} check`,
          representative: d.representative,
          items: d.items.map((i, n) => ({
            ...i,
            item_id: n === 0 && d.perVideo ? "vid_dock" : `${d.key}_i${n}`,
          })),
          coverage: { state: d.coverage, scope: "1 of 2 videos" },
        }),
      ),
    );
}

const blockArb: fc.Arbitrary<TemplateBlock> = fc.record(
  {
    type: fc.constantFrom(
      "verdict",
      "measurement",
      "timeline",
      "table",
      "narrative",
      "enumeration",
      "comparison",
      "retrieval",
      "heading",
      "gauge",
    ),
    answer_key: fc.constantFrom(...KEYS, "missing"),
    group_by: fc.constantFrom(...FIELDS),
    sort_by: fc.constantFrom(...FIELDS),
    sort_direction: fc.constantFrom("asc" as const, "desc" as const),
    mapping: fc.dictionary(
      fc.constantFrom("true", "false", "found", "not_found", "uncertain", "not_checked", "ok", "1"),
      fc.constantFrom("Pass", "合格", "PASSED", "pass ", "Yes"),
    ),
    columns: fc
      .subarray(FIELDS, { minLength: 1 })
      .map((keys) => keys.map((key) => ({ key, label: key }))),
  },
  { requiredKeys: ["type"] },
);

const languageArb = fc.constantFrom("en", "ja", "fr");

function shownBy(section: JsonSection): string[] {
  return [...section.fields.map((f) => f.text), section.result_state_text ?? ""];
}

describe("an uncertain check, or one over part of the sources, is never reported as a pass", () => {
  it("in any block type of a JSON report: sections, verdicts and table rows", () => {
    fc.assert(
      fc.property(
        answersArb(RESULT_STATES),
        fc.array(blockArb, { maxLength: 6 }),
        languageArb,
        (answers, blocks, language) => {
          const { report } = json(input(blocks, answers, language));
          // Answers that left a source unchecked (coverage short of complete, and the run's
          // video's item not checked): overview rows are keyed by answer id.
          const onPart = new Set(
            answers
              .filter(
                (a) =>
                  a.coverage.state !== "complete" &&
                  a.answer_payload.items.some(
                    (i) => i.item_id === "vid_dock" && i.result_state === "not_checked",
                  ),
              )
              .map((a) => a.id),
          );
          for (const section of report.sections) {
            const partial = onPart.has(section.answer_id ?? "");
            const notPassed =
              section.result_state !== null &&
              (section.result_state !== "found" ||
                partial ||
                (section.kind === "verdict" && section.value !== true));
            if (notPassed) {
              for (const shown of shownBy(section)) expect(readsAsPass(shown), shown).toBe(false);
            }
            if (section.result_state !== null && section.result_state !== "found") {
              // Only a decided no (`not_found` + `false`) keeps its raw yes/no value.
              expect(section.value).not.toBe(true);
              if (section.result_state !== "not_found") expect(section.value).not.toBe(false);
            }
            // A verdict's `true` over part of the sources is not carried as a raw yes.
            if (partial && section.kind === "verdict") expect(section.value).not.toBe(true);
            for (const group of section.table?.groups ?? []) {
              if (group.rows.some((r) => r.result_state !== "found")) {
                expect(readsAsPass(group.label ?? ""), group.label ?? "").toBe(false);
              }
              for (const row of group.rows) {
                if (row.result_state === "found" && !onPart.has(row.row_id)) continue;
                for (const cell of row.cells)
                  expect(readsAsPass(cell ?? ""), cell ?? "").toBe(false);
              }
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("anywhere in a Markdown report when nothing was found", () => {
    const notFound = RESULT_STATES.filter((s) => s !== "found");
    fc.assert(
      fc.property(
        answersArb(notFound),
        fc.array(blockArb, { maxLength: 6 }),
        languageArb,
        (answers, blocks, language) => {
          const md = text(input(blocks, answers, language), "markdown");
          expect(readsAsPass(md), md).toBe(false);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("even when a mapping or the engine says so, in every block type", () => {
    const mapping = { true: "Pass", uncertain: "Pass", not_found: "合格", pass: "Pass" };
    const items = [
      {
        item_id: "i1",
        label: "gate",
        result_state: "uncertain" as const,
        value: true,
        evidence: [],
        attributes: [{ key: "ok", label: "OK", value: "pass" }],
      },
    ];
    const answers = [answer("k0", "verdict", "uncertain", { value: true, items })];
    const types = [
      "verdict",
      "measurement",
      "timeline",
      "table",
      "narrative",
      "enumeration",
      "comparison",
      "retrieval",
      "gauge",
    ];
    for (const language of ["en", "ja"]) {
      for (const type of types) {
        for (const answerKey of ["k0", undefined]) {
          const block: TemplateBlock = {
            type,
            mapping,
            columns: [
              { key: "label", label: "L" },
              { key: "value", label: "V" },
              { key: "ok", label: "O" },
              { key: "result_state", label: "R" },
            ],
            ...(answerKey === undefined ? {} : { answer_key: answerKey }),
          };
          const md = text(input([block], answers, language), "markdown");
          expect(readsAsPass(md), md).toBe(false);
        }
      }
    }
  });
});
