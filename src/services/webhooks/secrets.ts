import { fromBase64Url, randomBytes, sha256, toBase64Url } from "../../lib/crypto";

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const VERSION = "v1";

const keys = new Map<string, Promise<CryptoKey>>();

function encryptionKey(signingSecret: string): Promise<CryptoKey> {
  let key = keys.get(signingSecret);
  if (!key) {
    // A key of its own, derived from the service secret, so no other use of it can collide.
    key = sha256(`webhook-secrets:${signingSecret}`).then((bytes) =>
      crypto.subtle.importKey("raw", bytes, { name: "AES-GCM" }, false, ["encrypt", "decrypt"]),
    );
    keys.set(signingSecret, key);
  }
  return key;
}

/** Encrypts an endpoint secret for storage (AES-256-GCM under a key derived from the service secret). */
export async function sealSecret(signingSecret: string, secret: string): Promise<string> {
  const iv = randomBytes(12);
  const sealed = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv },
    await encryptionKey(signingSecret),
    encoder.encode(secret),
  );
  return `${VERSION}.${toBase64Url(iv)}.${toBase64Url(new Uint8Array(sealed))}`;
}

/** A stored endpoint secret that cannot be opened: sealed under another service secret, or damaged. */
export class UnreadableSecretError extends Error {
  constructor() {
    // Never carries the stored text: it is key material.
    super("stored webhook secret cannot be opened with the current SIGNING_SECRET");
  }
}

/** Decrypts a stored endpoint secret; throws `UnreadableSecretError` when it cannot. */
export async function openSecret(signingSecret: string, stored: string): Promise<string> {
  const [version, ivText, sealedText] = stored.split(".");
  const iv = fromBase64Url(ivText ?? "");
  const sealed = fromBase64Url(sealedText ?? "");
  if (version !== VERSION || !iv || !sealed) throw new UnreadableSecretError();
  const key = await encryptionKey(signingSecret);
  let plain: ArrayBuffer;
  try {
    plain = await crypto.subtle.decrypt({ name: "AES-GCM", iv }, key, sealed);
  } catch {
    throw new UnreadableSecretError();
  }
  return decoder.decode(plain);
}
