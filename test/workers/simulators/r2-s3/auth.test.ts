import { describe, expect, it } from "vitest";
import { authenticate } from "../../../../simulators/r2-s3/auth";
import { S3Error } from "../../../../simulators/r2-s3/xml";
import { presignUrl } from "../../../../src/ports/storage/sigv4";
import header from "../../../fixtures/contracts/sigv4/header-signed-vectors.json";
import query from "../../../fixtures/contracts/sigv4/presigned-url-vectors.json";

const NOW = Date.parse(header.now);
const { credentials } = header;
type Vector = (typeof header.vectors)[number];

/** A vector's headers (the JSON's union type leaves absent ones as undefined). */
const headersOf = (vector: Vector): Record<string, string> =>
  Object.fromEntries(
    Object.entries(vector.headers).filter((e): e is [string, string] => typeof e[1] === "string"),
  );

function sent(vector: Vector, signature = vector.signature, headers: Record<string, string> = {}) {
  const authorization = `AWS4-HMAC-SHA256 Credential=${credentials.accessKeyId}/20130524/us-east-1/s3/aws4_request,SignedHeaders=${vector.signedHeaders},Signature=${signature}`;
  return new Request(vector.url, {
    method: vector.method,
    headers: { ...headersOf(vector), authorization, ...headers },
    ...(vector.body === undefined ? {} : { body: vector.body }),
  });
}

async function refusal(request: Request, now = NOW, creds = credentials): Promise<string> {
  try {
    await authenticate(request, new URL(request.url), creds, now);
  } catch (error) {
    if (error instanceof S3Error) return error.code;
    throw error;
  }
  return "accepted";
}

describe("R2 S3 simulator: SigV4 verification", () => {
  for (const vector of header.vectors) {
    it(`accepts AWS's header-signed ${vector.name} example and refuses it altered`, async () => {
      // R2 treats us-east-1 as an alias of its `auto` region (r2/api/s3/api).
      const request = sent(vector);
      const claim = await authenticate(request, new URL(request.url), credentials, NOW);
      const claimed = headersOf(vector)["x-amz-content-sha256"];
      expect(claim).toEqual({ kind: "sha256", hex: claimed });
      const flipped = `${vector.signature.slice(0, -1)}${vector.signature.endsWith("0") ? "1" : "0"}`;
      expect(await refusal(sent(vector, flipped))).toBe("SignatureDoesNotMatch");
      expect(await refusal(sent(vector), NOW + 16 * 60_000)).toBe("RequestTimeTooSkewed");
      expect(await refusal(sent(vector, vector.signature, { "x-amz-meta-extra": "1" }))).toBe(
        "AccessDenied",
      );
      expect(await refusal(sent(vector), NOW, { ...credentials, accessKeyId: "OTHER" })).toBe(
        "Unauthorized",
      );
    });
  }

  it("accepts AWS's presigned example (us-east-1 aliases auto) until it expires", async () => {
    const example = query.vectors.find((v) => v.name === "s3-docs-get-object");
    if (!example) throw new Error("missing vector");
    const at = Date.parse("2013-05-24T00:00:00Z");
    const signed = await presignUrl(
      example.credentials,
      "GET",
      new URL(example.url),
      new Date(at + 86_400_000),
      new Date(at),
      { region: "us-east-1", service: "s3" },
    );
    const request = new Request(signed);
    expect(await refusal(request, at, example.credentials)).toBe("accepted");
    expect(await refusal(request, at + 86_401_000, example.credentials)).toBe("ExpiredRequest");
    expect(await refusal(new Request(signed, { method: "PUT" }), at, example.credentials)).toBe(
      "SignatureDoesNotMatch",
    );
  });

  it("refuses scopes other than auto/s3, lifetimes over seven days and unsigned requests", async () => {
    const at = Date.parse("2026-11-25T10:00:00Z");
    const url = new URL("https://acct.r2.cloudflarestorage.com/media/k");
    const sign = (scope: { region: string; service: string }, seconds: number) =>
      presignUrl(credentials, "GET", url, new Date(at + seconds * 1000), new Date(at), scope);
    const eu = new Request(await sign({ region: "eu-west-1", service: "s3" }, 60));
    expect(await refusal(eu, at)).toBe("AuthorizationHeaderMalformed");
    const long = new URL(await sign({ region: "auto", service: "s3" }, 60));
    long.searchParams.set("X-Amz-Expires", "604801");
    expect(await refusal(new Request(long), at)).toBe("AuthorizationQueryParametersError");
    expect(await refusal(new Request(url), at)).toBe("Unauthorized");
  });
});
