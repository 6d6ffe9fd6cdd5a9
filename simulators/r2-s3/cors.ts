import { S3Error } from "./xml";

/**
 * One bucket CORS rule in the S3 form R2 takes (developers.cloudflare.com/r2/buckets/cors):
 * origins as `scheme://host[:port]` (a `*` wildcard allowed), methods, request headers,
 * response headers the browser may read, and how long a preflight answer is kept.
 */
export interface CorsRule {
  AllowedOrigins: string[];
  AllowedMethods: string[];
  AllowedHeaders?: string[];
  ExposeHeaders?: string[];
  MaxAgeSeconds?: number;
}

function wildcard(pattern: string, value: string): boolean {
  const parts = pattern
    .toLowerCase()
    .split("*")
    .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, "\\$&"));
  return new RegExp(`^${parts.join(".*")}$`).test(value.toLowerCase());
}

function ruleFor(rules: readonly CorsRule[], origin: string, method: string, headers: string[]) {
  return rules.find(
    (rule) =>
      rule.AllowedOrigins.some((o) => wildcard(o, origin)) &&
      rule.AllowedMethods.includes(method) &&
      headers.every((h) => (rule.AllowedHeaders ?? []).some((a) => wildcard(a, h))),
  );
}

/** The answer to a preflight `OPTIONS`: the rule's grant, or 403 when no rule allows it. */
export function preflight(request: Request, rules: readonly CorsRule[]): Response {
  const origin = request.headers.get("origin");
  const method = request.headers.get("access-control-request-method");
  const asked = (request.headers.get("access-control-request-headers") ?? "")
    .split(",")
    .map((h) => h.trim().toLowerCase())
    .filter((h) => h !== "");
  const rule = origin && method ? ruleFor(rules, origin, method, asked) : undefined;
  if (!origin || !method || !rule) {
    return new S3Error(
      "AccessForbidden",
      "CORSResponse: This CORS request is not allowed. The Origin, Access-Control-Request-Method or Access-Control-Request-Headers are not allowed by the bucket's CORS rules.",
    ).toResponse();
  }
  const headers = new Headers({
    "Access-Control-Allow-Origin": rule.AllowedOrigins.includes("*") ? "*" : origin,
    "Access-Control-Allow-Methods": rule.AllowedMethods.join(", "),
    Vary: "Origin, Access-Control-Request-Method, Access-Control-Request-Headers",
  });
  if (asked.length > 0) headers.set("Access-Control-Allow-Headers", asked.join(", "));
  if (rule.ExposeHeaders?.length)
    headers.set("Access-Control-Expose-Headers", rule.ExposeHeaders.join(", "));
  if (rule.MaxAgeSeconds !== undefined)
    headers.set("Access-Control-Max-Age", String(rule.MaxAgeSeconds));
  return new Response(null, { status: 200, headers });
}

/** `response` with the CORS headers its request's origin is granted, if any. */
export function withCors(
  request: Request,
  response: Response,
  rules: readonly CorsRule[],
): Response {
  const origin = request.headers.get("origin");
  const rule = origin ? ruleFor(rules, origin, request.method, []) : undefined;
  if (!origin || !rule) return response;
  const out = new Response(response.body, response);
  out.headers.set("Access-Control-Allow-Origin", rule.AllowedOrigins.includes("*") ? "*" : origin);
  if (rule.ExposeHeaders?.length)
    out.headers.set("Access-Control-Expose-Headers", rule.ExposeHeaders.join(", "));
  out.headers.append("Vary", "Origin");
  return out;
}
