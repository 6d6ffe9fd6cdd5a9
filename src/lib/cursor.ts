import { invalidRequest } from "../errors/api-error";
import { constantTimeEqual, fromBase64Url, hmacSha256, sha256, toBase64Url } from "./crypto";

/** The sort key of the last item of a page: the values keyset pagination resumes after. */
export type CursorKey = (string | number)[];

const MAC_BYTES = 16;
const SCOPE_BYTES = 12;
const decoder = new TextDecoder();

async function scopeTag(scope: string): Promise<string> {
  return toBase64Url((await sha256(`cursor-scope:${scope}`)).slice(0, SCOPE_BYTES));
}

async function mac(secret: string, payload: string): Promise<Uint8Array> {
  return (await hmacSha256(secret, `cursor:${payload}`)).slice(0, MAC_BYTES);
}

/**
 * Encodes an opaque cursor. `scope` names the list and everything that shapes it
 * (workspace, filters), so a cursor only works on the list that issued it.
 */
export async function encodeCursor(secret: string, scope: string, key: CursorKey): Promise<string> {
  const payload = toBase64Url(
    new TextEncoder().encode(JSON.stringify({ s: await scopeTag(scope), k: key })),
  );
  return `${payload}.${toBase64Url(await mac(secret, payload))}`;
}

function invalidCursor(): never {
  throw invalidRequest(
    [
      {
        path: "cursor",
        message: "is not a cursor issued for this list; pass next_cursor unchanged",
      },
    ],
    "The cursor is invalid.",
  );
}

/** Decodes and verifies a cursor; a forged, altered or foreign cursor answers 400. */
export async function decodeCursor(
  secret: string,
  scope: string,
  cursor: string,
): Promise<CursorKey> {
  const [payload, signature, extra] = cursor.split(".");
  if (payload === undefined || signature === undefined || extra !== undefined) invalidCursor();
  const given = fromBase64Url(signature);
  if (!given || !constantTimeEqual(given, await mac(secret, payload))) invalidCursor();
  const bytes = fromBase64Url(payload);
  if (!bytes) invalidCursor();
  let parsed: unknown;
  try {
    parsed = JSON.parse(decoder.decode(bytes));
  } catch {
    invalidCursor();
  }
  if (
    typeof parsed !== "object" ||
    parsed === null ||
    !("s" in parsed) ||
    !("k" in parsed) ||
    parsed.s !== (await scopeTag(scope)) ||
    !Array.isArray(parsed.k) ||
    !parsed.k.every((part: unknown) => typeof part === "string" || typeof part === "number")
  ) {
    invalidCursor();
  }
  return parsed.k as CursorKey;
}
