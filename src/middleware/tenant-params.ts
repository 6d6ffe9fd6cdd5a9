import { createMiddleware } from "hono/factory";
import { invalidRequest } from "../errors/api-error";
import type { HonoEnv } from "./hono-env";

/** Identity fields a request must never carry: the key decides the workspace. */
export const TENANT_FIELDS = ["tenant_id", "organization_id", "user_id"] as const;

function tenantFieldErrors(names: Iterable<string>) {
  const present = new Set(names);
  return TENANT_FIELDS.filter((field) => present.has(field)).map((field) => ({
    path: field,
    message: "must not be sent: the workspace is derived from the API key",
  }));
}

/** Refuses `tenant_id`, `organization_id` and `user_id` in the query or the JSON body. */
export const rejectTenantFields = createMiddleware<HonoEnv>(async (c, next) => {
  const errors = tenantFieldErrors(new URL(c.req.url).searchParams.keys());
  if (errors.length === 0 && /json/i.test(c.req.header("content-type") ?? "")) {
    let body: unknown;
    try {
      body = JSON.parse(await c.req.text());
    } catch {
      body = undefined;
    }
    if (typeof body === "object" && body !== null && !Array.isArray(body)) {
      errors.push(...tenantFieldErrors(Object.keys(body)));
    }
  }
  if (errors.length > 0) throw invalidRequest(errors);
  await next();
});
