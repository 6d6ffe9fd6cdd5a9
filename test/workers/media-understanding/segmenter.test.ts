import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  planSegments,
  type SegmenterInput,
  type TimeRange,
} from "../../../src/media-understanding/segmenter";

// Floating point sums may exceed the cap by an ulp; nothing more is tolerated.
const EPS = 1e-9;

const time = fc.double({ min: -5, max: 3700, noNaN: true, noDefaultInfinity: true });
const span = fc
  .tuple(time, fc.double({ min: 0, max: 40, noNaN: true, noDefaultInfinity: true }))
  .map(([start, length]): TimeRange => ({ start, end: start + length }));
const segmenterInput: fc.Arbitrary<SegmenterInput> = fc.record({
  duration: fc.oneof(
    fc.double({ min: 0, max: 3600, noNaN: true, noDefaultInfinity: true }),
    fc.constantFrom(0, 0.04, 9.99, 10, 10.01, 20.000001),
  ),
  keyframes: fc.array(time, { maxLength: 400 }),
  spans: fc.array(span, { maxLength: 300 }),
});

function shuffled<T>(values: readonly T[], seed: number): T[] {
  const out = [...values];
  let s = seed;
  for (let i = out.length - 1; i > 0; i--) {
    s = (s * 1103515245 + 12345) % 2147483648;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

describe("planSegments properties", () => {
  it("covers [0, duration) with no gaps or overlaps and ends exactly at the duration", () => {
    fc.assert(
      fc.property(segmenterInput, (input) => {
        const segments = planSegments(input);
        expect(segments.length).toBeGreaterThan(0);
        expect(segments[0]?.start).toBe(0);
        expect(segments.at(-1)?.end).toBe(input.duration);
        segments.forEach((s, i) => {
          const next = segments[i + 1];
          if (next) expect(next.start).toBe(s.end);
          if (input.duration > 0) expect(s.end).toBeGreaterThan(s.start);
        });
      }),
      { numRuns: 300 },
    );
  });

  it("never makes a segment longer than 10 s", () => {
    fc.assert(
      fc.property(segmenterInput, (input) => {
        for (const s of planSegments(input)) expect(s.end - s.start).toBeLessThanOrEqual(10 + EPS);
      }),
      { numRuns: 300 },
    );
  });

  it("is deterministic and ignores the order of keyframes and spans", () => {
    fc.assert(
      fc.property(segmenterInput, fc.nat(), (input, seed) => {
        const again = planSegments({
          duration: input.duration,
          keyframes: shuffled(input.keyframes, seed),
          spans: shuffled(input.spans, seed + 1),
        });
        expect(again).toEqual(planSegments(input));
      }),
      { numRuns: 200 },
    );
  });
});

describe("planSegments rules", () => {
  it("gives one segment for a zero, unknown or short duration", () => {
    const cases: [number, number][] = [
      [0, 0],
      [Number.NaN, 0],
      [-3, 0],
      [0.5, 0.5],
      [10, 10],
    ];
    for (const [duration, end] of cases) {
      expect(planSegments({ duration, keyframes: [1, 2], spans: [] })).toEqual([{ start: 0, end }]);
    }
  });

  it("snaps a boundary to a keyframe within 1.5 s of the 8 s target", () => {
    const segments = planSegments({ duration: 30, keyframes: [7.2, 15.1, 22.9], spans: [] });
    expect(segments).toEqual([
      { start: 0, end: 7.2 },
      { start: 7.2, end: 15.1 },
      { start: 15.1, end: 22.9 },
      { start: 22.9, end: 30 },
    ]);
  });

  it("ignores keyframes farther than 1.5 s from the target", () => {
    const segments = planSegments({ duration: 18, keyframes: [5], spans: [] });
    expect(segments.map((s) => s.end)).toEqual([8, 18]);
  });

  it("ends a segment between cues instead of inside one", () => {
    const spans = [{ start: 6, end: 11 }];
    const segments = planSegments({ duration: 30, keyframes: [], spans });
    expect(segments[0]).toEqual({ start: 0, end: 6 });
    for (const s of segments) expect(s.end <= 6 || s.end >= 11).toBe(true);
  });

  it("snaps only to a keyframe that does not split a cue", () => {
    const spans = [{ start: 6, end: 11 }];
    expect(planSegments({ duration: 30, keyframes: [5, 7], spans })[0]?.end).toBe(5);
  });

  it("splits a cue longer than the cap rather than break the 10 s limit", () => {
    const segments = planSegments({ duration: 25, keyframes: [], spans: [{ start: 0, end: 25 }] });
    expect(segments.length).toBeGreaterThan(2);
    for (const s of segments) expect(s.end - s.start).toBeLessThanOrEqual(10);
  });
});
