import { describe, expect, it } from "vitest";
import { DEFAULT_RATE_LIMITS, RATE_CLASSES, type RateClass } from "../../../src/domain/rate-limits";
import {
  admin,
  client,
  createKey,
  createWorkspace,
  expectJson,
  newTenant,
  ORIGIN,
  workerFetch,
} from "../../helpers/harness";
import { concretePath } from "../../helpers/security";

/** The RateLimit fields of draft-ietf-httpapi-ratelimit-headers-11, one policy each. */
const POLICY = /^"(reads|writes|search|uploads)";q=(\d+);w=60$/;
const LIMIT = /^"(reads|writes|search|uploads)";r=(\d+);t=(\d+)$/;

function fields(res: Response) {
  const policy = res.headers.get("ratelimit-policy")?.match(POLICY);
  const limit = res.headers.get("ratelimit")?.match(LIMIT);
  return {
    policyClass: policy?.[1],
    quota: Number(policy?.[2]),
    limitClass: limit?.[1],
    remaining: Number(limit?.[2]),
    resetSeconds: Number(limit?.[3]),
  };
}

type DocumentedResponses = Record<string, { headers?: Record<string, { $ref?: string }> }>;

interface DocumentedOperation {
  method: string;
  path: string;
  rateClass: string | undefined;
  responses: DocumentedResponses;
}

async function documentedOperations(): Promise<DocumentedOperation[]> {
  const doc = await expectJson<{
    paths: Record<
      string,
      Record<string, { "x-rate-limit-class"?: string; responses: DocumentedResponses }>
    >;
  }>(await client(null).get("/openapi.json"), 200);
  return Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({
      method: method.toUpperCase(),
      path,
      rateClass: operation["x-rate-limit-class"],
      responses: operation.responses,
    })),
  );
}

/** The header names a documented response lists. */
function documentedHeaders(responses: DocumentedResponses, status: string): string[] {
  return Object.keys(responses[status]?.headers ?? {}).sort();
}

describe("RateLimit fields", () => {
  it("come with every answer to an authenticated request, counting down within the window", async () => {
    const { api } = await newTenant(["READ_VIDEOS"]);
    const answers = [
      await api.get("/videos"),
      await api.get("/videos?limit=500"),
      await api.get("/videos/vid_00000000000000000000000000"),
      await api.get("/no-such-route"),
      await api.get("/runs"),
    ];
    expect(answers.map((res) => res.status)).toEqual([200, 400, 404, 404, 403]);
    answers.forEach((res, i) => {
      expect(fields(res), `answer ${i}`).toEqual({
        policyClass: "reads",
        quota: DEFAULT_RATE_LIMITS.reads,
        limitClass: "reads",
        remaining: DEFAULT_RATE_LIMITS.reads - 1 - i,
        resetSeconds: expect.any(Number),
      });
      const { resetSeconds } = fields(res);
      expect(resetSeconds).toBeGreaterThanOrEqual(1);
      expect(resetSeconds).toBeLessThanOrEqual(60);
    });
  });

  it("name the class of a write, a search and an upload, each counted on its own", async () => {
    const { api } = await newTenant();
    const write = await api.post("/profiles", { name: "" });
    const search = await api.post("/search", { query: "loading dock" });
    const upload = await api.post("/videos", { filename: "a.mp4", file_size: 1024 });
    expect([write.status, search.status, upload.status]).toEqual([400, 200, 201]);
    expect(fields(write)).toMatchObject({ limitClass: "writes", quota: 1200, remaining: 1199 });
    expect(fields(search)).toMatchObject({ limitClass: "search", quota: 1200, remaining: 1199 });
    expect(fields(upload)).toMatchObject({ limitClass: "uploads", quota: 1200, remaining: 1199 });
  });

  it("are not on an unauthenticated answer, the admin API, health, the document or the docs", async () => {
    const unauthenticated = await client(null).get("/videos");
    expect(unauthenticated.status).toBe(401);
    const others = [
      unauthenticated,
      await admin("GET", "/workspaces"),
      await workerFetch(`${ORIGIN}/healthz`),
      await client(null).get("/openapi.json"),
      await workerFetch(`${ORIGIN}/docs`),
    ];
    for (const res of others) {
      expect(res.headers.get("ratelimit"), res.url).toBeNull();
      expect(res.headers.get("ratelimit-policy"), res.url).toBeNull();
    }
  });

  it("name, for every operation of the document, the class it documents with its 429", async () => {
    const operations = await documentedOperations();
    const workspace = await createWorkspace();
    // A key without permissions: every operation answers 403 and changes nothing.
    const api = client((await createKey(workspace.id, { permissions: [] })).key);
    const counted = new Map<RateClass, number>();
    for (const { method, path, rateClass, responses } of operations) {
      expect(RATE_CLASSES, `${method} ${path}`).toContain(rateClass);
      expect(documentedHeaders(responses, "429"), `${method} ${path}`).toEqual(
        expect.arrayContaining(["RateLimit", "RateLimit-Policy", "Retry-After"]),
      );
      for (const status of Object.keys(responses).filter((code) => code.startsWith("2")))
        expect(documentedHeaders(responses, status), `${method} ${path} ${status}`).toEqual(
          expect.arrayContaining(["RateLimit", "RateLimit-Policy"]),
        );
      const res = await api.request(method, concretePath(path), {
        ...(method === "GET" || method === "DELETE" ? {} : { body: {} }),
      });
      expect(res.status, `${method} ${path}`).toBe(403);
      const seen = fields(res);
      expect(seen.limitClass, `${method} ${path}`).toBe(rateClass);
      const name = rateClass as RateClass;
      counted.set(name, (counted.get(name) ?? 0) + 1);
      expect(seen.remaining, `${method} ${path}`).toBe(
        DEFAULT_RATE_LIMITS[name] - (counted.get(name) ?? 0),
      );
    }
    expect([...counted.keys()].sort()).toEqual([...RATE_CLASSES].sort());
  });
});
