import type { Database } from "../../db/client";
import { type ApiKeyRow, findKeyByHash } from "../../db/repos/workspaces";
import type { AuthContext } from "../../domain/caller";
import {
  effectiveRateLimits,
  type RateClass,
  type RateLimitOverrides,
} from "../../domain/rate-limits";
import { ownerOfKey } from "../../domain/rulebooks";
import {
  constantTimeEqual,
  fromBase64Url,
  randomBytes,
  sha256,
  toBase64Url,
  toHex,
} from "../../lib/crypto";
import { expandPermissions } from "./permissions";

/** The outcome of checking a bearer token against the alpha surface. */
export type KeyVerdict =
  | { outcome: "valid"; auth: AuthContext; rateLimits: Record<RateClass, number> }
  | { outcome: "unauthorized" }
  | { outcome: "not-alpha" }
  | { outcome: "not-opted-in" };

/** Every API key secret starts with this, so secret scanners can recognise it. */
export const KEY_PREFIX = "vas_";
const SECRET_BYTES = 24;
const KEY_PATTERN = /^vas_[0-9a-f]{48}$/;

/** A new API key secret and what is stored of it. */
export async function mintKeySecret(): Promise<{
  secret: string;
  secretHash: string;
  start: string;
}> {
  const secret = `${KEY_PREFIX}${toHex(randomBytes(SECRET_BYTES))}`;
  return {
    secret,
    secretHash: await hashSecret(secret),
    start: secret.slice(0, KEY_PREFIX.length + 8),
  };
}

/** The stored form of a secret: base64url SHA-256. */
export async function hashSecret(secret: string): Promise<string> {
  return toBase64Url(await sha256(secret));
}

interface CacheEntry {
  found: { key: ApiKeyRow; alphaOptIn: boolean; rateLimits: RateLimitOverrides | null } | null;
  freshUntil: number;
}

/** How long a key lookup is trusted in this isolate (revocation elsewhere takes at most this). */
export const KEY_CACHE_TTL_MS = 10_000;
const KEY_CACHE_MAX = 5_000;
const keyCache = new Map<string, CacheEntry>();

/**
 * Forgets cached lookups of a key (after revocation) or of a workspace (after its opt-in or
 * rate limits change).
 */
export function evictCachedKeys(match: { keyId?: string; workspaceId?: string }): void {
  for (const [hash, entry] of keyCache) {
    const key = entry.found?.key;
    if (key && (key.id === match.keyId || key.workspaceId === match.workspaceId))
      keyCache.delete(hash);
  }
}

async function lookup(db: Database, secretHash: string, now: number): Promise<CacheEntry["found"]> {
  const cached = keyCache.get(secretHash);
  if (cached && cached.freshUntil > now) return cached.found;
  const found = await findKeyByHash(db, secretHash);
  if (keyCache.size >= KEY_CACHE_MAX) {
    const oldest = keyCache.keys().next().value;
    if (oldest !== undefined) keyCache.delete(oldest);
  }
  keyCache.set(secretHash, { found, freshUntil: now + KEY_CACHE_TTL_MS });
  return found;
}

/** Reads the bearer token of an Authorization header value, or null. */
export function bearerToken(header: string | undefined): string | null {
  const match = header?.match(/^Bearer[ ]+(\S+)\s*$/i);
  return match?.[1] ?? null;
}

/**
 * Checks a bearer token: 401 for missing, unknown, revoked or expired keys, 404 for keys
 * without alpha access, 403 for workspaces not opted in (the spec's Authentication section).
 */
export async function verifyKey(
  db: Database,
  token: string | null,
  now: number = Date.now(),
): Promise<KeyVerdict> {
  if (token === null || !KEY_PATTERN.test(token)) return { outcome: "unauthorized" };
  const secretHash = await hashSecret(token);
  const found = await lookup(db, secretHash, now);
  if (!found) return { outcome: "unauthorized" };
  const stored = fromBase64Url(found.key.secretHash);
  const given = fromBase64Url(secretHash);
  if (!stored || !given || !constantTimeEqual(stored, given)) return { outcome: "unauthorized" };
  const { key } = found;
  if (key.revokedAt !== null) return { outcome: "unauthorized" };
  if (key.expiresAt !== null && Date.parse(key.expiresAt) <= now)
    return { outcome: "unauthorized" };
  if (key.type !== "alpha") return { outcome: "not-alpha" };
  if (!found.alphaOptIn) return { outcome: "not-opted-in" };
  return {
    outcome: "valid",
    auth: {
      keyId: key.id,
      workspaceId: key.workspaceId,
      ownerId: key.ownerId ?? ownerOfKey(key.id),
      permissions: expandPermissions(key.permissions),
    },
    rateLimits: effectiveRateLimits(found.rateLimits),
  };
}
