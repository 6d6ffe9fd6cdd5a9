import { describe, expect, it } from "vitest";
import {
  admin,
  type Client,
  client,
  createKey,
  expectJson,
  expectProblem,
  newTenant,
} from "../../helpers/harness";
import { alphaOperations, expectRefused, send } from "../../helpers/security";
import {
  createRulebook,
  listAllRulebooks,
  patchRulebook,
  type Rulebook,
  rulebookBody,
} from "./bodies";

async function keyFor(
  workspaceId: string,
  ownerId?: string,
): Promise<{ api: Client; id: string; owner_id: string }> {
  const created = await expectJson<{ id: string; key: string; owner_id: string }>(
    await admin("POST", "/keys", {
      workspace_id: workspaceId,
      type: "alpha",
      permissions: ["MANAGE_RULEBOOKS"],
      ...(ownerId === undefined ? {} : { owner_id: ownerId }),
    }),
    201,
  );
  return { api: client(created.key), id: created.id, owner_id: created.owner_id };
}

async function expectHidden(api: Client, rulebook: Rulebook) {
  await expectProblem(await api.get(`/rulebooks/${rulebook.id}`), 404, "resource-not-found");
  await expectProblem(
    await patchRulebook(api, rulebook.id, { name: "taken" }),
    404,
    "resource-not-found",
  );
  await expectProblem(
    await api.request("DELETE", `/rulebooks/${rulebook.id}`),
    404,
    "resource-not-found",
  );
  expect((await listAllRulebooks(api)).map((r) => r.id)).not.toContain(rulebook.id);
}

describe("rulebooks: ownership per key, visibility per workspace", () => {
  it("hides a rulebook from another key of the same workspace (another owner)", async () => {
    const { workspaceId, api } = await newTenant(["MANAGE_RULEBOOKS"]);
    const mine = await createRulebook(api);
    const colleague = await keyFor(workspaceId);
    expect(colleague.owner_id).not.toBe(mine.owner_id);
    await expectHidden(colleague.api, mine);
    expect(await expectJson(await api.get(`/rulebooks/${mine.id}`), 200)).toEqual(mine);
  });

  it("lets two keys created for one owner read, change and delete each other's rulebooks", async () => {
    const workspace = await expectJson<{ id: string }>(
      await admin("POST", "/workspaces", { name: "Shared owner", alpha_opt_in: true }),
      201,
    );
    const first = await keyFor(workspace.id);
    const second = await keyFor(workspace.id, first.owner_id);
    expect(second.owner_id).toBe(first.owner_id);
    const made = await createRulebook(first.api);
    expect((await listAllRulebooks(second.api)).map((r) => r.id)).toContain(made.id);
    const changed = await expectJson<Rulebook>(
      await patchRulebook(second.api, made.id, { name: "Renamed by the second key" }),
      200,
    );
    expect(changed).toMatchObject({ can_edit: true, updated_by: second.id, created_by: first.id });
    expect((await second.api.request("DELETE", `/rulebooks/${made.id}`)).status).toBe(204);
    await expectProblem(await first.api.get(`/rulebooks/${made.id}`), 404, "resource-not-found");
  });

  it("never replays one owner's response to another owner using the same Idempotency-Key", async () => {
    const { workspaceId, api } = await newTenant(["MANAGE_RULEBOOKS"]);
    const colleague = await keyFor(workspaceId);
    const sameOwner = await keyFor(workspaceId, colleague.owner_id);
    const headers = { "Idempotency-Key": "shared-key-value" };
    const body = rulebookBody({ name: "Same request, two owners" });
    const mine = await expectJson<Rulebook>(await api.post("/rulebooks", body, headers), 201);
    const theirs = await colleague.api.post("/rulebooks", body, headers);
    expect(theirs.headers.get("Idempotent-Replayed")).toBeNull();
    const theirBook = await expectJson<Rulebook>(theirs, 201);
    expect(theirBook.id).not.toBe(mine.id);
    expect(theirBook.owner_id).toBe(colleague.owner_id);
    // A second key acting for the same owner does replay: the key scope is the owner.
    const replayed = await sameOwner.api.post("/rulebooks", body, headers);
    expect(replayed.headers.get("Idempotent-Replayed")).toBe("true");
    expect((await expectJson<Rulebook>(replayed, 201)).id).toBe(theirBook.id);
  });

  it("keeps workspaces apart, even for keys given the same owner id", async () => {
    const a = await newTenant(["MANAGE_RULEBOOKS"]);
    const mine = await createRulebook(a.api);
    const other = await newTenant(["MANAGE_RULEBOOKS"]);
    const sameOwnerElsewhere = await keyFor(other.workspaceId, mine.owner_id ?? undefined);
    await expectHidden(other.api, mine);
    await expectHidden(sameOwnerElsewhere.api, mine);
  });

  it("refuses an owner id that is not user_…", async () => {
    const { workspaceId } = await newTenant();
    const problem = await expectProblem(
      await admin("POST", "/keys", {
        workspace_id: workspaceId,
        type: "alpha",
        permissions: ["*"],
        owner_id: "key_123",
      }),
      400,
      "invalid-request",
    );
    expect(problem.errors?.map((e) => e.path)).toEqual(["owner_id"]);
  });
});

describe("rulebooks and workflows: the MANAGE_RULEBOOKS permission", async () => {
  const operations = (await alphaOperations()).filter(
    (op) => op.path.startsWith("/rulebooks") || op.path.startsWith("/workflows"),
  );

  it("declares MANAGE_RULEBOOKS on every rulebook and workflow operation", () => {
    expect(operations.map((op) => `${op.method} ${op.path}`).sort()).toEqual([
      "DELETE /rulebooks/{rulebook_id}",
      "GET /rulebooks",
      "GET /rulebooks/{rulebook_id}",
      "GET /workflows",
      "GET /workflows/{workflow_id}",
      "PATCH /rulebooks/{rulebook_id}",
      "POST /rulebooks",
      "POST /rulebooks/csv-imports",
      "POST /rulebooks/csv-imports/preview",
      "POST /workflows",
    ]);
    for (const op of operations) expect(op.permission).toBe("MANAGE_RULEBOOKS");
  });

  it.each(operations)("$method $path: 403 without it, through with only it", async (op) => {
    const { workspaceId } = await newTenant();
    const without = await createKey(workspaceId, {
      permissions: [
        "READ_VIDEOS",
        "UPLOAD_VIDEOS",
        "VIEW_INSIGHTS",
        "RUN_WORKFLOWS",
        "SEARCH_CONTENT",
        "MANAGE_WEBHOOKS",
      ],
    });
    await expectRefused(await send(op, without.key), 403);
    const only = await createKey(workspaceId, { permissions: ["MANAGE_RULEBOOKS"] });
    const res = await send(op, only.key);
    expect([401, 403], await res.clone().text()).not.toContain(res.status);
  });
});
