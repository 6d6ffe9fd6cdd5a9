import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { expectJson, expectProblem, newTenant } from "../../helpers/harness";
import {
  createRulebook,
  listAllRulebooks,
  patchRulebook,
  type Rulebook,
  rulebookBody,
} from "./bodies";

async function rulebookCount(workspaceId: string): Promise<number> {
  const row = await env.DB.prepare("SELECT count(*) AS n FROM rulebooks WHERE workspace_id = ?")
    .bind(workspaceId)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

describe("rulebooks: refused requests change nothing", () => {
  it("answers 400 naming a repeated rule id, and stores nothing", async () => {
    const { api, workspaceId } = await newTenant(["MANAGE_RULEBOOKS"]);
    const rules = [
      { id: "a", title: "One" },
      { id: "b", title: "Two" },
      { id: "a", title: "Three" },
    ];
    const problem = await expectProblem(
      await api.post("/rulebooks", rulebookBody({ rules })),
      400,
      "invalid-request",
    );
    expect(problem.errors?.map((e) => e.path)).toEqual(["rules[2].id"]);
    expect(problem.errors?.[0]?.message).toContain('"a"');
    expect(await rulebookCount(workspaceId)).toBe(0);
  });

  it("answers 400 naming each bad field of a create", async () => {
    const { api } = await newTenant(["MANAGE_RULEBOOKS"]);
    const cases: [Record<string, unknown>, string][] = [
      [{ name: "  " }, "name"],
      [{ name: undefined }, "name"],
      [{ rules: undefined }, "rules"],
      [{ rules: [{ id: "x", title: "" }] }, "rules[0].title"],
      [{ rules: [{ id: "has space", title: "T" }] }, "rules[0].id"],
      [{ rules: [{ id: "x", title: "T", version: 3 }] }, "rules[0].version"],
      [{ rules: [{ id: "x", title: "T", severity: "urgent" }] }, "rules[0].severity"],
      [{ rules: [{ id: "x", title: "T", kind: "risk" }] }, "rules[0].kind"],
      [{ content: "x".repeat(20_001) }, "content"],
      [{ owner_id: "user_x" }, "owner_id"],
    ];
    for (const [overrides, path] of cases) {
      const body = rulebookBody(overrides);
      const problem = await expectProblem(
        await api.post("/rulebooks", body),
        400,
        "invalid-request",
      );
      expect(
        problem.errors?.map((e) => e.path),
        JSON.stringify(body),
      ).toContain(path);
    }
  });

  it("answers 400 for an empty PATCH and for a repeated id, and keeps the rulebook", async () => {
    const { api } = await newTenant(["MANAGE_RULEBOOKS"]);
    const created = await createRulebook(api);
    await expectProblem(await patchRulebook(api, created.id, {}), 400, "invalid-request");
    const problem = await expectProblem(
      await patchRulebook(api, created.id, {
        rules: [
          { id: "x", title: "One" },
          { id: "x", title: "Two" },
        ],
      }),
      400,
      "invalid-request",
    );
    expect(problem.errors?.map((e) => e.path)).toEqual(["rules[1].id"]);
    expect(await expectJson(await api.get(`/rulebooks/${created.id}`), 200)).toEqual(created);
  });

  it("answers 403 for changing or deleting a shared template, which stays as it was", async () => {
    const { api } = await newTenant(["MANAGE_RULEBOOKS"]);
    const template = (await listAllRulebooks(api)).find((r) => r.is_template);
    if (!template) throw new Error("no template shipped");
    await expectProblem(
      await patchRulebook(api, template.id, { name: "Mine now" }),
      403,
      "forbidden",
    );
    await expectProblem(await api.request("DELETE", `/rulebooks/${template.id}`), 403, "forbidden");
    expect(await expectJson<Rulebook>(await api.get(`/rulebooks/${template.id}`), 200)).toEqual(
      template,
    );
  });

  it("answers 404 for unknown and deleted rulebooks on every operation", async () => {
    const { api } = await newTenant(["MANAGE_RULEBOOKS"]);
    const deleted = await createRulebook(api);
    expect((await api.request("DELETE", `/rulebooks/${deleted.id}`)).status).toBe(204);
    for (const id of ["rb_00000000000000000000000000", deleted.id]) {
      await expectProblem(await api.get(`/rulebooks/${id}`), 404, "resource-not-found");
      await expectProblem(await patchRulebook(api, id, { name: "x" }), 404, "resource-not-found");
      await expectProblem(
        await api.request("DELETE", `/rulebooks/${id}`),
        404,
        "resource-not-found",
      );
    }
  });
});
