import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { z } from "@hono/zod-openapi";
import { createApp } from "../../src/app";
import { createPorts } from "../../src/ports";
import { alphaRoute } from "../../src/routes/define";
import { insertVideos } from "./factories";
import { API } from "./harness";

const createWidget = alphaRoute(
  { permission: "RUN_WORKFLOWS" },
  {
    method: "post",
    operationId: "createTestWidget",
    path: "/test-widgets",
    request: {
      body: {
        required: true,
        content: {
          "application/json": {
            schema: z.strictObject({ name: z.string().min(1), fail: z.boolean().optional() }),
          },
        },
      },
    },
    responses: {
      201: {
        description: "created",
        content: { "application/json": { schema: z.object({ id: z.string(), name: z.string() }) } },
      },
    },
  },
);

const explode = alphaRoute(
  { permission: "READ_VIDEOS" },
  {
    method: "get",
    operationId: "explodeForTest",
    path: "/test-explode",
    responses: { 200: { description: "never" } },
  },
);

/**
 * The real app plus two test-only routes: a POST that creates a row (a stand-in for any
 * idempotent create) and a GET that throws an unexpected error.
 */
export const testApp = createApp({
  ports: createPorts(env),
  extendAlpha(api) {
    api.openapi(createWidget, async (c) => {
      const body = c.req.valid("json");
      // Slow enough that parallel duplicates overlap with the first request.
      await new Promise((resolve) => setTimeout(resolve, 50));
      if (body.fail) throw new Error("database password is hunter2");
      const [id] = await insertVideos(c.var.auth.workspaceId, 1, { filename: body.name });
      return c.json({ id: id ?? "", name: body.name }, 201);
    });
    api.openapi(explode, () => {
      throw new Error("secret internals: D1_ERROR at /srv/app.ts:12");
    });
  },
});

/** Sends a request through the test app with the real bindings. */
export async function testFetch(path: string, init: RequestInit = {}): Promise<Response> {
  const ctx = createExecutionContext();
  const res = await testApp.fetch(new Request(`${API}${path}`, init), env, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}
