import { describe, expect, it } from "vitest";
import { presignUrl, verifyPresigned } from "../../../src/ports/storage/sigv4";
import published from "../../fixtures/contracts/sigv4/presigned-url-vectors.json";

type Vector = (typeof published.vectors)[number];

function signedAt(vector: Vector): Date {
  const [, y, mo, d, h, mi, s] = vector.datetime.match(
    /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/,
  ) ?? ["", "", "", "", "", "", ""];
  return new Date(`${y}-${mo}-${d}T${h}:${mi}:${s}Z`);
}

/** The URL as a client would send it: the request's own query plus the published signature. */
function publishedUrl(vector: Vector, signature = vector.signature): URL {
  const url = new URL(vector.url);
  const day = vector.datetime.slice(0, 8);
  url.searchParams.set("X-Amz-Algorithm", "AWS4-HMAC-SHA256");
  url.searchParams.set(
    "X-Amz-Credential",
    `${vector.credentials.accessKeyId}/${day}/${vector.region}/${vector.service}/aws4_request`,
  );
  url.searchParams.set("X-Amz-Date", vector.datetime);
  url.searchParams.set("X-Amz-Expires", String(vector.expiresSeconds));
  url.searchParams.set("X-Amz-SignedHeaders", "host");
  url.searchParams.set("X-Amz-Signature", signature);
  return url;
}

const scopeOf = (vector: Vector) => ({ region: vector.region, service: vector.service });
const method = (vector: Vector) => vector.method as "GET";

describe("SigV4 presigned URLs against AWS's published vectors", () => {
  it("covers the S3 documentation's example and the generic test suite", () => {
    const names = published.vectors.map((vector) => vector.name);
    expect(names).toContain("s3-docs-get-object");
    expect(names.length).toBeGreaterThanOrEqual(8);
  });

  for (const vector of published.vectors) {
    it(`signs ${vector.name} exactly as published`, async () => {
      const now = signedAt(vector);
      const expiresAt = new Date(now.getTime() + vector.expiresSeconds * 1000);
      const url = new URL(
        await presignUrl(
          vector.credentials,
          method(vector),
          new URL(vector.url),
          expiresAt,
          now,
          scopeOf(vector),
        ),
      );
      expect(url.searchParams.get("X-Amz-Signature"), url.search).toBe(vector.signature);
      expect(url.searchParams.get("X-Amz-Expires")).toBe(String(vector.expiresSeconds));
      expect(url.searchParams.get("X-Amz-Credential")).toBe(
        publishedUrl(vector).searchParams.get("X-Amz-Credential"),
      );
    });

    it(`verifies ${vector.name}'s published URL and refuses it altered or expired`, async () => {
      const at = signedAt(vector).getTime();
      const expiry = at + vector.expiresSeconds * 1000;
      const scope = scopeOf(vector);
      const { credentials } = vector;
      expect(
        await verifyPresigned(credentials, vector.method, publishedUrl(vector), at, scope),
      ).toBe(null);
      const flipped = `${vector.signature.slice(0, -1)}${vector.signature.endsWith("0") ? "1" : "0"}`;
      expect(
        await verifyPresigned(credentials, vector.method, publishedUrl(vector, flipped), at, scope),
      ).toMatchObject({ code: "SignatureDoesNotMatch" });
      expect(
        await verifyPresigned(credentials, "PUT", publishedUrl(vector), at, scope),
      ).toMatchObject({ code: "SignatureDoesNotMatch" });
      expect(
        await verifyPresigned(
          credentials,
          vector.method,
          publishedUrl(vector),
          expiry + 1000,
          scope,
        ),
      ).toMatchObject({ code: "AccessDenied" });
    });
  }
});
