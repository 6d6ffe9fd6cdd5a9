import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FairSlots } from "../../../src/ports/ai/fair-slots";

const SLOT_MS = 100;
const POLL_MS = 1000;
/** A tenant's share ahead at these settings: two polls' worth of slots, plus one. */
const SHARE = Math.ceil((2 * POLL_MS) / SLOT_MS) + 1;

describe("FairSlots: a large run does not starve a small one of another workspace", () => {
  it("gives the small tenant a slot right after the large one's share, then one in every three", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 60 }),
        // The small tenant stays within its own share: it asks once, then once a round.
        fc.integer({ min: 2, max: SHARE - 1 }),
        (asked, rounds) => {
          const slots = new FairSlots(SLOT_MS, POLL_MS);
          // A large run's lanes each ask for a slot; past its share it is told to come back.
          const held = Array.from({ length: asked }, () =>
            slots.reserve("ws_large", 0, 3_600_000),
          ).filter((wait) => wait !== null).length;
          expect(held).toBe(Math.min(asked, SHARE));
          const firstWait = slots.reserve("ws_small", 0, 3_600_000);
          expect(firstWait).toBe(held * SLOT_MS);
          const small: number[] = [];
          for (let round = 0; round < rounds; round++) {
            for (const tenant of ["ws_large", "ws_large", "ws_small"]) {
              const wait = slots.reserve(tenant, 0, 3_600_000);
              if (tenant === "ws_small") {
                if (wait === null) throw new Error("the small tenant was refused");
                small.push(wait);
              }
            }
          }
          // After the share it found, the small tenant waits behind at most the two calls the
          // large one asks for between its own, however many the large one has waiting.
          let previous = firstWait ?? 0;
          for (const at of small) {
            expect(at - previous).toBeLessThanOrEqual(3 * SLOT_MS);
            previous = at;
          }
        },
      ),
    );
  });
});
