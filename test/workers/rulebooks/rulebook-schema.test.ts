import type { z } from "@hono/zod-openapi";
import { describe, expect, it } from "vitest";
import { RulebookSchema } from "../../../src/routes/rulebooks/schemas";
import type { SameShape } from "../../../src/schemas/common";

import type { RulebookResource } from "../../../src/services/presenters/rulebook";

// The schema documents what the presenter writes: the types must agree both ways (this fails
// to compile when they drift), and a rulebook of the presenter's type must parse to itself.
const RULEBOOK_SCHEMA_MATCHES_PRESENTER: SameShape<
  z.infer<typeof RulebookSchema>,
  RulebookResource
> = true;
const owned: RulebookResource = {
  id: "rb_01",
  name: "Dock safety",
  content: "Hard hats on the dock.",
  rules: [
    {
      id: "hard-hats",
      title: "Hard hats",
      description: "Everyone on the dock wears a hard hat.",
      severity: "high",
      kind: "requirement",
      version: 2,
    },
    {
      id: "spills",
      title: "Spills",
      description: "A spill.",
      severity: null,
      kind: "hazard",
      version: 1,
    },
  ],
  rule_set_version_id: "rsv_01",
  is_template: false,
  template_key: null,
  can_edit: true,
  can_delete: false,
  has_active_workflow_run: true,
  owner_id: "user_01",
  created_by: "key_01",
  updated_by: "key_02",
  created_at: "2026-01-01T00:00:00.000Z",
  updated_at: "2026-01-02T00:00:00.000Z",
};

describe("a presented rulebook and its documented schema", () => {
  it("parses to itself, owned or a shared template", () => {
    expect([RULEBOOK_SCHEMA_MATCHES_PRESENTER]).not.toContain(false);
    const template: RulebookResource = {
      ...owned,
      is_template: true,
      template_key: "workplace-safety",
      can_edit: false,
      owner_id: null,
      created_by: "system",
    };
    for (const rulebook of [owned, template]) {
      expect(RulebookSchema.parse(rulebook)).toEqual(rulebook);
    }
  });
});
