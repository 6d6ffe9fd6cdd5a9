import { afterEach, describe, expect, it, vi } from "vitest";
import { presignUrl, verifyPresigned } from "../../../src/ports/storage/sigv4";

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
