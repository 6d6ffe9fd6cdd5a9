import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { expectJson, newTenant } from "../../helpers/harness";
import {
  createRulebook,
  listAllRulebooks,
  patchRulebook,
  type Rulebook,
  rulebookBody,
  TEMPLATE_KEYS,
} from "./bodies";

describe("rulebooks: create, read, change, delete", () => {
  it("creates a rulebook owned by the key's owner, every rule at version 1", async () => {
    const { api, keyId } = await newTenant(["MANAGE_RULEBOOKS"]);
    const rulebook = await createRulebook(api);
    expect(rulebook).toMatchObject({
      name: "Loading dock safety",
      content: "Checks for the loading docks of our warehouses.",
      is_template: false,
      template_key: null,
      can_edit: true,
      can_delete: true,
      has_active_workflow_run: false,
      owner_id: `user_${keyId.slice("key_".length)}`,
      created_by: keyId,
      updated_by: keyId,
    });
    expect(rulebook.id).toMatch(/^rb_[0-9a-z]{26}$/);
    expect(rulebook.rule_set_version_id).toMatch(/^rsv_[0-9a-z]{26}$/);
    expect(rulebook.rules).toEqual([
      {
        id: "dock-door-closed",
        title: "Dock doors closed when no truck is docked",
        description: "A dock door stands open only while a trailer is at the door.",
        severity: "high",
        kind: "requirement",
        version: 1,
      },
      {
        id: "wheel-chocks",
        title: "Trailer wheels chocked",
        description: "",
        severity: null,
        kind: "requirement",
        version: 1,
      },
    ]);
    expect(await expectJson(await api.get(`/rulebooks/${rulebook.id}`), 200)).toEqual(rulebook);
  });

  it("bumps only the rules whose title or description changed, and makes a new rule set", async () => {
    const { api } = await newTenant(["MANAGE_RULEBOOKS"]);
    const created = await createRulebook(api);
    const changedRules = [
      {
        id: "dock-door-closed",
        title: "Dock doors closed when no truck is docked",
        description: "A dock door stands open only while a trailer is at the door.",
        severity: "critical",
      },
      { id: "wheel-chocks", title: "Trailer wheels chocked or locked", description: "" },
      { id: "dock-plate", title: "Dock plate stowed", description: "" },
    ];
    const changed = await expectJson<Rulebook>(
      await patchRulebook(api, created.id, { rules: changedRules }),
      200,
    );
    expect(changed.rules.map((r) => [r.id, r.version, r.severity])).toEqual([
      ["dock-door-closed", 1, "critical"],
      ["wheel-chocks", 2, null],
      ["dock-plate", 1, null],
    ]);
    expect(changed.rule_set_version_id).not.toBe(created.rule_set_version_id);
    expect(changed.updated_at >= created.updated_at).toBe(true);

    // A rule removed and added back with new text continues its own numbering.
    const removed = await expectJson<Rulebook>(
      await patchRulebook(api, created.id, { rules: changedRules.slice(0, 1) }),
      200,
    );
    expect(removed.rules.map((r) => r.id)).toEqual(["dock-door-closed"]);
    const back = await expectJson<Rulebook>(
      await patchRulebook(api, created.id, {
        rules: [...changedRules.slice(0, 1), { id: "wheel-chocks", title: "Chocks on both sides" }],
      }),
      200,
    );
    expect(back.rules[1]).toMatchObject({ id: "wheel-chocks", version: 3 });
  });

  it("keeps a rule's kind, decides it from the title when absent, and bumps the version when it changes", async () => {
    const { api } = await newTenant(["MANAGE_RULEBOOKS"]);
    const created = await createRulebook(api, {
      rules: [
        { id: "slip", title: "Slip hazard by the sink" },
        { id: "spill", title: "Oil spill in the yard", kind: "hazard", severity: "high" },
        { id: "chocks", title: "Trailer wheels chocked", kind: null },
      ],
    });
    expect(created.rules.map((r) => [r.id, r.kind, r.version])).toEqual([
      ["slip", "hazard", 1],
      ["spill", "hazard", 1],
      ["chocks", "requirement", 1],
    ]);
    const changed = await expectJson<Rulebook>(
      await patchRulebook(api, created.id, {
        rules: [
          { id: "slip", title: "Slip hazard by the sink", kind: "hazard" },
          { id: "spill", title: "Oil spill in the yard", kind: "requirement", severity: "high" },
          { id: "chocks", title: "Trailer wheels chocked" },
        ],
      }),
      200,
    );
    expect(changed.rules.map((r) => [r.id, r.kind, r.version])).toEqual([
      ["slip", "hazard", 1],
      ["spill", "requirement", 2],
      ["chocks", "requirement", 1],
    ]);
  });

  it("keeps the rule set when a PATCH changes only the name or sends the same rules", async () => {
    const { api } = await newTenant(["MANAGE_RULEBOOKS"]);
    const created = await createRulebook(api);
    const renamed = await expectJson<Rulebook>(
      await patchRulebook(api, created.id, { name: "Dock safety", rules: rulebookBody().rules }),
      200,
    );
    expect(renamed.name).toBe("Dock safety");
    expect(renamed.content).toBe(created.content);
    expect(renamed.rule_set_version_id).toBe(created.rule_set_version_id);
    expect(renamed.rules).toEqual(created.rules);
  });

  it("never changes a rule set version once written", async () => {
    const { api } = await newTenant(["MANAGE_RULEBOOKS"]);
    const created = await createRulebook(api);
    const before = await env.DB.prepare(
      "SELECT rule_id, title, description, severity, version FROM rules WHERE rule_set_version_id = ? ORDER BY position",
    )
      .bind(created.rule_set_version_id)
      .all();
    await expectJson(
      await patchRulebook(api, created.id, {
        rules: [{ id: "dock-door-closed", title: "Something else entirely" }],
      }),
      200,
    );
    const after = await env.DB.prepare(
      "SELECT rule_id, title, description, severity, version FROM rules WHERE rule_set_version_id = ? ORDER BY position",
    )
      .bind(created.rule_set_version_id)
      .all();
    expect(after.results).toEqual(before.results);
    expect(after.results).toHaveLength(2);
  });

  it("deletes a rulebook: 204, then 404 and gone from the list; its rule set stays", async () => {
    const { api } = await newTenant(["MANAGE_RULEBOOKS"]);
    const created = await createRulebook(api);
    const res = await api.request("DELETE", `/rulebooks/${created.id}`);
    expect(res.status, await res.text()).toBe(204);
    expect((await api.get(`/rulebooks/${created.id}`)).status).toBe(404);
    expect((await listAllRulebooks(api)).map((r) => r.id)).not.toContain(created.id);
    const kept = await env.DB.prepare(
      "SELECT count(*) AS n FROM rules WHERE rule_set_version_id = ?",
    )
      .bind(created.rule_set_version_id)
      .first<{ n: number }>();
    expect(kept?.n).toBe(2);
  });

  it("lists the key's rulebooks, most recently updated first, then the shared templates", async () => {
    const { api } = await newTenant(["MANAGE_RULEBOOKS"]);
    const first = await createRulebook(api, { name: "First" });
    const second = await createRulebook(api, { name: "Second" });
    await expectJson(await patchRulebook(api, first.id, { content: "touched" }), 200);
    const listed = await listAllRulebooks(api, 2);
    expect(listed.slice(0, 2).map((r) => r.name)).toEqual(["First", "Second"]);
    expect(
      listed
        .slice(2)
        .map((r) => r.template_key)
        .sort(),
    ).toEqual([...TEMPLATE_KEYS].sort());
    expect(listed.find((r) => r.id === second.id)).toEqual(
      await expectJson(await api.get(`/rulebooks/${second.id}`), 200),
    );
  });

  it("ships real read-only templates, visible to every workspace", async () => {
    const { api } = await newTenant(["MANAGE_RULEBOOKS"]);
    const templates = (await listAllRulebooks(api)).filter((r) => r.is_template);
    expect(templates).toHaveLength(TEMPLATE_KEYS.length);
    for (const template of templates) {
      expect(template).toMatchObject({
        can_edit: false,
        can_delete: false,
        owner_id: null,
        has_active_workflow_run: false,
      });
      expect(template.rules.length).toBeGreaterThanOrEqual(5);
      for (const rule of template.rules) {
        expect(rule.version).toBe(1);
        expect(rule.description.length).toBeGreaterThan(40);
      }
      const other = await newTenant(["MANAGE_RULEBOOKS"]);
      expect(await expectJson(await other.api.get(`/rulebooks/${template.id}`), 200)).toEqual(
        template,
      );
    }
  });
});
