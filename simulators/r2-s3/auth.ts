import { AwsV4Signer } from "aws4fetch";
import {
  type S3Credentials,
  type SigningScope,
  verifyPresigned,
} from "../../src/ports/storage/sigv4";
import { S3Error } from "./xml";

/** What a verified request may send as its body. */
export type PayloadHash = { kind: "unsigned" } | { kind: "sha256"; hex: string };

/** R2's region is `auto`; an empty region and `us-east-1` alias to it (r2/api/s3/api). */
const R2_REGIONS = new Set(["auto", "us-east-1", ""]);
/** S3 refuses a header-signed request dated more than 15 minutes from its clock. */
const MAX_SKEW_MS = 15 * 60_000;
/** Query-signed URLs live at most seven days (r2/api/s3/presigned-urls). */
const MAX_EXPIRES_SECONDS = 604_800;
const AUTHORIZATION =
  /^AWS4-HMAC-SHA256 Credential=([^/,\s]+)\/(\d{8})\/([^/,\s]*)\/([^/,\s]+)\/aws4_request,\s*SignedHeaders=([a-z0-9;-]+),\s*Signature=([0-9a-f]{64})$/;
const AMZ_DATE = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/;
const MISMATCH = "The request signature we calculated does not match the signature you provided.";
const signingKeys = new Map<string, ArrayBuffer>();

function parseAmzDate(value: string): number {
  const [, y, mo, d, h, mi, s] = value.match(AMZ_DATE) ?? [];
  if (s === undefined) return Number.NaN;
  return Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
}

function scopeOf(region: string, service: string): SigningScope {
  if (service !== "s3" || !R2_REGIONS.has(region)) {
    throw new S3Error(
      "AuthorizationHeaderMalformed",
      `The authorization scope must name region 'auto' and service 's3', not '${region}/${service}'.`,
    );
  }
  return { region, service };
}

/** Verifies a query-signed (presigned) request; its payload is always unsigned. */
async function verifyQuery(request: Request, url: URL, credentials: S3Credentials, now: number) {
  const expires = Number(url.searchParams.get("X-Amz-Expires"));
  if (!Number.isInteger(expires) || expires < 1 || expires > MAX_EXPIRES_SECONDS) {
    throw new S3Error(
      "AuthorizationQueryParametersError",
      "X-Amz-Expires must be a whole number of seconds from 1 to 604800 (seven days).",
    );
  }
  const [, , region = "", service = ""] = (url.searchParams.get("X-Amz-Credential") ?? "").split(
    "/",
  );
  const refusal = await verifyPresigned(
    credentials,
    request.method,
    url,
    now,
    scopeOf(region, service),
  );
  if (refusal?.code === "AccessDenied") {
    // R2 answers an expired signature with 400 ExpiredRequest (r2/api/error-codes, 10018).
    throw new S3Error("ExpiredRequest", "The presigned URL has expired.");
  }
  if (refusal) throw new S3Error(refusal.code, refusal.message);
}

/** Verifies an `Authorization: AWS4-HMAC-SHA256 …` request and returns its payload claim. */
async function verifyHeader(
  request: Request,
  authorization: string,
  credentials: S3Credentials,
  now: number,
): Promise<PayloadHash> {
  const match = authorization.match(AUTHORIZATION);
  if (!match)
    throw new S3Error("AuthorizationHeaderMalformed", "The authorization header is malformed.");
  const [, accessKeyId, day, region = "", service = "", signedList = "", signature = ""] = match;
  if (accessKeyId !== credentials.accessKeyId) {
    throw new S3Error("Unauthorized", "The access key ID does not exist in our records.");
  }
  const scope = scopeOf(region, service);
  const datetime = request.headers.get("x-amz-date") ?? "";
  const signedAt = parseAmzDate(datetime);
  if (Number.isNaN(signedAt) || datetime.slice(0, 8) !== day) {
    throw new S3Error(
      "AccessDenied",
      "The x-amz-date header is missing or does not match the credential scope.",
    );
  }
  if (Math.abs(now - signedAt) > MAX_SKEW_MS) {
    throw new S3Error(
      "RequestTimeTooSkewed",
      "The difference between the request time and the current time is too large.",
    );
  }
  const contentSha = request.headers.get("x-amz-content-sha256");
  if (contentSha === null) {
    throw new S3Error(
      "InvalidRequest",
      "Missing required header for this request: x-amz-content-sha256",
    );
  }
  const signed = signedList.split(";");
  const unsigned = [...request.headers.keys()].filter(
    (name) => name.startsWith("x-amz-") && !signed.includes(name),
  );
  if (!signed.includes("host") || unsigned.length > 0) {
    throw new S3Error(
      "AccessDenied",
      "There were headers present in the request which were not signed.",
    );
  }
  const headers = new Headers();
  for (const name of signed)
    if (name !== "host") headers.set(name, request.headers.get(name) ?? "");
  const signer = new AwsV4Signer({
    ...credentials,
    ...scope,
    method: request.method,
    url: request.url,
    headers,
    datetime,
    allHeaders: true,
    cache: signingKeys,
  });
  if ((await signer.signature()) !== signature)
    throw new S3Error("SignatureDoesNotMatch", MISMATCH);
  if (contentSha === "UNSIGNED-PAYLOAD") return { kind: "unsigned" };
  if (/^[0-9a-f]{64}$/.test(contentSha)) return { kind: "sha256", hex: contentSha };
  throw new S3Error(
    "NotImplemented",
    `x-amz-content-sha256 '${contentSha}' is not supported here.`,
  );
}

/**
 * Verifies a request the way R2's S3 endpoint does, signed in its query (presigned) or in its
 * Authorization header, with the configured credentials. Throws an `S3Error` to refuse it.
 */
export async function authenticate(
  request: Request,
  url: URL,
  credentials: S3Credentials,
  now: number,
): Promise<PayloadHash> {
  const authorization = request.headers.get("authorization");
  if (authorization !== null) return verifyHeader(request, authorization, credentials, now);
  if (url.searchParams.has("X-Amz-Signature")) {
    await verifyQuery(request, url, credentials, now);
    return { kind: "unsigned" };
  }
  throw new S3Error("Unauthorized", "The request carries no signature.");
}
