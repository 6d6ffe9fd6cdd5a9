import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminClient, newTenant } from "../local-client";
import { freePort, LocalProcess } from "../local-process";

// Generated bad input over every operation of the OpenAPI document, against the real local
// process: whatever arrives, the answer is never a 5xx, and every error is a problem document.
const ADMIN_TOKEN = "reliability-admin-token";
/** Requests in CI; `FUZZ_RUNS` raises it (`npm run bench -- fuzz`). */
const TOTAL_RUNS = Number(process.env.FUZZ_RUNS ?? 300);
let service: LocalProcess;
let baseUrl: string;
let stateDir: string;

beforeAll(async () => {
  stateDir = mkdtempSync(path.join(tmpdir(), "vas-fuzz-"));
  service = new LocalProcess(await freePort(), { STATE_DIR: stateDir, ADMIN_TOKEN });
  baseUrl = service.baseUrl;
  await service.start();
});

afterAll(async () => {
  await service.stop("SIGTERM");
  rmSync(stateDir, { recursive: true, force: true });
});

interface Operation {
  method: string;
  path: string;
  pathParams: string[];
  queryParams: string[];
  hasBody: boolean;
}

type OpenApiDoc = {
  paths: Record<
    string,
    Record<string, { parameters?: { name: string; in: string }[]; requestBody?: unknown }>
  >;
};

function operations(doc: OpenApiDoc): Operation[] {
  const list: Operation[] = [];
  for (const [route, methods] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const parameters = operation.parameters ?? [];
      list.push({
        method: method.toUpperCase(),
        path: route,
        pathParams: parameters.filter((p) => p.in === "path").map((p) => p.name),
        queryParams: parameters.filter((p) => p.in === "query").map((p) => p.name),
        hasBody: operation.requestBody !== undefined,
      });
    }
  }
  return list;
}

/** Strings that have broken parsers before: numbers in other bases, escapes, huge, empty. */
const nastyString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 20 }),
  fc.constantFrom("0x10", "1e2", "-1", "0", "NaN", "%ZZ", "%00", "../..", "a/b", "[]", "{}"),
  fc.constantFrom("\ud800x", "null", "true", " ", "9".repeat(400), "x".repeat(5000)),
);

/** Nesting up to far past the depth bound (64): closed or not, arrays, objects or both. */
const deepBody = fc
  .tuple(
    fc.integer({ min: 1, max: 5000 }),
    fc.constantFrom(["[", "]"], ['{"a":', "}"], ['[{"a":', "}]"]),
    fc.boolean(),
  )
  .map(([depth, [open, close], closed]) => {
    const tail = closed ? close.repeat(depth) : "";
    return `${open.repeat(depth)}1${tail}`;
  });

const badBody = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value)),
  deepBody,
  fc
    .dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 2 }))
    .map((v) => JSON.stringify(v)),
  nastyString,
  fc.constant(""),
);

/** Percent-encodes a path segment; a lone surrogate has no UTF-8, so it becomes raw bytes. */
function pathSegment(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return "%ED%A0%80";
  }
}

function requestFor(op: Operation) {
  return fc.record({
    pathValues: fc.array(nastyString, {
      minLength: op.pathParams.length,
      maxLength: op.pathParams.length,
    }),
    query: fc.array(
      fc.tuple(fc.oneof(fc.constantFrom(...op.queryParams, "limit[]"), nastyString), nastyString),
      { maxLength: 4 },
    ),
    body: op.hasBody || op.method !== "GET" ? fc.option(badBody) : fc.constant(null),
    contentType: fc.constantFrom("application/json", "text/plain", "application/json; x=1"),
  });
}

/** The run's time grows with its size: 3,000 requests outlast the suite's two-minute default. */
const FUZZ_TIMEOUT_MS = 60_000 + TOTAL_RUNS * 300;

