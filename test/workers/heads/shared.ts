// What the profile and report template tests share: both are versioned heads (the spec's Profile
// and report template heads section) with the same head shape, the same operations and the same
// version allocation.
import { env } from "cloudflare:workers";
import fc from "fast-check";
import { beforeAll, expect, it } from "vitest";
import { type Client, expectJson, expectProblem, newTenant } from "../../helpers/harness";

/** A head as the API answers it (`latest` on single reads and changes). */
export interface Head<Version> {
  id: string;
  name: string | null;
  description: string | null;
  status: "active" | "archived";
  anonymous: boolean;
  latest_version: number;
  created_by: string;
  updated_by: string;
  created_at: string;
  updated_at: string;
  latest?: Version;
}

/** A paged list of heads. */
export interface HeadPage<Version> {
  data: Head<Version>[];
  has_more: boolean;
  next_cursor: string | null;
}

/** A body of the tests: any JSON object, valid or not. */
type Body = Record<string, unknown>;

/** Every id `GET {path}` lists for `query`, following the cursors `limit` at a time. */
export async function listAll(
  api: Client,
  path: string,
  query: string,
  limit: number,
): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const after: string = cursor === null ? "" : `&cursor=${encodeURIComponent(cursor)}`;
    const page: HeadPage<unknown> = await expectJson<HeadPage<unknown>>(
      await api.get(`${path}?limit=${limit}${query}${after}`),
      200,
    );
    expect(page.has_more).toBe(page.next_cursor !== null);
    ids.push(...page.data.map((head) => head.id));
    cursor = page.next_cursor;
  } while (cursor !== null);
  return ids;
}

/**
 * Registers the two validation tests of a create body table: each body answers 400 naming
 * exactly its broken field, and so does its version part (head fields left out) on a new
 * version of a valid head.
 */
export function itNamesEachBrokenField(
  path: string,
  invalidBodies: [string, Body][],
  validBody: () => Body,
): void {
  let api: Client;
  let headId: string;
  beforeAll(async () => {
    ({ api } = await newTenant(["RUN_WORKFLOWS"]));
    headId = (await expectJson<{ id: string }>(await api.post(path, validBody()), 201)).id;
  });

  it.each(invalidBodies)("names %s", async (field, body) => {
    const problem = await expectProblem(await api.post(path, body), 400, "invalid-request");
    expect(problem.errors?.map((e) => e.path)).toEqual([field]);
  });

  it.each(invalidBodies.filter(([field]) => !["name", "description"].includes(field)))(
    "names %s on a new version too",
    async (field, body) => {
      const { name: _name, description: _description, ...version } = body;
      const problem = await expectProblem(
        await api.post(`${path}/${headId}/versions`, version),
        400,
        "invalid-request",
      );
      expect(problem.errors?.map((e) => e.path)).toEqual([field]);
    },
  );
}

/** Where a resource keeps its versions, and valid bodies for it. */
export interface VersionedResource {
  /** `/profiles` */
  path: string;
  /** `profile_versions` */
  versionTable: string;
  /** `profile_id` */
  headColumn: string;
  createBody: () => Body;
  versionBody: (n: number) => Body;
}

/**
 * Checks that N parallel appends onto version 1 get the versions 2..N+1 with no gap and no
 * duplicate, each holding the content its own request sent.
 */
export async function expectConsecutiveParallelAppends(resource: VersionedResource) {
  const { path } = resource;
  const { api } = await newTenant(["RUN_WORKFLOWS"]);
  await fc.assert(
    fc.asyncProperty(fc.integer({ min: 1, max: 24 }), async (n) => {
      const head = await expectJson<Head<unknown>>(
        await api.post(path, resource.createBody()),
        201,
      );
      const created = await Promise.all(
        Array.from({ length: n }, async (_, i) =>
          expectJson<{ version: number }>(
            await api.post(`${path}/${head.id}/versions`, resource.versionBody(i)),
            201,
          ),
        ),
      );
      const expected = Array.from({ length: n }, (_, i) => i + 2);
      expect(created.map((v) => v.version).sort((a, b) => a - b)).toEqual(expected);
      // Each request got the version holding its own content.
      for (const version of created) {
        const stored = await expectJson(
          await api.get(`${path}/${head.id}/versions/${version.version}`),
          200,
        );
        expect(stored).toEqual(version);
      }
      const rows = await env.DB.prepare(
        `SELECT version FROM ${resource.versionTable} WHERE ${resource.headColumn} = ? ` +
          "ORDER BY version",
      )
        .bind(head.id)
        .all<{ version: number }>();
      expect(rows.results.map((row) => row.version)).toEqual([1, ...expected]);
      const after = await expectJson<Head<unknown>>(await api.get(`${path}/${head.id}`), 200);
      expect(after.latest_version).toBe(n + 1);
    }),
    { numRuns: 10 },
  );
}
