import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { admin, createWorkspace, expectJson, expectProblem } from "../../helpers/harness";

interface Workspace {
  id: string;
  name: string;
  alpha_opt_in: boolean;
  retention_days: number | null;
}

async function storedRetention(id: string): Promise<number | null | undefined> {
  const row = await env.DB.prepare("SELECT retention_days FROM workspaces WHERE id = ?")
    .bind(id)
    .first<{ retention_days: number | null }>();
  return row?.retention_days;
}

async function listed(id: string): Promise<Workspace | undefined> {
  const page = await expectJson<{ data: Workspace[] }>(
    await admin("GET", "/workspaces?limit=100"),
    200,
  );
  return page.data.find((workspace) => workspace.id === id);
}

describe("a workspace's retention_days (admin API)", () => {
  it("keeps videos forever unless set, and is shown wherever the workspace is", async () => {
    const kept = await createWorkspace();
    expect(kept).toMatchObject({ retention_days: null });
    expect(await storedRetention(kept.id)).toBeNull();

    const limited = await expectJson<Workspace>(
      await admin("POST", "/workspaces", { name: "Thirty days", retention_days: 30 }),
      201,
    );
    expect(limited).toMatchObject({ name: "Thirty days", retention_days: 30 });
    expect(await storedRetention(limited.id)).toBe(30);
    expect(await listed(limited.id)).toMatchObject({ retention_days: 30 });
  });

  it("is set, kept across other changes and cleared with null by PATCH", async () => {
    const workspace = await createWorkspace();
    const path = `/workspaces/${workspace.id}`;
    const set = await expectJson<Workspace>(await admin("PATCH", path, { retention_days: 7 }), 200);
    expect(set).toMatchObject({ id: workspace.id, retention_days: 7 });

    const renamed = await expectJson<Workspace>(
      await admin("PATCH", path, { name: "Renamed" }),
      200,
    );
    expect(renamed).toMatchObject({ name: "Renamed", retention_days: 7 });
    expect(await storedRetention(workspace.id)).toBe(7);

    const longest = await expectJson<Workspace>(
      await admin("PATCH", path, { retention_days: 3650 }),
      200,
    );
    expect(longest.retention_days).toBe(3650);

    const cleared = await expectJson<Workspace>(
      await admin("PATCH", path, { retention_days: null }),
      200,
    );
    expect(cleared).toMatchObject({ name: "Renamed", retention_days: null });
    expect(await storedRetention(workspace.id)).toBeNull();
    expect(await listed(workspace.id)).toMatchObject({ retention_days: null });
  });

  it("refuses what is not a whole number of days from 1 to 3650, naming the field", async () => {
    const workspace = await expectJson<Workspace>(
      await admin("POST", "/workspaces", { name: "Kept", retention_days: 90 }),
      201,
    );
    const bad: unknown[] = [0, -1, 3651, 1.5, "30", true, [30], { days: 30 }];
    for (const value of bad) {
      const attempts = [
        await admin("POST", "/workspaces", { name: "Bad", retention_days: value }),
        await admin("PATCH", `/workspaces/${workspace.id}`, { retention_days: value }),
      ];
      for (const res of attempts) {
        const problem = await expectProblem(res, 400, "invalid-request");
        expect(
          problem.errors?.map((e) => e.path),
          JSON.stringify(value),
        ).toEqual(["retention_days"]);
      }
    }
    const zero = await expectProblem(
      await admin("PATCH", `/workspaces/${workspace.id}`, { retention_days: 0 }),
      400,
      "invalid-request",
    );
    expect(zero.detail).toBe("retention_days must be between 1 and 3650.");
    // A refused change changes nothing.
    expect(await storedRetention(workspace.id)).toBe(90);
  });
});