describe("generated bad input over every operation", () => {
  it("never answers 5xx and always answers errors with a problem document", {
    timeout: FUZZ_TIMEOUT_MS,
  }, async () => {
    const { key, api: client } = await newTenant(adminClient(service, ADMIN_TOKEN), "fuzz");
    const api = client.root;
    const doc = (await (await fetch(`${api}/openapi.json`)).json()) as OpenApiDoc;
    const ops = operations(doc);
    expect(ops.length).toBeGreaterThan(10);
    const runsPerOperation = Math.max(3, Math.ceil(TOTAL_RUNS / ops.length));
    for (const op of ops) {
      await fc.assert(
        fc.asyncProperty(requestFor(op), async ({ pathValues, query, body, contentType }) => {
          let route = op.path;
          op.pathParams.forEach((name, i) => {
            route = route.replace(`{${name}}`, pathSegment(pathValues[i] ?? ""));
          });
          const search = new URLSearchParams(query).toString();
          const url = `${api}${route}${search ? `?${search}` : ""}`;
          const res = await fetch(url, {
            method: op.method,
            headers: { authorization: `Bearer ${key}`, "content-type": contentType },
            body: op.method === "GET" || op.method === "HEAD" || body === null ? null : body,
          });
          const text = await res.text();
          const where = `${op.method} ${url} ${String(body).slice(0, 200)} → ${res.status} ${text.slice(0, 300)}`;
          expect(res.status, where).toBeLessThan(500);
          if (res.status >= 400) {
            expect(res.headers.get("content-type"), where).toMatch(/^application\/problem\+json/);
            const problem = JSON.parse(text) as Record<string, unknown>;
            expect(problem, where).toMatchObject({ status: res.status });
            expect(typeof problem.code, where).toBe("string");
            expect(typeof problem.title, where).toBe("string");
          }
        }),
        { numRuns: runsPerOperation },
      );
    }
  });
});

describe("nesting on the admin API", () => {
  it("never answers 5xx, whatever the depth", async () => {
    const doc = (await (
      await fetch(`${baseUrl}/admin/v1/openapi.json`, {
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      })
    ).json()) as OpenApiDoc;
    const ops = operations(doc).filter((op) => op.method !== "GET" && op.method !== "DELETE");
    expect(ops.length).toBeGreaterThan(2);
    for (const op of ops) {
      await fc.assert(
        fc.asyncProperty(deepBody, async (body) => {
          const route = op.path.replace(/\{[^}]+\}/g, "x_00000000000000000000000000");
          const res = await fetch(`${baseUrl}/admin/v1${route}`, {
            method: op.method,
            headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
            body,
          });
          const text = await res.text();
          expect(res.status, `${op.method} ${route} ${body.slice(0, 40)} → ${text}`).toBeLessThan(
            500,
          );
        }),
        { numRuns: 10 },
      );
    }
  });
});

describe("concurrent creates", () => {
  it("lists every acknowledged create exactly once", async () => {
    const { api: client } = await newTenant(adminClient(service, ADMIN_TOKEN), "lost writes");
    const api = client.root;
    const { headers } = client;
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        fetch(`${api}/videos`, {
          method: "POST",
          headers,
          body: JSON.stringify({ filename: `parallel-${i}.mp4`, file_size: 1000 + i }),
        }).then(async (res) => ({ status: res.status, body: await res.json() })),
      ),
    );
    const acknowledged = answers
      .filter((answer) => answer.status === 201)
      .map((answer) => (answer.body as { video_id: string }).video_id);
    expect(acknowledged.length, JSON.stringify(answers.filter((a) => a.status !== 201))).toBe(40);
    const listed: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : "";
      const page = (await (await fetch(`${api}/videos?limit=7${query}`, { headers })).json()) as {
        data: { id: string }[];
        next_cursor: string | null;
      };
      listed.push(...page.data.map((video) => video.id));
      cursor = page.next_cursor;
    } while (cursor !== null);
    expect([...listed].sort()).toEqual([...acknowledged].sort());
  });
});
