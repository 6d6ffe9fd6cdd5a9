import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import { presignGetUrl, presignUrl, verifyPresigned } from "../../../src/ports/storage/sigv4";

const ORIGIN = "https://storage.example";
const A = { accessKeyId: "key-a", secretAccessKey: "secret-a" };
const B = { accessKeyId: "key-a", secretAccessKey: "secret-b" };
const NOW = new Date("2026-11-25T10:00:00Z");
const LATER = new Date("2026-11-25T11:00:00Z");

afterEach(() => {
  vi.restoreAllMocks();
});

describe("SigV4 presigning", () => {
  it("derives a day's signing key once, not once per URL", async () => {
    const sign = vi.spyOn(crypto.subtle, "sign");
    const urls = [];
    for (let i = 0; i < 20; i++) {
      urls.push(
        new URL(await presignUrl(A, "GET", new URL(`/videos/v${i}/source`, ORIGIN), LATER, NOW)),
      );
    }
    // A signature is one HMAC with the day's key; deriving that key takes four more.
    expect(sign.mock.calls.length).toBeLessThanOrEqual(20 + 4);
    for (const url of urls) expect(await verifyPresigned(A, "GET", url, NOW.getTime())).toBeNull();
  });

  it("keeps each secret's key apart: a URL verifies only under the secret that signed it", async () => {
    const target = new URL("/videos/v1/source", ORIGIN);
    const byA = new URL(await presignUrl(A, "GET", target, LATER, NOW));
    const byB = new URL(await presignUrl(B, "GET", target, LATER, NOW));
    expect(byA.searchParams.get("X-Amz-Signature")).not.toBe(
      byB.searchParams.get("X-Amz-Signature"),
    );
    expect(await verifyPresigned(A, "GET", byA, NOW.getTime())).toBeNull();
    expect(await verifyPresigned(B, "GET", byB, NOW.getTime())).toBeNull();
    expect(await verifyPresigned(A, "GET", byB, NOW.getTime())).toMatchObject({
      code: "SignatureDoesNotMatch",
    });
    expect(await verifyPresigned(B, "GET", byA, NOW.getTime())).toMatchObject({
      code: "SignatureDoesNotMatch",
    });
  });
});

describe("signed GET URLs, minted per minute", () => {
  const source = new URL("/videos/v1/source", ORIGIN);
  const minute = (at: Date, offset: number) => new Date(at.getTime() + offset);

  it("gives one object the same URL all minute, and signs it once", async () => {
    const first = await presignGetUrl(A, source, minute(LATER, 5_000), minute(NOW, 5_000));
    const sign = vi.spyOn(crypto.subtle, "sign");
    const again = await presignGetUrl(A, source, minute(LATER, 50_000), minute(NOW, 50_000));
    expect(again).toBe(first);
    expect(sign).not.toHaveBeenCalled();
    const params = new URL(first).searchParams;
    expect(params.get("X-Amz-Date")).toBe("20261125T100000Z");
    expect(params.get("X-Amz-Expires")).toBe("3660");
  });

  it("signs anew in the next minute, for another object and under another secret", async () => {
    const first = await presignGetUrl(A, source, minute(LATER, 5_000), minute(NOW, 5_000));
    const urls = [
      await presignGetUrl(A, source, minute(LATER, 65_000), minute(NOW, 65_000)),
      await presignGetUrl(A, new URL("/videos/v2/source", ORIGIN), LATER, NOW),
      await presignGetUrl(B, source, minute(LATER, 5_000), minute(NOW, 5_000)),
    ];
    expect(new Set([first, ...urls]).size).toBe(4);
    expect(await verifyPresigned(B, "GET", new URL(urls[2] ?? ""), NOW.getTime())).toBeNull();
    expect(await verifyPresigned(A, "GET", new URL(urls[2] ?? ""), NOW.getTime())).toMatchObject({
      code: "SignatureDoesNotMatch",
    });
  });

  it("is valid from when it is asked for until its expiry, and at most a minute longer", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 10 * 24 * 3600_000 }),
        fc.integer({ min: 1_000, max: 6 * 24 * 3600_000 }),
        async (offset, lifetime) => {
          const asked = minute(NOW, offset);
          const expiresAt = minute(asked, lifetime);
          const url = new URL(await presignGetUrl(A, source, expiresAt, asked));
          expect(await verifyPresigned(A, "GET", url, asked.getTime())).toBeNull();
          expect(await verifyPresigned(A, "GET", url, expiresAt.getTime())).toBeNull();
          expect(await verifyPresigned(A, "GET", url, expiresAt.getTime() + 60_001)).toMatchObject({
            code: "AccessDenied",
          });
        },
      ),
      { numRuns: 50 },
    );
  });
});
