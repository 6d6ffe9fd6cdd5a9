import type { Env } from "../env";

/** The secret behind cursors and signed URLs; the Worker refuses to run without it. */
export function signingSecret(env: Env): string {
  const secret = env.SIGNING_SECRET;
  if (!secret || secret.length < 16) {
    throw new Error("SIGNING_SECRET is not configured (at least 16 characters)");
  }
  return secret;
}
