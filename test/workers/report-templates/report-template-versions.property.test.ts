import { env } from "cloudflare:workers";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { expectJson, newTenant } from "../../helpers/harness";
import { createBody, type Template, type TemplateVersion, versionBody } from "./bodies";

describe("POST /report-templates/{report_template_id}/versions under concurrency", () => {
  it("gives N parallel appends the versions 2..N+1, with no gap and no duplicate", async () => {
    const { api } = await newTenant(["RUN_WORKFLOWS"]);
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 24 }), async (n) => {
        const head = await expectJson<Template>(
          await api.post("/report-templates", createBody()),
          201,
        );
        const created = await Promise.all(
          Array.from({ length: n }, async (_, i) =>
            expectJson<TemplateVersion>(
              await api.post(`/report-templates/${head.id}/versions`, versionBody(i)),
              201,
            ),
          ),
        );
        const expected = Array.from({ length: n }, (_, i) => i + 2);
        expect(created.map((v) => v.version).sort((a, b) => a - b)).toEqual(expected);
        for (const version of created) {
          const stored = await expectJson<TemplateVersion>(
            await api.get(`/report-templates/${head.id}/versions/${version.version}`),
            200,
          );
          expect(stored).toEqual(version);
        }
        const rows = await env.DB.prepare(
          "SELECT version FROM report_template_versions WHERE report_template_id = ? ORDER BY version",
        )
          .bind(head.id)
          .all<{ version: number }>();
        expect(rows.results.map((row) => row.version)).toEqual([1, ...expected]);
        const after = await expectJson<Template>(
          await api.get(`/report-templates/${head.id}`),
          200,
        );
        expect(after.latest_version).toBe(n + 1);
      }),
      { numRuns: 10 },
    );
  });
});
