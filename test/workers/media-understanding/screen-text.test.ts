import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  confidentLines,
  MIN_READ_CONFIDENCE,
  screenLines,
} from "../../../src/media-understanding/screen-text";

describe("the rule on-screen text of both engines passes", () => {
  it("keeps text, folds its whitespace, and drops stray marks and repeats", () => {
    expect(screenLines(["  COLD   STORAGE ", "•", "5", "→ 3", "COLD STORAGE", "Gate B"])).toEqual([
      "COLD STORAGE",
      "Gate B",
    ]);
    expect(screenLines(["x".repeat(201), "x".repeat(200)])).toEqual(["x".repeat(200)]);
  });

  it("keeps only what the reader read at the stated confidence or more", () => {
    expect(
      confidentLines([
        { text: "Authorised staff only", confidence: MIN_READ_CONFIDENCE },
        { text: "Il1l", confidence: MIN_READ_CONFIDENCE - 0.01 },
      ]),
    ).toEqual(["Authorised staff only"]);
  });

  it("answers lines that pass it again unchanged, each once", () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 220 })), (lines) => {
        const kept = screenLines(lines);
        expect(screenLines(kept)).toEqual(kept);
        expect(new Set(kept).size).toBe(kept.length);
        for (const line of kept) {
          expect(line.length).toBeLessThanOrEqual(200);
          expect(line.match(/[\p{L}\p{N}]/gu)?.length ?? 0).toBeGreaterThanOrEqual(2);
        }
      }),
    );
  });
});
