import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ApiError } from "../../../src/errors/api-error";
import { decodeCursor, encodeCursor } from "../../../src/lib/cursor";

const SECRET = "cursor-test-secret";
const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.";

async function refusal(cursor: string): Promise<unknown> {
  try {
    await decodeCursor(SECRET, "videos:ws_1", cursor);
    return null;
  } catch (error) {
    return error;
  }
}

const keyArb = fc.array(fc.oneof(fc.string({ maxLength: 30 }), fc.integer()), {
  minLength: 1,
  maxLength: 3,
});

describe("cursor integrity", () => {
  it("round-trips any key on the list that issued it", async () => {
    await fc.assert(
      fc.asyncProperty(keyArb, async (key) => {
        const cursor = await encodeCursor(SECRET, "videos:ws_1", key);
        expect(await decodeCursor(SECRET, "videos:ws_1", cursor)).toEqual(key);
      }),
      { numRuns: 100 },
    );
  });

  it("refuses every single-character alteration, including the last character's spare bits", async () => {
    await fc.assert(
      fc.asyncProperty(
        keyArb,
        fc.nat(),
        fc.constantFrom(...ALPHABET),
        async (key, position, replacement) => {
          const cursor = await encodeCursor(SECRET, "videos:ws_1", key);
          const index = position % cursor.length;
          fc.pre(cursor[index] !== replacement);
          const altered = `${cursor.slice(0, index)}${replacement}${cursor.slice(index + 1)}`;
          expect(await refusal(altered)).toBeInstanceOf(ApiError);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("refuses a signature whose last character differs only in bits base64url leaves unused", async () => {
    const cursor = await encodeCursor(SECRET, "videos:ws_1", ["vid_1"]);
    const last = cursor.at(-1) ?? "";
    // A 16-byte MAC is 22 characters; the last one carries 2 bits, so its low 4 bits are spare.
    const sibling = ALPHABET[(ALPHABET.indexOf(last) & 0b110000) | 0b0001] ?? "";
    expect(sibling).not.toBe(last);
    expect(await refusal(`${cursor.slice(0, -1)}${sibling}`)).toBeInstanceOf(ApiError);
  });
});
