import { env } from "cloudflare:workers";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { expectJson, newTenant } from "../../helpers/harness";
import { createBody, type Profile, type ProfileVersion, versionBody } from "./bodies";

describe("POST /profiles/{profile_id}/versions under concurrency", () => {
  it("gives N parallel appends the versions 2..N+1, with no gap and no duplicate", async () => {
    const { api } = await newTenant(["RUN_WORKFLOWS"]);
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 24 }), async (n) => {
        const head = await expectJson<Profile>(await api.post("/profiles", createBody()), 201);
        const created = await Promise.all(
          Array.from({ length: n }, async (_, i) =>
            expectJson<ProfileVersion>(
              await api.post(`/profiles/${head.id}/versions`, versionBody(i)),
              201,
            ),
          ),
        );
        const expected = Array.from({ length: n }, (_, i) => i + 2);
        expect(created.map((v) => v.version).sort((a, b) => a - b)).toEqual(expected);
        // Each request got the version holding its own content.
        for (const version of created) {
          const stored = await expectJson<ProfileVersion>(
            await api.get(`/profiles/${head.id}/versions/${version.version}`),
            200,
          );
          expect(stored).toEqual(version);
        }
        const rows = await env.DB.prepare(
          "SELECT version FROM profile_versions WHERE profile_id = ? ORDER BY version",
        )
          .bind(head.id)
          .all<{ version: number }>();
        expect(rows.results.map((row) => row.version)).toEqual([1, ...expected]);
        const after = await expectJson<Profile>(await api.get(`/profiles/${head.id}`), 200);
        expect(after.latest_version).toBe(n + 1);
      }),
      { numRuns: 10 },
    );
  });
});
