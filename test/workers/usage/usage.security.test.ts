import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { PERMISSIONS } from "../../../src/domain/caller";
import type { UsageReportDto } from "../../../src/services/presenters/usage";
import {
  client,
  createKey,
  expectJson,
  newTenant,
  ORIGIN,
  workerFetch,
} from "../../helpers/harness";
import { expectRefused } from "../../helpers/security";

const QUERY = "/usage?from=2026-06-01&to=2026-06-01";

describe("GET /usage security", () => {
  it("needs VIEW_USAGE, alone is enough, and shows only the key's own workspace", async () => {
    const owner = await newTenant(["VIEW_USAGE"]);
    await env.DB.prepare(
      "INSERT INTO usage_daily (workspace_id, day, metric, key, value) VALUES (?, '2026-06-01', 'searches', '', 7)",
    )
      .bind(owner.workspaceId)
      .run();
    await expectRefused(await client(null).get(QUERY), 401);
    const allBut = await createKey(owner.workspaceId, {
      permissions: PERMISSIONS.filter((permission) => permission !== "VIEW_USAGE"),
    });
    await expectRefused(await client(allBut.key).get(QUERY), 403);
    const own = await expectJson<UsageReportDto>(await owner.api.get(QUERY), 200);
    expect(own).toMatchObject({ workspace_id: owner.workspaceId, totals: { searches: 7 } });

    const stranger = await newTenant(["*"]);
    const theirs = await expectJson<UsageReportDto>(await stranger.api.get(QUERY), 200);
    expect(theirs).toMatchObject({ workspace_id: stranger.workspaceId, totals: { searches: 0 } });
  });

  it("answers the admin route only with the admin token", async () => {
    const { workspaceId } = await newTenant(["VIEW_USAGE"]);
    const path = `${ORIGIN}/admin/v1/workspaces/${workspaceId}/usage`;
    expect((await workerFetch(path)).status).toBe(401);
    const key = await createKey(workspaceId);
    const res = await workerFetch(path, { headers: { authorization: `Bearer ${key.key}` } });
    expect(res.status, await res.text()).toBe(401);
  });
});
