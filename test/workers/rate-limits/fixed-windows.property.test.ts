import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FixedWindows, type WindowDecision } from "../../../src/lib/rate-limit-windows";

const WINDOW_MS = 60_000;

interface Seen extends WindowDecision {
  at: number;
}

/** Requests at non-decreasing times: gaps from none to more than a window. */
const traffic = fc.record({
  limit: fc.integer({ min: 1, max: 8 }),
  gaps: fc.array(
    fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 3_000 }), fc.integer({ max: 90_000 })),
    { maxLength: 120 },
  ),
});

function run(limit: number, gaps: number[]): Seen[] {
  const windows = new FixedWindows();
  let at = 1_800_000_000_000;
  return gaps.map((gap) => {
    at += Math.max(0, gap);
    return { at, ...windows.take("reads", limit, WINDOW_MS, at) };
  });
}

const FULL = WINDOW_MS / 1000;

describe("fixed windows over any traffic", () => {
  it("counts down within a window, refuses a full one, and starts afresh when it ends", () => {
    fc.assert(
      fc.property(traffic, ({ limit, gaps }) => {
        const seen = run(limit, gaps);
        if (seen[0]) expect(seen[0]).toMatchObject({ allowed: true, remaining: limit - 1 });
        seen.forEach((now, i) => {
          expect(now.resetSeconds).toBeGreaterThanOrEqual(1);
          expect(now.resetSeconds).toBeLessThanOrEqual(FULL);
          expect(now.remaining).toBeGreaterThanOrEqual(0);
          expect(now.remaining).toBeLessThan(limit);
          const before = seen[i - 1];
          if (!before) return;
          // The window `before` saw ends after `before.at + (t - 1) s` and by `before.at + t s`.
          if (now.at <= before.at + (before.resetSeconds - 1) * 1000) {
            expect(now.resetSeconds).toBeLessThanOrEqual(before.resetSeconds);
            if (before.allowed && before.remaining > 0) {
              expect(now).toMatchObject({ allowed: true, remaining: before.remaining - 1 });
            } else {
              expect(now).toMatchObject({ allowed: false, remaining: 0 });
            }
          } else if (now.at >= before.at + before.resetSeconds * 1000) {
            expect(now).toMatchObject({ allowed: true, remaining: limit - 1, resetSeconds: FULL });
          }
          if (!now.allowed) {
            // Refused only when the last 60 s already let the whole quota through.
            const recent = seen
              .slice(0, i)
              .filter((other) => other.allowed && other.at > now.at - WINDOW_MS);
            expect(recent.length).toBeGreaterThanOrEqual(limit);
          }
        });
      }),
      { numRuns: 300 },
    );
  });

  it("starts a full window for the first request a window after the last one began", () => {
    fc.assert(
      fc.property(traffic, fc.integer({ min: WINDOW_MS, max: 10 * WINDOW_MS }), (t, pause) => {
        const last = run(t.limit, [...t.gaps, pause]).at(-1);
        expect(last).toEqual({
          at: expect.any(Number),
          allowed: true,
          remaining: t.limit - 1,
          resetSeconds: FULL,
        });
      }),
      { numRuns: 200 },
    );
  });
});
