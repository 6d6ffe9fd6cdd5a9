import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ResultState } from "../../../src/domain/answers";
import { summarizeCounts } from "../../../src/services/runs/run-summary";

const WORDS: [ResultState, string][] = [
  ["found", "found"],
  ["not_found", "not found"],
  ["uncertain", "uncertain"],
  ["not_checked", "not checked"],
];

describe("a workflow run's summary", () => {
  it("names each state that has findings, in order, and leaves out those with none", () => {
    fc.assert(
      fc.property(
        fc.array(fc.nat({ max: 30 }), { minLength: 4, maxLength: 4 }),
        fc.integer({ min: 1, max: 50 }),
        (numbers, videos) => {
          const counts = new Map(WORDS.map(([state], i) => [state, numbers[i] ?? 0]));
          const summary = summarizeCounts(counts, videos);
          const listed = WORDS.map(([, words], i) => [numbers[i] ?? 0, words] as const)
            .filter(([n]) => n > 0)
            .map(([n, words]) => `${n} ${words}`);
          const tail = `over ${videos} video${videos === 1 ? "" : "s"}`;
          expect(summary).toBe(
            listed.length === 0 ? `nothing judged ${tail}` : `${listed.join(", ")} ${tail}`,
          );
          expect(summary).not.toMatch(/\b0 /);
        },
      ),
    );
  });

  it("reads as a sentence for a run with only uncertain findings", () => {
    const counts = new Map<ResultState, number>([["uncertain", 2]]);
    expect(summarizeCounts(counts, 1)).toBe("2 uncertain over 1 video");
  });
});
