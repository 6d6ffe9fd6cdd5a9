import { VasError } from "./errors.js";

export interface WebhookInput {
  /** The endpoint's `whsec_…` secret; several while a rotation overlaps. */
  secret: string | string[];
  /** The request's headers (a Headers object or a plain record, names in any case). */
  headers: Headers | Record<string, string | string[] | undefined>;
  /** The raw body exactly as received, before any JSON parsing. */
  body: string;
  /** Largest accepted distance of `webhook-timestamp` from now, seconds (default 300). */
  toleranceSeconds?: number;
  /** Now, in seconds since the epoch (for tests). */
  nowSeconds?: number;
}

const encoder = new TextEncoder();

function header(headers: WebhookInput["headers"], name: string): string | undefined {
  if (typeof Headers !== "undefined" && headers instanceof Headers)
    return headers.get(name) ?? undefined;
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === name) return Array.isArray(value) ? value[0] : value;
  }
  return undefined;
}

function base64ToBytes(text: string): Uint8Array<ArrayBuffer> {
  return Uint8Array.from(atob(text), (char) => char.charCodeAt(0));
}

function bytesToBase64(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** Compares without stopping at the first difference, so timing says nothing of the MAC. */
function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

async function sign(secret: string, content: string): Promise<string> {
  const key = await crypto.subtle.importKey(
    "raw",
    base64ToBytes(secret.replace(/^whsec_/, "")),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  return bytesToBase64(
    new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(content))),
  );
}

function refuse(detail: string): VasError {
  return new VasError("signature", {
    type: "about:blank",
    title: "Webhook signature invalid",
    status: 0,
    detail,
    code: "invalid-signature",
  });
}

/**
 * Verifies a delivery per Standard Webhooks (HMAC-SHA256 of `id.timestamp.body`, any of the
 * space-separated `v1,` signatures) and returns the parsed event; throws a VasError of kind
 * `signature` otherwise. Web Crypto only, so it runs in browsers, Workers and Node 20+.
 */
export async function verifyWebhook<T = unknown>(input: WebhookInput): Promise<T> {
  const id = header(input.headers, "webhook-id");
  const timestamp = header(input.headers, "webhook-timestamp");
  const signatures = header(input.headers, "webhook-signature");
  if (!id || !timestamp || !signatures) throw refuse("A webhook-* header is missing.");
  const sentAt = Number(timestamp);
  const now = input.nowSeconds ?? Math.floor(Date.now() / 1000);
  if (!Number.isInteger(sentAt) || Math.abs(now - sentAt) > (input.toleranceSeconds ?? 300))
    throw refuse("The webhook-timestamp is too far from now.");
  const secrets = Array.isArray(input.secret) ? input.secret : [input.secret];
  const offered = signatures
    .split(" ")
    .filter((entry) => entry.startsWith("v1,"))
    .map((entry) => entry.slice(3));
  for (const secret of secrets) {
    const expected = await sign(secret, `${id}.${timestamp}.${input.body}`);
    if (offered.some((signature) => sameText(signature, expected)))
      return JSON.parse(input.body) as T;
  }
  throw refuse("No signature matches the secret.");
}
