import { describe, expect, it } from "vitest";
import { admin, type Client, expectProblem, newTenant } from "../../helpers/harness";

/** Asks for usage with `query`; expects a 400 naming exactly `path`, and answers its message. */
async function refused(api: Client, query: string, path: string): Promise<string> {
  const problem = await expectProblem(await api.get(`/usage${query}`), 400, "invalid-request");
  expect(
    problem.errors?.map((error) => error.path),
    query,
  ).toEqual([path]);
  return problem.errors?.[0]?.message ?? "";
}

describe("GET /usage refuses", () => {
  it("dates that are not dates, naming the field", async () => {
    const { api } = await newTenant(["VIEW_USAGE"]);
    for (const bad of ["2026-02-30", "2026-1-05", "yesterday", "2026-01-05T10:00:00", "20260105"])
      expect(await refused(api, `?from=${bad}`, "from")).toContain("YYYY-MM-DD");
    expect(await refused(api, "?to=2026-13-01", "to")).toContain("RFC 3339");
  });

  it("a range that ends before it starts, or is longer than 366 days", async () => {
    const { api } = await newTenant(["VIEW_USAGE"]);
    expect(await refused(api, "?from=2026-03-02&to=2026-03-01", "to")).toContain("before from");
    expect(await refused(api, "?from=2025-01-01&to=2026-01-02", "from")).toContain("366 days");
    expect(await refused(api, "?from=2999-01-01", "from")).toContain("after today");
    // Without from the range is 30 days, so only a to before from can be wrong: there is none.
    const res = await api.get("/usage?from=2025-01-01&to=2026-01-01");
    expect(res.status, await res.text()).toBe(200);
  });

  it("a granularity other than day or month, and a workspace named in the query", async () => {
    const { api } = await newTenant(["VIEW_USAGE"]);
    expect(await refused(api, "?granularity=week", "granularity")).toContain("day, month");
    // The key decides whose usage it is.
    expect(await refused(api, "?tenant_id=ws_x", "tenant_id")).toContain("API key");
  });

  it("the operator a workspace that does not exist, and a query it would refuse a key", async () => {
    await expectProblem(
      await admin("GET", "/workspaces/ws_00000000000000000000000000/usage"),
      404,
      "resource-not-found",
    );
    const { workspaceId } = await newTenant(["VIEW_USAGE"]);
    const problem = await expectProblem(
      await admin("GET", `/workspaces/${workspaceId}/usage?from=2026-03-02&to=2026-03-01`),
      400,
      "invalid-request",
    );
    expect(problem.errors?.map((error) => error.path)).toEqual(["to"]);
  });
});
