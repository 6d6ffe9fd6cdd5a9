import { env } from "cloudflare:workers";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { expectProblem, newTenant } from "../../helpers/harness";
import { createRulebook, listAllRulebooks, TEMPLATE_KEYS } from "./bodies";

describe("GET /rulebooks paging", () => {
  it("visits every rulebook once, most recently updated first, for any count and limit", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 12 }),
        fc.integer({ min: 1, max: 6 }),
        fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 12, maxLength: 12 }),
        async (count, limit, stamps) => {
          const { api } = await newTenant(["MANAGE_RULEBOOKS"]);
          const ids: string[] = [];
          for (let i = 0; i < count; i++)
            ids.push((await createRulebook(api, { name: `R${i}` })).id);
          // Few distinct update times, so ties on updated_at are common and ids must break them.
          for (const [i, id] of ids.entries()) {
            await env.DB.prepare("UPDATE rulebooks SET updated_at = ? WHERE id = ?")
              .bind(`2030-01-0${(stamps[i] ?? 0) + 1}T00:00:00.000Z`, id)
              .run();
          }
          const listed = await listAllRulebooks(api, limit);
          const own = listed.filter((r) => !r.is_template);
          const expected = ids
            .map((id, i) => ({ id, at: stamps[i] ?? 0 }))
            .sort((a, b) => b.at - a.at || (a.id < b.id ? 1 : -1))
            .map((r) => r.id);
          expect(own.map((r) => r.id)).toEqual(expected);
          expect(
            listed
              .slice(count)
              .map((r) => r.template_key)
              .sort(),
          ).toEqual([...TEMPLATE_KEYS].sort());
        },
      ),
      { numRuns: 12 },
    );
  });

  it("refuses a cursor of another owner's list", async () => {
    const { api, workspaceId } = await newTenant(["MANAGE_RULEBOOKS"]);
    const page = await (await api.get("/rulebooks?limit=1")).json<{ next_cursor: string }>();
    const other = await newTenant(["MANAGE_RULEBOOKS"]);
    const problem = await expectProblem(
      await other.api.get(`/rulebooks?cursor=${encodeURIComponent(page.next_cursor)}`),
      400,
      "invalid-request",
    );
    expect(problem.errors?.map((e) => e.path)).toEqual(["cursor"]);
    expect(workspaceId).not.toBe(other.workspaceId);
  });
});
