import { AwsV4Signer } from "aws4fetch";
import { constantTimeEqual } from "../../lib/crypto";

/** Credentials that sign query-string (presigned) S3 URLs. */
export interface S3Credentials {
  accessKeyId: string;
  secretAccessKey: string;
}

/** The credential scope a signature is bound to, besides the day. */
export interface SigningScope {
  region: string;
  service: string;
}

/** R2's S3 endpoint: region `auto`, service `s3`. */
export const R2_SCOPE: SigningScope = { region: "auto", service: "s3" };

const MAX_EXPIRES_SECONDS = 7 * 24 * 3600;

/**
 * SigV4 signing keys derived per secret, day, region and service, shared by every signer of
 * this isolate: without it each URL derives its key again (four HMACs of the five a
 * signature takes). A handful of entries at most; emptied past that, so days do not pile up.
 */
const signingKeys = new Map<string, ArrayBuffer>();
const MAX_SIGNING_KEYS = 8;

function signingKeyCache(): Map<string, ArrayBuffer> {
  if (signingKeys.size > MAX_SIGNING_KEYS) signingKeys.clear();
  return signingKeys;
}

function amzDate(date: Date): string {
  return date.toISOString().replace(/[:-]|\.\d{3}/g, "");
}

/**
 * Presigns `url` for `method` until `expiresAt` (SigV4 query signing, host-only signed
 * headers, UNSIGNED-PAYLOAD, region `auto`, service `s3`). `scope` exists so AWS's published
 * test vectors, signed for other regions and services, can be reproduced.
 */
export async function presignUrl(
  credentials: S3Credentials,
  method: "PUT" | "GET",
  url: URL,
  expiresAt: Date,
  now: Date = new Date(),
  scope: SigningScope = R2_SCOPE,
): Promise<string> {
  const expires = Math.max(
    1,
    Math.min(MAX_EXPIRES_SECONDS, Math.round((expiresAt.getTime() - now.getTime()) / 1000)),
  );
  const unsigned = new URL(url);
  unsigned.searchParams.set("X-Amz-Expires", String(expires));
  const signer = new AwsV4Signer({
    ...credentials,
    method,
    url: unsigned.toString(),
    ...scope,
    datetime: amzDate(now),
    signQuery: true,
    cache: signingKeyCache(),
  });
  return (await signer.sign()).url.toString();
}

/** Signed GET URLs are minted per minute (`presignGetUrl`). */
const GET_URL_STEP_MS = 60_000;
/** The current minute's signed GET URLs kept by this isolate, at most (~600 bytes each). */
const MAX_GET_URLS = 4_096;
const getUrls = { minute: Number.NaN, urls: new Map<string, string>() };

/**
 * A signed GET URL of `url`, valid at least until `expiresAt` and at most a minute longer
 * (within S3's seven days: a longer lifetime is cut there, as `presignUrl` cuts it).
 * It is signed as of the start of the current minute, and its expiry is rounded up to a
 * whole minute after that, so every URL of one object asked for in the same minute is the
 * same: browsers and caches keep what it points at, and this isolate keeps the minute's URLs
 * (bounded), so showing an object again signs nothing.
 */
export async function presignGetUrl(
  credentials: S3Credentials,
  url: URL,
  expiresAt: Date,
  now: Date = new Date(),
): Promise<string> {
  const minute = Math.floor(now.getTime() / GET_URL_STEP_MS) * GET_URL_STEP_MS;
  const until =
    minute + Math.ceil((expiresAt.getTime() - minute) / GET_URL_STEP_MS) * GET_URL_STEP_MS;
  if (getUrls.minute !== minute || getUrls.urls.size >= MAX_GET_URLS) {
    getUrls.minute = minute;
    getUrls.urls.clear();
  }
  const key = [credentials.accessKeyId, credentials.secretAccessKey, url.href, until].join("\n");
  const kept = getUrls.urls.get(key);
  if (kept !== undefined) return kept;
  const signed = await presignUrl(credentials, "GET", url, new Date(until), new Date(minute));
  // Another minute may have begun while signing: keep the URL only in its own minute.
  if (getUrls.minute === minute) getUrls.urls.set(key, signed);
  return signed;
}

/** Why a presigned request was refused, in S3's words. */
export type PresignRefusal = {
  code: "AccessDenied" | "SignatureDoesNotMatch" | "AuthorizationQueryParametersError";
  message: string;
};

function parseAmzDate(value: string): number {
  const match = value.match(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/);
  if (!match) return Number.NaN;
  const [, y, mo, d, h, mi, s] = match;
  return Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
}

/**
 * Verifies a presigned request the way S3 does: recomputes the signature over the same
 * canonical request and checks expiry. Returns null when the request may proceed.
 */
export async function verifyPresigned(
  credentials: S3Credentials,
  method: string,
  url: URL,
  now: number = Date.now(),
  scope: SigningScope = R2_SCOPE,
): Promise<PresignRefusal | null> {
  const params = url.searchParams;
  const signature = params.get("X-Amz-Signature");
  const date = params.get("X-Amz-Date");
  const expires = Number(params.get("X-Amz-Expires"));
  const credential = params.get("X-Amz-Credential") ?? "";
  if (
    !signature ||
    !date ||
    !Number.isInteger(expires) ||
    params.get("X-Amz-Algorithm") !== "AWS4-HMAC-SHA256"
  ) {
    return {
      code: "AuthorizationQueryParametersError",
      message:
        "Query-string authentication requires the X-Amz-Algorithm, X-Amz-Credential, X-Amz-Signature, X-Amz-Date, X-Amz-SignedHeaders and X-Amz-Expires parameters.",
    };
  }
  if (
    !credential.startsWith(`${credentials.accessKeyId}/`) ||
    params.get("X-Amz-SignedHeaders") !== "host"
  ) {
    return {
      code: "SignatureDoesNotMatch",
      message: "The request signature we calculated does not match the signature you provided.",
    };
  }
  const unsigned = new URL(url);
  unsigned.searchParams.delete("X-Amz-Signature");
  const signer = new AwsV4Signer({
    ...credentials,
    method,
    url: unsigned.toString(),
    ...scope,
    datetime: date,
    signQuery: true,
    cache: signingKeyCache(),
  });
  const expected = new TextEncoder().encode(await signer.signature());
  if (!constantTimeEqual(expected, new TextEncoder().encode(signature))) {
    return {
      code: "SignatureDoesNotMatch",
      message: "The request signature we calculated does not match the signature you provided.",
    };
  }
  const signedAt = parseAmzDate(date);
  if (Number.isNaN(signedAt) || now > signedAt + expires * 1000 || expires > MAX_EXPIRES_SECONDS) {
    return { code: "AccessDenied", message: "Request has expired" };
  }
  return null;
}
