import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { D1_LIMITS } from "../../../src/db/limits";
import { cutText, SEGMENT_BOUNDS } from "../../../src/media-understanding/bounds";
import { LocalMediaUnderstanding } from "../../../src/ports/media-understanding/local";
import { understandWhole } from "../../../src/ports/media-understanding/port";
import { probe, track, understandInput } from "./probes";

const bytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).length;

describe("what a file can put in one stored segment", () => {
  it("keeps a segment under D1's row limit when a file packs megabytes into it", async () => {
    // 300 cues of 20,000 three-byte characters over the first ten seconds (18 MB), and
    // container tags of the same weight: a hostile or broken file, each value readable.
    const heavy = "語".repeat(20_000);
    const cues = Array.from({ length: 300 }, (_, i): [number, number, string] => [
      i / 100,
      5,
      `${i} ${heavy}`,
    ]);
    const other = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`tag${i}`, heavy]));
    const u = await understandWhole(
      new LocalMediaUnderstanding(),
      understandInput(
        probe({
          textTracks: [track(0, cues, "jpn")],
          tags: { title: heavy, description: heavy, keywords: [], other },
        }),
      ),
    );
    for (const segment of u.segments) {
      expect(bytes(segment)).toBeLessThan(D1_LIMITS.valueBytes / 2);
      expect(segment.evidence.length).toBeLessThanOrEqual(SEGMENT_BOUNDS.evidenceSpans);
    }
    const first = u.segments[0];
    expect(first?.transcript.length).toBe(SEGMENT_BOUNDS.transcriptChars);
    expect(first?.transcript.endsWith("…")).toBe(true);
    expect(u.title?.length).toBe(SEGMENT_BOUNDS.titleChars);
  });

  it("cuts text to at most the bound, keeping every surrogate pair whole", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 60 }), fc.nat(40), (text, max) => {
        const cut = cutText(text, max + 2);
        expect(cut.length).toBeLessThanOrEqual(max + 2);
        if (cut === text) return;
        expect(cut.endsWith("…")).toBe(true);
        const kept = cut.slice(0, -1);
        expect(text.startsWith(kept)).toBe(true);
        expect(/[\uD800-\uDBFF]$/.test(kept)).toBe(false);
      }),
    );
  });
});
