import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatCaptions } from "../../../src/services/captions/format";
import { type CaptionCue, parseCaptionFile } from "../../../src/services/captions/parse";

// Cue text as the index holds it: plain text with no blank lines, any characters else,
// markup-like ones included (they must come back as text, not be read as tags).
const line = fc
  .string({
    unit: fc.constantFrom("a", "Z", "é", " ", "<", ">", "&", "-", ">", ":", "1", "字", "b>"),
    minLength: 1,
    maxLength: 30,
  })
  .map((s) => s.trim())
  .filter((s) => s !== "" && !s.includes("-->"));
const cue: fc.Arbitrary<CaptionCue> = fc
  .record({
    startMs: fc.integer({ min: 0, max: 400 * 3600 * 1000 }),
    lengthMs: fc.integer({ min: 0, max: 60_000 }),
    lines: fc.array(line, { minLength: 1, maxLength: 3 }),
  })
  .map(({ startMs, lengthMs, lines }) => ({
    start: startMs / 1000,
    end: (startMs + lengthMs) / 1000,
    text: lines.join("\n"),
  }));

function reread(format: "webvtt" | "srt", cues: readonly CaptionCue[]): CaptionCue[] {
  return parseCaptionFile(format, new TextEncoder().encode(formatCaptions(format, cues)));
}

describe("caption files written and read again", () => {
  it("gives back the same cues from WebVTT", () => {
    fc.assert(
      fc.property(fc.array(cue, { minLength: 1, maxLength: 20 }), (cues) => {
        expect(reread("webvtt", cues)).toEqual(cues);
      }),
    );
  });

  it("gives back the same cues from SRT when the text holds no markup", () => {
    const plain = cue.filter((c) => !/[<>{}]/.test(c.text));
    fc.assert(
      fc.property(fc.array(plain, { minLength: 1, maxLength: 20 }), (cues) => {
        expect(reread("srt", cues)).toEqual(cues);
      }),
    );
  });
});
