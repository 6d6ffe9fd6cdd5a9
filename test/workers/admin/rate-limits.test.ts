import { describe, expect, it } from "vitest";
import { DEFAULT_RATE_LIMITS } from "../../../src/domain/rate-limits";
import { admin, createWorkspace, expectJson, expectProblem } from "../../helpers/harness";

interface Workspace {
  id: string;
  rate_limits: Record<string, number>;
}

const patch = (id: string, body: unknown) => admin("PATCH", `/workspaces/${id}`, body);

describe("rate limits through the admin API", () => {
  it("shows the defaults on a new workspace, then the operator's own per class", async () => {
    const workspace = await expectJson<Workspace>(
      await admin("POST", "/workspaces", { name: "Quotas", alpha_opt_in: true }),
      201,
    );
    expect(workspace.rate_limits).toEqual(DEFAULT_RATE_LIMITS);
    const changed = await expectJson<Workspace>(
      await patch(workspace.id, { rate_limits: { search: 10, uploads: 2500 } }),
      200,
    );
    expect(changed.rate_limits).toEqual({ ...DEFAULT_RATE_LIMITS, search: 10, uploads: 2500 });
    // A class left out keeps its value; null returns one class to its default.
    const merged = await expectJson<Workspace>(
      await patch(workspace.id, { rate_limits: { reads: 50, uploads: null } }),
      200,
    );
    expect(merged.rate_limits).toEqual({ ...DEFAULT_RATE_LIMITS, search: 10, reads: 50 });
    const listed = await expectJson<{ data: Workspace[] }>(
      await admin("GET", "/workspaces?limit=100"),
      200,
    );
    expect(listed.data.find((row) => row.id === workspace.id)?.rate_limits).toEqual(
      merged.rate_limits,
    );
    // null for the whole field returns every class to its default.
    const cleared = await expectJson<Workspace>(
      await patch(workspace.id, { rate_limits: null }),
      200,
    );
    expect(cleared.rate_limits).toEqual(DEFAULT_RATE_LIMITS);
  });

  it("refuses a bad quota with 400 naming the field, and changes nothing", async () => {
    const workspace = await createWorkspace();
    await expectJson(await patch(workspace.id, { rate_limits: { writes: 7 } }), 200);
    const cases: [unknown, string][] = [
      [{ search: 0 }, "rate_limits.search"],
      [{ reads: 1.5 }, "rate_limits.reads"],
      [{ uploads: "100" }, "rate_limits.uploads"],
      [{ writes: 1_000_001 }, "rate_limits.writes"],
      [{ everything: 5 }, "rate_limits.everything"],
      [[5], "rate_limits"],
    ];
    for (const [rateLimits, path] of cases) {
      const problem = await expectProblem(
        await patch(workspace.id, { rate_limits: rateLimits }),
        400,
        "invalid-request",
      );
      expect(
        problem.errors?.map((error) => error.path),
        JSON.stringify(rateLimits),
      ).toEqual([path]);
      expect(problem.detail, JSON.stringify(rateLimits)).toContain(path);
    }
    const listed = await expectJson<{ data: Workspace[] }>(
      await admin("GET", "/workspaces?limit=100"),
      200,
    );
    expect(listed.data.find((row) => row.id === workspace.id)?.rate_limits).toEqual({
      ...DEFAULT_RATE_LIMITS,
      writes: 7,
    });
  });
});
