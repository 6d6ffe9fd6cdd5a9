import { openText, sealText } from "../../lib/sealed";

const PURPOSE = "webhook-secrets";

/** Encrypts an endpoint secret for storage (AES-256-GCM under a key derived from the service secret). */
export function sealSecret(signingSecret: string, secret: string): Promise<string> {
  return sealText(PURPOSE, signingSecret, secret);
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
  const plain = await openText(PURPOSE, signingSecret, stored);
  if (plain === null) throw new UnreadableSecretError();
  return plain;
}
