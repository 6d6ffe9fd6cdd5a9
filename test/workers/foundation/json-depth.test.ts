import { env } from "cloudflare:workers";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { jsonDepth, MAX_JSON_DEPTH } from "../../../src/middleware/json-depth";
import { admin, expectProblem, newTenant, ORIGIN, workerFetch } from "../../helpers/harness";
import { alphaOperations, concretePath } from "../../helpers/security";

// Deeply nested JSON overflowed the stack of recursive input checks (a 500 on every JSON
// operation). The depth is bounded before anything parses the body.
const WITH_BODY = new Set(["POST", "PUT", "PATCH"]);
const alpha = (await alphaOperations()).filter((op) => WITH_BODY.has(op.method));

interface AdminDoc {
  paths: Record<string, Record<string, unknown>>;
}
const adminDoc = (await (await admin("GET", "/openapi.json")).json()) as AdminDoc;
const adminOps = Object.entries(adminDoc.paths).flatMap(([path, methods]) =>
  Object.keys(methods)
    .map((method) => ({ method: method.toUpperCase(), path }))
    .filter((op) => WITH_BODY.has(op.method)),
);

/** Arrays and objects nested `depth` deep around a number, each level chosen by `shape`. */
function nested(depth: number, shape: (level: number) => "array" | "object" = () => "array") {
  let open = "";
  let close = "";
  for (let level = 0; level < depth; level++) {
    const isArray = shape(level) === "array";
    open += isArray ? "[" : '{"k":';
    close = (isArray ? "]" : "}") + close;
  }
  return `${open}1${close}`;
}

/** The depth a parsed value has, counted the way the bound counts it. */
function depthOf(value: unknown): number {
  if (Array.isArray(value)) return 1 + Math.max(0, ...value.map(depthOf));
  if (typeof value === "object" && value !== null) {
    return 1 + Math.max(0, ...Object.values(value).map(depthOf));
  }
  return 0;
}

function sendAlpha(key: string, op: { method: string; path: string }, body: string) {
  return workerFetch(`${ORIGIN}/api/v1alpha1${concretePath(op.path)}`, {
    method: op.method,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body,
  });
}

function sendAdmin(op: { method: string; path: string }, body: string) {
  return workerFetch(`${ORIGIN}/admin/v1${concretePath(op.path)}`, {
    method: op.method,
    headers: { authorization: `Bearer ${env.ADMIN_TOKEN}`, "content-type": "application/json" },
    body,
  });
}

async function expectDepthRefused(res: Response) {
  const problem = await expectProblem(res, 400, "invalid-request");
  expect(problem.errors).toEqual([{ path: "body", message: expect.stringContaining("64") }]);
  expect(problem.detail).toContain(`deeper than ${MAX_JSON_DEPTH} levels`);
}

describe("the JSON depth bound", () => {
  const deep = nested(3000, (level) => (level % 2 === 0 ? "array" : "object"));

  it("covers the operations that take a body", () => {
    expect(alpha.length).toBeGreaterThan(25);
    expect(adminOps.length).toBeGreaterThan(2);
    expect(deep.length).toBeLessThan(16 * 1024);
  });

  it.each(alpha)("answers 400 naming the limit for 3,000 levels on $method $path", async (op) => {
    const { api } = await newTenant();
    await expectDepthRefused(await sendAlpha(api.key, op, deep));
  });

  it.each(adminOps)("answers 400 naming the limit on the admin API's $method $path", async (op) => {
    await expectDepthRefused(await sendAdmin(op, deep));
  });

  it("lets 64 levels through to validation and refuses 65", async () => {
    const { api } = await newTenant();
    const search = { method: "POST", path: "/search" };
    const body = (depth: number) => `{"query":"dock","extra":${nested(depth - 1)}}`;
    const within = await expectProblem(
      await sendAlpha(api.key, search, body(64)),
      400,
      "invalid-request",
    );
    expect(within.errors?.map((e) => e.path)).toEqual(["extra"]);
    await expectDepthRefused(await sendAlpha(api.key, search, body(65)));
  });

  it("does not count brackets inside strings", async () => {
    const { api } = await newTenant();
    const res = await sendAlpha(
      api.key,
      { method: "POST", path: "/search" },
      JSON.stringify({ query: `dock ${"[{".repeat(400)} \\" ]]` }),
    );
    expect(res.status, await res.clone().text()).toBe(200);
  });

  it("counts depth as a parser would, for any JSON value", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 12 }), (value) => {
        expect(jsonDepth(JSON.stringify(value))).toBe(depthOf(value));
      }),
      { numRuns: 300 },
    );
  });

  it("never answers 5xx for arbitrary nested JSON on any operation", async () => {
    const { api } = await newTenant();
    const body = fc.oneof(
      fc
        .tuple(fc.integer({ min: 1, max: 5000 }), fc.array(fc.boolean(), { minLength: 1 }))
        .map(([depth, shapes]) =>
          nested(depth, (level) => (shapes[level % shapes.length] ? "array" : "object")),
        ),
      fc.jsonValue({ maxDepth: 8 }).map((value) => JSON.stringify(value)),
      fc.integer({ min: 1, max: 5000 }).map((depth) => "[".repeat(depth)),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...alpha), body, async (op, text) => {
        const res = await sendAlpha(api.key, op, text);
        const answer = await res.text();
        expect(res.status, `${op.method} ${op.path}: ${answer}`).toBeLessThan(500);
        if (jsonDepth(text) > MAX_JSON_DEPTH) expect(res.status, answer).toBe(400);
      }),
      { numRuns: 120 },
    );
  });
});
