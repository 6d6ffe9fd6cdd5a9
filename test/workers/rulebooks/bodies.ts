import { expect } from "vitest";
import { type Client, expectJson } from "../../helpers/harness";

/** A stored rule as the API shows it. */
export interface Rule {
  id: string;
  title: string;
  description: string;
  severity: string | null;
  kind: "requirement" | "hazard";
  version: number;
}

/** A rulebook as the API shows it. */
export interface Rulebook {
  id: string;
  name: string;
  content: string;
  rules: Rule[];
  rule_set_version_id: string;
  is_template: boolean;
  template_key: string | null;
  can_edit: boolean;
  can_delete: boolean;
  has_active_workflow_run: boolean;
  owner_id: string | null;
  created_by: string;
  updated_by: string;
  created_at: string;
  updated_at: string;
}

/** A page of rulebooks. */
export interface RulebookPage {
  data: Rulebook[];
  has_more: boolean;
  next_cursor: string | null;
}

/** The body of a small, real rulebook. */
export function rulebookBody(overrides: Record<string, unknown> = {}) {
  return {
    name: "Loading dock safety",
    content: "Checks for the loading docks of our warehouses.",
    rules: [
      {
        id: "dock-door-closed",
        title: "Dock doors closed when no truck is docked",
        description: "A dock door stands open only while a trailer is at the door.",
        severity: "high",
      },
      { id: "wheel-chocks", title: "Trailer wheels chocked", description: "" },
    ],
    ...overrides,
  };
}

/** Creates a rulebook and returns it. */
export async function createRulebook(
  api: Client,
  overrides: Record<string, unknown> = {},
): Promise<Rulebook> {
  return expectJson<Rulebook>(await api.post("/rulebooks", rulebookBody(overrides)), 201);
}

/** PATCHes a rulebook. */
export function patchRulebook(api: Client, id: string, body: unknown): Promise<Response> {
  return api.request("PATCH", `/rulebooks/${id}`, { body });
}

/** Every rulebook id the key lists, walking all pages at `limit`. */
export async function listAllRulebooks(api: Client, limit = 100): Promise<Rulebook[]> {
  const seen: Rulebook[] = [];
  let cursor: string | null = null;
  do {
    const query: string = `/rulebooks?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
    const page: RulebookPage = await expectJson<RulebookPage>(await api.get(query), 200);
    expect(page.data.length).toBeLessThanOrEqual(limit);
    expect(page.has_more).toBe(page.next_cursor !== null);
    seen.push(...page.data);
    cursor = page.next_cursor;
  } while (cursor !== null);
  return seen;
}

/** The template keys shipped by migration. */
export const TEMPLATE_KEYS = [
  "workplace-safety",
  "brand-safety",
  "spoken-content-accessibility",
] as const;
