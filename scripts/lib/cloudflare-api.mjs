// Reads of the Cloudflare API that wrangler has no command for (the account's plan, its
// workers.dev subdomain, its zones), made with the credentials wrangler itself uses:
// `wrangler auth token --json` answers the API token of CLOUDFLARE_API_TOKEN, the key pair
// of CLOUDFLARE_API_KEY and CLOUDFLARE_EMAIL, or the OAuth token of `wrangler login`
// (developers.cloudflare.com/workers/wrangler/commands/general/#auth-token). The credentials
// stay in this process: never printed, never an argument.
import { jsonOutput } from "./wrangler-cli.mjs";

/** The API's base, as wrangler reads it (tests point it at a fake). */
export const apiBase = (env = process.env) =>
  (env.CLOUDFLARE_API_BASE_URL ?? "https://api.cloudflare.com/client/v4").replace(/\/+$/, "");

/** The request headers that authenticate as wrangler's current login. */
export async function apiHeaders(run) {
  const auth = jsonOutput((await run(["auth", "token", "--json"])).stdout);
  if (auth.type === "api_key") return { "X-Auth-Key": auth.key, "X-Auth-Email": auth.email };
  return { Authorization: `Bearer ${auth.token}` };
}

/**
 * `get(path)` for one login: it resolves with the API's envelope (`success`, `result`,
 * `errors`) and the HTTP status, whatever the status, so each check decides what a refusal
 * means; a network failure or a body that is not JSON rejects.
 */
export function cloudflareApi(headers, base = apiBase()) {
  return async (path) => {
    const response = await fetch(`${base}${path}`, {
      headers,
      signal: AbortSignal.timeout(30_000),
    });
    const text = await response.text();
    let body;
    try {
      body = JSON.parse(text);
    } catch {
      throw new Error(`GET ${path} answered ${response.status} without JSON`);
    }
    return { status: response.status, ...body, errors: body.errors ?? [] };
  };
}

/** The API's errors as one line: `message [code: N]`, as wrangler prints them. */
export const apiErrors = (envelope) =>
  envelope.errors.map((e) => `${e.message} [code: ${e.code}]`).join("; ") ||
  `HTTP ${envelope.status}`;
