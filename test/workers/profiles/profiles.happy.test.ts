import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { type Client, client, createKey, expectJson, newTenant } from "../../helpers/harness";
import { listAll } from "../heads/shared";
import {
  createBody,
  fullAnswerSpec,
  type Profile,
  type ProfilePage,
  type ProfileVersion,
  versionBody,
} from "./bodies";

async function create(api: Client, overrides: Record<string, unknown> = {}): Promise<Profile> {
  return expectJson<Profile>(await api.post("/profiles", createBody(overrides)), 201);
}

describe("profiles: create, version, read, archive, list", () => {
  it("creates a profile head with an immutable version 1 holding every answer spec field", async () => {
    const { api, keyId } = await newTenant(["RUN_WORKFLOWS"]);
    const profile = await create(api);
    expect(profile).toMatchObject({
      name: "Loading dock safety",
      description: "Dock doors, forklifts and PPE.",
      status: "active",
      anonymous: false,
      latest_version: 1,
      created_by: keyId,
      updated_by: keyId,
    });
    expect(profile.id).toMatch(/^prof_[0-9a-z]{26}$/);
    expect(profile.updated_at).toBe(profile.created_at);
    expect(profile.latest).toEqual({
      profile_id: profile.id,
      version: 1,
      ...versionBody(1),
      created_by: keyId,
      created_at: profile.created_at,
    });
    expect(profile.latest?.answer_specs[0]).toEqual(fullAnswerSpec());
    expect(await expectJson(await api.get(`/profiles/${profile.id}`), 200)).toEqual(profile);
  });

  it("keeps words of the spec's open vocabularies it has no layout for, as given", async () => {
    const { api } = await newTenant(["RUN_WORKFLOWS"]);
    const spec = {
      ...fullAnswerSpec("doorEvents"),
      aggregation_level: "camera-feed",
      evidence: { accepted_types: ["clip", "frame"], required: true },
      fields: [{ key: "openedAt", label: "Opened at", type: "date-time" }],
    };
    const profile = await create(api, { answer_specs: [spec] });
    expect(profile.latest?.answer_specs).toEqual([spec]);
    const template = await expectJson<{ latest: { blocks: unknown[] } }>(
      await api.post("/report-templates", {
        name: "Open words",
        language: "en",
        blocks: [
          { type: "synthesis", answer_key: "doorEvents" },
          { type: "chart", answer_key: "doorEvents" },
        ],
      }),
      201,
    );
    expect(template.latest.blocks).toEqual([
      { type: "synthesis", answer_key: "doorEvents" },
      { type: "chart", answer_key: "doorEvents" },
    ]);
  });

  it("appends versions, resolves the latest and keeps every earlier version unchanged", async () => {
    const { api, keyId } = await newTenant(["RUN_WORKFLOWS"]);
    const profile = await create(api);
    const two = await expectJson<ProfileVersion>(
      await api.post(`/profiles/${profile.id}/versions`, versionBody(2)),
      201,
    );
    expect(two).toMatchObject({ profile_id: profile.id, version: 2, ...versionBody(2) });
    expect(two.created_by).toBe(keyId);
    const three = await expectJson<ProfileVersion>(
      await api.post(`/profiles/${profile.id}/versions`, versionBody(3)),
      201,
    );
    expect(three.version).toBe(3);

    const head = await expectJson<Profile>(await api.get(`/profiles/${profile.id}`), 200);
    expect(head).toMatchObject({
      latest_version: 3,
      latest: three,
      created_at: profile.created_at,
    });
    expect(head.updated_at >= profile.updated_at).toBe(true);
    expect(await expectJson(await api.get(`/profiles/${profile.id}/versions/1`), 200)).toEqual(
      profile.latest,
    );
    expect(await expectJson(await api.get(`/profiles/${profile.id}/versions/2`), 200)).toEqual(two);
    // There is no operation that changes or deletes a version.
    for (const method of ["PUT", "PATCH", "DELETE"]) {
      const res = await api.request(method, `/profiles/${profile.id}/versions/1`, {
        body: versionBody(9),
      });
      expect(res.status, await res.text()).toBe(405);
    }
  });

  it("records which key made each change", async () => {
    const tenant = await newTenant(["RUN_WORKFLOWS"]);
    const profile = await create(tenant.api);
    const otherKey = await createKey(tenant.workspaceId, { permissions: ["RUN_WORKFLOWS"] });
    const other = { keyId: otherKey.id, api: client(otherKey.key) };
    const version = await expectJson<ProfileVersion>(
      await other.api.post(`/profiles/${profile.id}/versions`, versionBody(2)),
      201,
    );
    expect(version.created_by).toBe(other.keyId);
    const head = await expectJson<Profile>(await tenant.api.get(`/profiles/${profile.id}`), 200);
    expect(head).toMatchObject({ created_by: tenant.keyId, updated_by: other.keyId });
  });

  it("archives idempotently and keeps archived profiles readable", async () => {
    const { api } = await newTenant(["RUN_WORKFLOWS"]);
    const profile = await create(api);
    await api.post(`/profiles/${profile.id}/versions`, versionBody(2));
    const archived = await expectJson<Profile>(
      await api.request("POST", `/profiles/${profile.id}/archive`),
      200,
    );
    expect(archived).toMatchObject({ status: "archived", latest_version: 2 });
    expect(archived.latest?.version).toBe(2);
    const again = await expectJson<Profile>(
      await api.post(`/profiles/${profile.id}/archive`, {}),
      200,
    );
    expect(again).toEqual(archived);
    expect(await expectJson(await api.get(`/profiles/${profile.id}`), 200)).toEqual(archived);
    await expectJson(await api.get(`/profiles/${profile.id}/versions/1`), 200);
  });

  it("creates anonymous profiles when the name is omitted, null or blank; they are readable but not listed", async () => {
    const { api } = await newTenant(["RUN_WORKFLOWS"]);
    const named = await create(api);
    const omitted = await expectJson<Profile>(
      await api.post("/profiles", {
        instructions: "Count forklifts.",
        answer_specs: [fullAnswerSpec()],
      }),
      201,
    );
    const nulled = await create(api, { name: null, description: null });
    const blank = await create(api, { name: "   " });
    for (const profile of [omitted, nulled, blank]) {
      expect(profile).toMatchObject({ anonymous: true, name: null, status: "active" });
      expect(await expectJson(await api.get(`/profiles/${profile.id}`), 200)).toEqual(profile);
    }
    expect(omitted.description).toBeNull();
    expect(await listAll(api, "/profiles", "", 25)).toEqual([named.id]);
  });

  it("lists active named profiles newest first, archived ones under status=archived, page by page", async () => {
    const { api } = await newTenant(["RUN_WORKFLOWS"]);
    const created: Profile[] = [];
    for (let i = 0; i < 7; i++) created.push(await create(api, { name: `Profile ${i}` }));
    const archivedIds = [created[1], created[4]].map((p) => p?.id ?? "");
    for (const id of archivedIds) await api.post(`/profiles/${id}/archive`, {});
    const active = created.map((p) => p.id).filter((id) => !archivedIds.includes(id));

    expect(await listAll(api, "/profiles", "", 2)).toEqual([...active].reverse());
    expect(await listAll(api, "/profiles", "&status=active", 100)).toEqual([...active].reverse());
    expect(await listAll(api, "/profiles", "&status=archived", 1)).toEqual(
      [...archivedIds].reverse(),
    );
    const page = await expectJson<ProfilePage>(await api.get("/profiles"), 200);
    expect(page.data[0]).not.toHaveProperty("latest");
    expect(page.data[0]).toMatchObject({ name: "Profile 6", latest_version: 1 });
  });

  it("replays a create with the same Idempotency-Key and creates one profile", async () => {
    const { api, workspaceId } = await newTenant(["RUN_WORKFLOWS"]);
    const key = { "Idempotency-Key": "create-profile-1" };
    const responses = await Promise.all(
      [0, 1, 2].map(() => api.post("/profiles", createBody(), key)),
    );
    const bodies = await Promise.all(responses.map((res) => res.text()));
    expect(
      responses.map((res) => res.status),
      bodies.join("\n"),
    ).toEqual([201, 201, 201]);
    expect(new Set(bodies).size).toBe(1);
    const replay = await api.post("/profiles", createBody(), key);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(await replay.text()).toBe(bodies[0]);
    const row = await env.DB.prepare("SELECT count(*) AS n FROM profiles WHERE workspace_id = ?")
      .bind(workspaceId)
      .first<{ n: number }>();
    expect(row?.n).toBe(1);

    const profile = JSON.parse(bodies[0] ?? "{}") as Profile;
    const versionKey = { "Idempotency-Key": "version-1" };
    const first = await api.post(`/profiles/${profile.id}/versions`, versionBody(2), versionKey);
    const second = await api.post(`/profiles/${profile.id}/versions`, versionBody(2), versionKey);
    expect(await second.text()).toBe(await first.text());
    const head = await expectJson<Profile>(await api.get(`/profiles/${profile.id}`), 200);
    expect(head.latest_version).toBe(2);
  });
});
