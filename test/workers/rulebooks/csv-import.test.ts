import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { admin, client, expectJson, expectProblem, newTenant } from "../../helpers/harness";
import type { Rulebook } from "./bodies";
import { type ImportResult, importCsv, preview } from "./csv";

const FILE = [
  "Rulebook;Rule ID;Title;Description;Severity;Owner;Reference",
  'Dock;dock-1;Doors closed;"Only open\nwhile a trailer is docked";High;Ops;',
  "Dock;dock-2;Wheels chocked;;;Ops;OSHA 1910.178",
  ";gen-1;Exits clear;Nothing blocks an exit;critical;;",
  "Brand;brand-1;No profanity;;low;Marketing;",
].join("\n");

const MAPPING = {
  rulebook_name: "Rulebook",
  rule_id: "Rule ID",
  rule_title: "Title",
  rule_description: "Description",
  rule_severity: "Severity",
  additional_description_columns: ["Owner", "Reference"],
};

async function ownRulebookCount(workspaceId: string): Promise<number> {
  const row = await env.DB.prepare("SELECT count(*) AS n FROM rulebooks WHERE workspace_id = ?")
    .bind(workspaceId)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

describe("POST /rulebooks/csv-imports", () => {
  it("creates one rulebook per name, in order, with additional columns as description lines", async () => {
    const { api, keyId } = await newTenant(["MANAGE_RULEBOOKS"]);
    const { session_id } = await preview(api, FILE);
    const result = await expectJson<ImportResult>(
      await importCsv(api, { session_id, default_rulebook_name: "General", mapping: MAPPING }),
      201,
    );
    expect(result.created_count).toBe(3);
    expect(result.rulebooks.map((r) => r.name)).toEqual(["Dock", "General", "Brand"]);
    expect(result.rulebooks[0]?.rules).toEqual([
      {
        id: "dock-1",
        title: "Doors closed",
        description: "Only open\nwhile a trailer is docked\nOwner: Ops",
        severity: "high",
        kind: "requirement",
        version: 1,
      },
      {
        id: "dock-2",
        title: "Wheels chocked",
        description: "Owner: Ops\nReference: OSHA 1910.178",
        severity: null,
        kind: "requirement",
        version: 1,
      },
    ]);
    expect(result.rulebooks[1]?.rules.map((r) => [r.id, r.severity])).toEqual([
      ["gen-1", "critical"],
    ]);
    for (const rulebook of result.rulebooks) {
      expect(rulebook).toMatchObject({ created_by: keyId, is_template: false, can_edit: true });
      expect(await expectJson<Rulebook>(await api.get(`/rulebooks/${rulebook.id}`), 200)).toEqual(
        rulebook,
      );
    }
  });

  it("numbers rules when no id column is mapped and puts every row in the default rulebook", async () => {
    const { api } = await newTenant(["MANAGE_RULEBOOKS"]);
    const { session_id } = await preview(api, "title\nFirst\nSecond\n");
    const result = await expectJson<ImportResult>(
      await importCsv(api, {
        session_id,
        default_rulebook_name: "Mine",
        mapping: { rule_title: "title" },
      }),
      201,
    );
    expect(result.rulebooks.map((r) => [r.name, r.rules.map((rule) => rule.id)])).toEqual([
      ["Mine", ["rule-1", "rule-2"]],
    ]);
  });

  it("imports 10,000 rows into 10 rulebooks in one go", async () => {
    const { api, workspaceId } = await newTenant(["MANAGE_RULEBOOKS"]);
    const lines = ["book,id,title,description"];
    for (let i = 0; i < 10_000; i++) lines.push(`Book ${i % 10},r${i},Rule ${i},Check number ${i}`);
    const { session_id } = await preview(api, lines.join("\n"));
    const result = await expectJson<ImportResult>(
      await importCsv(api, {
        session_id,
        mapping: {
          rulebook_name: "book",
          rule_id: "id",
          rule_title: "title",
          rule_description: "description",
        },
      }),
      201,
    );
    expect(result.created_count).toBe(10);
    expect(result.rulebooks.every((r) => r.rules.length === 1000)).toBe(true);
    expect(result.rulebooks[3]?.rules[2]).toMatchObject({ id: "r23", title: "Rule 23" });
    expect(await ownRulebookCount(workspaceId)).toBe(10);
  });

  it("answers 400 listing every row problem by line and role, and creates nothing", async () => {
    const { api, workspaceId } = await newTenant(["MANAGE_RULEBOOKS"]);
    const csv =
      "book,id,title\nA,r1,One\nA,r1,Again\nB,r2,\nB,bad id,Three\nC,r3,x,extra\n,r4,No book\n";
    const { session_id } = await preview(api, csv);
    const problem = await expectProblem(
      await importCsv(api, {
        session_id,
        mapping: { rulebook_name: "book", rule_id: "id", rule_title: "title" },
      }),
      400,
      "invalid-request",
    );
    expect(problem.errors?.map((e) => e.path).sort()).toEqual(
      [
        "csv[6]",
        "csv[3].rule_id",
        "csv[4].rule_title",
        "csv[5].rule_id",
        "default_rulebook_name",
      ].sort(),
    );
    expect(problem.errors?.find((e) => e.path === "csv[3].rule_id")?.message).toContain("line 2");
    expect(await ownRulebookCount(workspaceId)).toBe(0);
  });

  it("reads an optional kind column, any case, a blank cell deciding from the title", async () => {
    const { api } = await newTenant(["MANAGE_RULEBOOKS"]);
    const file =
      "id,title,kind\nr1,Doors closed,Requirement\nr2,Forklift speeding,HAZARD\nr3,Trip hazard,\n";
    const { session_id } = await preview(api, file);
    const result = await expectJson<ImportResult>(
      await importCsv(api, {
        session_id,
        default_rulebook_name: "Dock",
        mapping: { rule_id: "id", rule_title: "title", rule_kind: "kind" },
      }),
      201,
    );
    expect(result.rulebooks[0]?.rules.map((r) => [r.id, r.kind])).toEqual([
      ["r1", "requirement"],
      ["r2", "hazard"],
      ["r3", "hazard"],
    ]);
    const bad = await preview(api, "id,title,kind\nr1,Doors closed,maybe\n");
    const problem = await expectProblem(
      await importCsv(api, {
        session_id: bad.session_id,
        default_rulebook_name: "Dock",
        mapping: { rule_id: "id", rule_title: "title", rule_kind: "kind" },
      }),
      400,
      "invalid-request",
    );
    expect(problem.errors?.map((e) => e.path)).toEqual(["csv[2].rule_kind"]);
  });

  it("answers 400 for a mapping naming an unknown column, naming the mapping field", async () => {
    const { api } = await newTenant(["MANAGE_RULEBOOKS"]);
    const { session_id } = await preview(api, "id,title\nr1,One\n");
    const cases: [Record<string, unknown>, string][] = [
      [{ rule_title: "Titel" }, "mapping.rule_title"],
      [{ rule_title: "title", rule_id: "ID" }, "mapping.rule_id"],
      [
        { rule_title: "title", additional_description_columns: ["id", "nope"] },
        "mapping.additional_description_columns[1]",
      ],
      [{ rule_id: "id" }, "mapping.rule_title"],
      [{ rule_title: "title", severity: "x" }, "mapping.severity"],
      [{ rule_title: "title", rule_kind: "Kind" }, "mapping.rule_kind"],
    ];
    for (const [mapping, path] of cases) {
      const problem = await expectProblem(
        await importCsv(api, { session_id, default_rulebook_name: "X", mapping }),
        400,
        "invalid-request",
      );
      expect(
        problem.errors?.map((e) => e.path),
        JSON.stringify(mapping),
      ).toContain(path);
    }
  });

  it("answers 404 for unknown sessions and sessions of another owner, 410 once expired", async () => {
    const { api, workspaceId } = await newTenant(["MANAGE_RULEBOOKS"]);
    const body = (session_id: string) => ({
      session_id,
      default_rulebook_name: "X",
      mapping: { rule_title: "title" },
    });
    await expectProblem(
      await importCsv(api, body("rbi_00000000000000000000000000")),
      404,
      "resource-not-found",
    );
    const { session_id } = await preview(api, "title\nOne\n");
    const colleague = await expectJson<{ key: string }>(
      await admin("POST", "/keys", {
        workspace_id: workspaceId,
        type: "alpha",
        permissions: ["MANAGE_RULEBOOKS"],
      }),
      201,
    );
    await expectProblem(
      await importCsv(client(colleague.key), body(session_id)),
      404,
      "resource-not-found",
    );
    const other = await newTenant(["MANAGE_RULEBOOKS"]);
    await expectProblem(await importCsv(other.api, body(session_id)), 404, "resource-not-found");
    await env.DB.prepare("UPDATE rulebook_csv_imports SET expires_at = ? WHERE id = ?")
      .bind(new Date(Date.now() - 1).toISOString(), session_id)
      .run();
    await expectProblem(await importCsv(api, body(session_id)), 410, "csv-import-expired");
    expect(await ownRulebookCount(workspaceId)).toBe(0);
  });

  it("writes all rulebooks or none when the database refuses one of them", async () => {
    const { api, workspaceId } = await newTenant(["MANAGE_RULEBOOKS"]);
    // A trigger stands in for any failure inside the batch, on the third rulebook written.
    await env.DB.prepare(
      "CREATE TRIGGER IF NOT EXISTS refuse_boom BEFORE INSERT ON rulebooks WHEN NEW.name = 'Boom' BEGIN SELECT RAISE(ABORT, 'refused'); END",
    ).run();
    const { session_id } = await preview(api, "book,title\nA,One\nB,Two\nBoom,Three\n");
    const res = await importCsv(api, {
      session_id,
      mapping: { rulebook_name: "book", rule_title: "title" },
    });
    expect(res.status, await res.text()).toBe(500);
    expect(await ownRulebookCount(workspaceId)).toBe(0);
    const orphans = await env.DB.prepare(
      "SELECT (SELECT count(*) FROM rule_set_versions WHERE rulebook_id NOT IN (SELECT id FROM rulebooks)) + (SELECT count(*) FROM rules WHERE rule_set_version_id NOT IN (SELECT id FROM rule_set_versions)) AS n",
    ).first<{ n: number }>();
    expect(orphans?.n).toBe(0);
    await env.DB.prepare("DROP TRIGGER refuse_boom").run();
  });

  it("replays an import sent again with the same Idempotency-Key, creating once", async () => {
    const { api, workspaceId } = await newTenant(["MANAGE_RULEBOOKS"]);
    const { session_id } = await preview(api, "title\nOne\n");
    const body = { session_id, default_rulebook_name: "Once", mapping: { rule_title: "title" } };
    const headers = { "Idempotency-Key": "import-once" };
    const first = await expectJson<ImportResult>(
      await api.post("/rulebooks/csv-imports", body, headers),
      201,
    );
    const again = await api.post("/rulebooks/csv-imports", body, headers);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await expectJson<ImportResult>(again, 201)).toEqual(first);
    expect(await ownRulebookCount(workspaceId)).toBe(1);
  });
});
