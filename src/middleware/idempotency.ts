import { createMiddleware } from "hono/factory";
import type { StoredResponse } from "../durable-objects/idempotency-key";
import { ApiError, invalidRequest } from "../errors/api-error";
import { sha256Hex } from "../lib/crypto";
import { openText, sealText } from "../lib/sealed";
import type { HonoEnv } from "./hono-env";

/** The header of the spec's Endpoints section, at most this many characters. */
export const IDEMPOTENCY_KEY_MAX = 255;
const REPLAYED_HEADERS = ["content-type", "location"];
/** Stored bodies are sealed: some carry a secret shown once (a webhook endpoint's `whsec_`). */
const SEAL_PURPOSE = "idempotent-responses";

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`);
    return `{${entries.join(",")}}`;
  }
  return JSON.stringify(value);
}

/**
 * Method, concrete path and body: what makes two requests "the same" (the spec's Endpoints section:
 * the key is compared with the payload and the concrete path parameters). The query string is not
 * part of it, so a retry that only changes `expand[]` replays the first response.
 */
async function fingerprint(method: string, url: URL, body: string): Promise<string> {
  let canonicalBody = body;
  try {
    canonicalBody = canonicalJson(JSON.parse(body));
  } catch {
    // Not JSON: the raw text is compared.
  }
  return sha256Hex(JSON.stringify([method, url.pathname, canonicalBody]));
}

async function replay(stored: StoredResponse, signingSecret: string): Promise<Response> {
  const body = await openText(SEAL_PURPOSE, signingSecret, stored.body);
  if (body === null) {
    throw new ApiError(
      "conflict",
      "The first response to this Idempotency-Key can no longer be read (the service's signing secret changed); send the request with a new key.",
    );
  }
  return new Response(body === "" ? null : body, {
    status: stored.status,
    headers: { ...stored.headers, "Idempotent-Replayed": "true" },
  });
}

/**
 * The name of the object holding one key's record. Scoped to the owner as well as the
 * workspace: a replay carries the first response, and another owner of the workspace must
 * never receive one (it may hold their rulebook).
 */
export function idempotencyScope(workspaceId: string, ownerId: string, key: string): string {
  return `${workspaceId}\n${ownerId}\n${key}`;
}

/**
 * Makes a POST safe to retry with `Idempotency-Key`: the first request runs, a repeat
 * replays its response, a different request with the same key answers 422. Only
 * successful responses are kept; an error changed nothing, so the key is released.
 */
export const idempotency = createMiddleware<HonoEnv>(async (c, next) => {
  const key = c.req.header("idempotency-key");
  if (key === undefined) return next();
  if (key.length === 0 || key.length > IDEMPOTENCY_KEY_MAX) {
    throw invalidRequest([
      { path: "Idempotency-Key", message: `must be 1 to ${IDEMPOTENCY_KEY_MAX} characters` },
    ]);
  }
  const print = await fingerprint(c.req.method, new URL(c.req.url), await c.req.text());
  const { workspaceId, ownerId } = c.var.auth;
  const stub = c.env.IDEMPOTENCY_KEYS.getByName(idempotencyScope(workspaceId, ownerId, key));
  const begun = await stub.begin(print);
  switch (begun.state) {
    case "replay":
      return replay(begun.response, c.var.deps.secrets.signing());
    case "mismatch":
      throw new ApiError(
        "idempotency-key-mismatch",
        "This Idempotency-Key was already used with a different request.",
      );
    case "in-flight":
      throw new ApiError(
        "idempotency-key-in-use",
        "A request with this Idempotency-Key is still running; retry later.",
        { headers: { "Retry-After": "1" } },
      );
    case "proceed":
      break;
  }
  try {
    await next();
  } catch (error) {
    await stub.release(begun.token);
    throw error;
  }
  if (c.res.status >= 200 && c.res.status < 300) {
    const headers: Record<string, string> = {};
    for (const name of REPLAYED_HEADERS) {
      const value = c.res.headers.get(name);
      if (value !== null) headers[name] = value;
    }
    const body = await c.res.clone().text();
    await stub.complete(begun.token, {
      status: c.res.status,
      headers,
      body: await sealText(SEAL_PURPOSE, c.var.deps.secrets.signing(), body),
    });
  } else {
    await stub.release(begun.token);
  }
});
