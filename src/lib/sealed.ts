import { fromBase64Url, randomBytes, sha256, toBase64Url } from "./crypto";

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const VERSION = "v1";

/**
 * Keys derived so far in this isolate. The key is kept, never the promise of it: a request
 * awaiting a promise another request made is cancelled when that request ends first.
 */
const keys = new Map<string, CryptoKey>();

async function encryptionKey(purpose: string, signingSecret: string): Promise<CryptoKey> {
  const name = `${purpose}:${signingSecret}`;
  const known = keys.get(name);
  if (known) return known;
  // A key per purpose, derived from the service secret, so no two uses of it can collide.
  const key = await crypto.subtle.importKey("raw", await sha256(name), { name: "AES-GCM" }, false, [
    "encrypt",
    "decrypt",
  ]);
  keys.set(name, key);
  return key;
}

/** Encrypts text for storage: AES-256-GCM under a key derived from the service secret and `purpose`. */
export async function sealText(
  purpose: string,
  signingSecret: string,
  text: string,
): Promise<string> {
  const iv = randomBytes(12);
  const sealed = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv },
    await encryptionKey(purpose, signingSecret),
    encoder.encode(text),
  );
  return `${VERSION}.${toBase64Url(iv)}.${toBase64Url(new Uint8Array(sealed))}`;
}

/** Decrypts what `sealText` made; null when it was sealed under another secret or is damaged. */
export async function openText(
  purpose: string,
  signingSecret: string,
  stored: string,
): Promise<string | null> {
  const [version, ivText, sealedText] = stored.split(".");
  const iv = fromBase64Url(ivText ?? "");
  const sealed = fromBase64Url(sealedText ?? "");
  if (version !== VERSION || !iv || !sealed) return null;
  try {
    const key = await encryptionKey(purpose, signingSecret);
    return decoder.decode(await crypto.subtle.decrypt({ name: "AES-GCM", iv }, key, sealed));
  } catch {
    return null;
  }
}
