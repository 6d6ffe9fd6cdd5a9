// The Standard Webhooks secret format, kept free of Workers-only APIs so receivers' tests
// (the node suite) can use it as is.

function base64(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** A new endpoint secret in the Standard Webhooks form: `whsec_` + base64 of 24 random bytes. */
export function newEndpointSecret(): string {
  return `whsec_${base64(crypto.getRandomValues(new Uint8Array(24)))}`;
}

/** The HMAC key bytes of a `whsec_` secret (the base64 after the prefix, decoded). */
export function secretKeyBytes(secret: string): Uint8Array<ArrayBuffer> {
  const binary = atob(secret.replace(/^whsec_/, ""));
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

/** Standard base64 (with padding), as signatures are written. */
export function toBase64(bytes: Uint8Array): string {
  return base64(bytes);
}
