import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FairSlots } from "../../../src/ports/ai/fair-slots";

const SLOT = 200;

describe("FairSlots", () => {
  it("never gives two calls one slot, nor a slot in the past", () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ tenant: fc.constantFrom("a", "b", "c"), gap: fc.nat(300) }), {
          maxLength: 200,
        }),
        (requests) => {
          const slots = new FairSlots(SLOT);
          const taken = new Set<number>();
          let now = 1_000_000;
          for (const r of requests) {
            now += r.gap;
            const wait = slots.reserve(r.tenant, now, 60_000);
            if (wait === null) continue;
            expect(wait).toBeGreaterThanOrEqual(0);
            const slot = Math.floor((now + wait) / SLOT);
            expect(taken.has(slot)).toBe(false);
            taken.add(slot);
          }
        },
      ),
    );
  });

  it("lets a tenant with one call through within a few slots, however many another queued", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 6 }),
        fc.integer({ min: 10, max: 400 }),
        fc.nat(5_000),
        (busy, flood, later) => {
          const slots = new FairSlots(SLOT);
          const start = 1_000_000;
          for (let i = 0; i < flood; i++) slots.reserve(`big-${i % busy}`, start, 10 * 60_000);
          const wait = slots.reserve("small", start + later, 10 * 60_000);
          expect(wait).not.toBeNull();
          // Each busy tenant holds at most its share ahead (two polls' worth, here 11 slots);
          // the small call lands after them, not after the whole flood.
          expect(wait ?? Number.POSITIVE_INFINITY).toBeLessThanOrEqual(11 * busy * SLOT);
        },
      ),
    );
  });

  it("holds a tenant to two polls' worth of slots ahead, and gives it more as they pass", () => {
    // 200 ms slots, callers polling every 1,000 ms: 11 slots ahead at most.
    const slots = new FairSlots(SLOT, 1000);
    const waits = Array.from({ length: 13 }, () => slots.reserve("a", 0, 60_000));
    expect(waits.slice(0, 11)).toEqual(Array.from({ length: 11 }, (_, i) => i * SLOT));
    expect(waits.slice(11)).toEqual([null, null]);
    expect(slots.reserve("a", SLOT, 60_000)).toBe(10 * SLOT);
  });

  it("refuses a reservation it cannot keep within the wait allowed, and reserves nothing then", () => {
    const slots = new FairSlots(SLOT);
    for (let i = 0; i < 10; i++) slots.reserve(`t${i}`, 0, 60_000);
    expect(slots.reserve("a", 0, 100)).toBeNull();
    expect(slots.reserve("a", 0, 60_000)).toBe(10 * SLOT);
  });
});
