import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ScanKernel } from "../../../src/ports/vector-index/local-index/scan";

const code = fc.integer({ min: -127, max: 127 });

describe("ScanKernel (scan.wasm)", () => {
  it("sums weighted int8 columns like a float64 loop does, to f32 rounding", () => {
    const kernel = new ScanKernel();
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 70 }).chain((size) =>
          fc
            .array(
              fc.record({
                column: fc.array(code, { minLength: size, maxLength: size }),
                weight: fc.double({ min: -1, max: 1, noNaN: true }),
              }),
              { maxLength: 11 },
            )
            .map((columns) => ({ size, columns })),
        ),
        ({ size, columns }) => {
          const got = kernel.accumulate(
            columns.map((c) => Int8Array.from(c.column)),
            columns.map((c) => c.weight),
            size,
          );
          expect(got).toHaveLength(size);
          for (let r = 0; r < size; r++) {
            let exact = 0;
            let magnitude = 0;
            for (const { column, weight } of columns) {
              exact += weight * (column[r] ?? 0);
              magnitude += Math.abs(weight * (column[r] ?? 0));
            }
            // f32 products and sums: relative to the terms' magnitudes, a few ulps each.
            expect(Math.abs((got[r] ?? Number.NaN) - exact)).toBeLessThanOrEqual(
              1e-6 * (magnitude + 1) * (columns.length + 1),
            );
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("reads only the first `size` codes of each column and treats missing ones as zero", () => {
    const kernel = new ScanKernel();
    const long = Int8Array.from([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const short = Int8Array.from([10, 20]);
    expect([...kernel.accumulate([long, short], [1, 0.5], 5)]).toEqual([6, 12, 3, 4, 5]);
    // A bigger block after a smaller one: the memory grows and earlier rows do not leak in.
    const big = new Int8Array(100_000).fill(-2);
    const sums = kernel.accumulate([big, big, big, big, big], [1, 1, 1, 1, 1], 100_000);
    expect(sums).toHaveLength(100_000);
    expect(sums.every((value) => value === -10)).toBe(true);
    expect(kernel.bytes).toBeGreaterThanOrEqual(5 * 100_000);
  });
});
