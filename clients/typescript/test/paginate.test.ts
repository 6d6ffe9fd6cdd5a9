import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { collect, type Page, paginate } from "../src/index.js";

/** A list served in pages of `size` with opaque cursors, as the service pages. */
function pager(items: number[], size: number) {
  const calls: (string | undefined)[] = [];
  const fetchPage = async (cursor: string | undefined): Promise<Page<number>> => {
    calls.push(cursor);
    const start = cursor ? Number(atob(cursor)) : 0;
    const data = items.slice(start, start + size);
    const more = start + size < items.length;
    return { data, has_more: more, next_cursor: more ? btoa(String(start + size)) : null };
  };
  return { fetchPage, calls };
}

describe("paginate", () => {
  it("property: visits every item once, in order, asking each page once", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.integer(), { maxLength: 120 }),
        fc.integer({ min: 1, max: 25 }),
        async (items, size) => {
          const { fetchPage, calls } = pager(items, size);
          expect(await collect(paginate(fetchPage))).toEqual(items);
          expect(calls).toHaveLength(Math.max(1, Math.ceil(items.length / size)));
          expect(new Set(calls).size).toBe(calls.length);
        },
      ),
    );
  });

  it("stops asking once the consumer breaks out", async () => {
    const { fetchPage, calls } = pager([1, 2, 3, 4, 5, 6], 2);
    for await (const item of paginate(fetchPage)) if (item === 3) break;
    expect(calls).toHaveLength(2);
  });

  it("refuses a cursor that comes back instead of looping", async () => {
    const looping = async (): Promise<Page<number>> => ({
      data: [1],
      has_more: true,
      next_cursor: "same",
    });
    await expect(collect(paginate(looping))).rejects.toThrow("repeated");
  });
});
