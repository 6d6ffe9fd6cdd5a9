import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FairSlots } from "../../../src/ports/ai/fair-slots";

const SLOT_MS = 100;

describe("FairSlots: a large run does not starve a small one of another workspace", () => {
  it("gives the small tenant a slot right after the large one's reservations, then every other slot", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 60 }),
        fc.integer({ min: 2, max: 30 }),
        (held, rounds) => {
          const slots = new FairSlots(SLOT_MS);
          // A large run's lanes each hold a reservation; its calls keep coming.
          for (let i = 0; i < held; i++)
            expect(slots.reserve("ws_large", 0, 3_600_000)).not.toBeNull();
          const firstWait = slots.reserve("ws_small", 0, 3_600_000);
          expect(firstWait).toBe(held * SLOT_MS);
          const taken: { tenant: string; at: number }[] = [];
          for (let round = 0; round < rounds; round++) {
            for (const tenant of ["ws_large", "ws_large", "ws_small"]) {
              const wait = slots.reserve(tenant, 0, 3_600_000);
              if (wait === null) throw new Error("no slot within the hour");
              taken.push({ tenant, at: wait });
            }
          }
          // After the reservations it found, the small tenant waits at most two slots per call,
          // however many calls the large one asks for meanwhile.
          const small = taken.filter((t) => t.tenant === "ws_small").map((t) => t.at);
          let previous = firstWait ?? 0;
          for (const at of small) {
            expect(at - previous).toBeLessThanOrEqual(2 * SLOT_MS);
            previous = at;
          }
        },
      ),
    );
  });
});
