import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FairSlots } from "../../../src/ports/ai/fair-slots";
import { DEFAULT_CALL_POLICY } from "../../../src/ports/ai/model-calls";
import {
  PUBLISHED_RATES_PER_MINUTE,
  pacedRatePerMinute,
  RATE_HEADROOM,
} from "../../../src/ports/ai/rate-limits";

const MINUTE = 60_000;
const PUBLISHED = PUBLISHED_RATES_PER_MINUTE["text-generation"];
/**
 * How late a call may start after its slot (the limiter's answer travelling back, a late timer)
 * while the account still keeps the published rate: the headroom has to cover it.
 */
const LATE_MS = 3_000;

/** Most calls that started within any 60 s window (start times sorted). */
function busiestMinute(starts: number[]): number {
  let most = 0;
  for (let first = 0, last = 0; last < starts.length; last++) {
    while ((starts[last] ?? 0) - (starts[first] ?? 0) >= MINUTE) first++;
    most = Math.max(most, last - first + 1);
  }
  return most;
}

/**
 * Lanes of several tenants calling as the service does: each asks the limiter for a slot,
 * waits a poll when refused, else starts its call once the slot comes (plus a late start of
 * up to `LATE_MS`), and asks again when the call ends.
 */
function simulate(lanes: { tenant: string; latencyMs: number; late: number[] }[], ms: number) {
  const slots = new FairSlots(MINUTE / pacedRatePerMinute("text-generation"));
  const next = lanes.map((_, i) => i * 7);
  const starts: number[] = [];
  const calls = lanes.map(() => 0);
  for (;;) {
    let lane = 0;
    for (let i = 1; i < lanes.length; i++) if ((next[i] ?? 0) < (next[lane] ?? 0)) lane = i;
    const now = next[lane] ?? ms;
    const caller = lanes[lane];
    if (now >= ms || !caller) return starts.sort((a, b) => a - b);
    const wait = slots.reserve(caller.tenant, now, DEFAULT_CALL_POLICY.deadlineMs);
    if (wait === null) {
      next[lane] = now + DEFAULT_CALL_POLICY.slotPollMs;
      continue;
    }
    const count = calls[lane] ?? 0;
    calls[lane] = count + 1;
    const start = now + wait + (caller.late[count % caller.late.length] ?? 0);
    starts.push(start);
    next[lane] = start + caller.latencyMs;
  }
}

describe("FairSlots at the paced rate: the account keeps the published rate", () => {
  it("never starts more than the published calls in any 60 s window, even with late starts", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            tenant: fc.constantFrom("ws_a", "ws_b", "ws_c"),
            latencyMs: fc.integer({ min: 50, max: 4_000 }),
            late: fc.array(fc.integer({ min: 0, max: LATE_MS }), { minLength: 1, maxLength: 8 }),
          }),
          { minLength: 1, maxLength: 40 },
        ),
        (lanes) => {
          const starts = simulate(lanes, 3 * MINUTE);
          expect(busiestMinute(starts)).toBeLessThanOrEqual(PUBLISHED);
        },
      ),
      { numRuns: 40 },
    );
  });

  it("uses the paced rate when enough lanes wait, so the headroom is all that is given up", () => {
    const lanes = Array.from({ length: 16 }, () => ({
      tenant: "ws_a",
      latencyMs: 2_000,
      late: [0],
    }));
    const starts = simulate(lanes, 3 * MINUTE);
    expect(busiestMinute(starts)).toBeGreaterThanOrEqual(Math.floor(PUBLISHED * RATE_HEADROOM));
    expect(busiestMinute(starts)).toBeLessThanOrEqual(PUBLISHED);
  });
});
