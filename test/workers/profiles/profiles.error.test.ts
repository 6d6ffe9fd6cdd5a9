import { beforeAll, describe, expect, it } from "vitest";
import { type Client, expectJson, expectProblem, newTenant } from "../../helpers/harness";
import { itNamesEachBrokenField } from "../heads/shared";
import { createBody, fullAnswerSpec, type Profile, type ProfilePage, versionBody } from "./bodies";

let api: Client;
let profile: Profile;

beforeAll(async () => {
  ({ api } = await newTenant(["RUN_WORKFLOWS"]));
  profile = await expectJson<Profile>(await api.post("/profiles", createBody()), 201);
});

/** A create body whose first answer spec is changed by `change`. */
function withSpec(change: (spec: Record<string, unknown>) => void): Record<string, unknown> {
  const spec = fullAnswerSpec();
  change(spec);
  return createBody({ answer_specs: [spec] });
}

function firstField(spec: Record<string, unknown>): Record<string, unknown> {
  return (spec.fields as Record<string, unknown>[])[0] ?? {};
}

const long = (n: number) => "x".repeat(n);

// Every field of the body, each broken once; the problem must name exactly that field.
const invalidBodies: [string, Record<string, unknown>][] = [
  ["name", createBody({ name: 7 })],
  ["name", createBody({ name: long(201) })],
  ["description", createBody({ description: long(2001) })],
  ["instructions", createBody({ instructions: undefined })],
  ["instructions", createBody({ instructions: "   " })],
  ["instructions", createBody({ instructions: long(20_001) })],
  ["answer_specs", createBody({ answer_specs: undefined })],
  ["answer_specs", createBody({ answer_specs: [] })],
  [
    "answer_specs",
    createBody({ answer_specs: Array.from({ length: 51 }, (_, i) => fullAnswerSpec(`k${i}`)) }),
  ],
  ["colour", createBody({ colour: "red" })],
  ["answer_specs[0].answer_key", withSpec((s) => delete s.answer_key)],
  ["answer_specs[0].answer_key", withSpec((s) => (s.answer_key = "Dock Doors"))],
  ["answer_specs[0].answer_key", withSpec((s) => (s.answer_key = `a${long(64)}`))],
  ["answer_specs[0].answer_type", withSpec((s) => (s.answer_type = "guess"))],
  ["answer_specs[0].answer_type", withSpec((s) => delete s.answer_type)],
  ["answer_specs[0].aggregation_level", withSpec((s) => (s.aggregation_level = "Whole video"))],
  ["answer_specs[0].coverage", withSpec((s) => (s.coverage = 1))],
  ["answer_specs[0].temporal_granularity", withSpec((s) => (s.temporal_granularity = ""))],
  ["answer_specs[0].temporal_scope", withSpec((s) => (s.temporal_scope = "-windowed"))],
  ["answer_specs[0].evidence", withSpec((s) => (s.evidence = "clip"))],
  [
    "answer_specs[0].evidence.accepted_types[1]",
    withSpec((s) => (s.evidence = { accepted_types: ["clip", "holo gram"] })),
  ],
  [
    "answer_specs[0].evidence.accepted_types",
    withSpec((s) => (s.evidence = { accepted_types: ["clip", "clip"] })),
  ],
  ["answer_specs[0].evidence.per_field", withSpec((s) => (s.evidence = { per_field: "yes" }))],
  ["answer_specs[0].evidence.required", withSpec((s) => (s.evidence = { required: 1 }))],
  ["answer_specs[0].evidence.strict", withSpec((s) => (s.evidence = { strict: true }))],
  ["answer_specs[0].fields", withSpec((s) => (s.fields = { key: "a" }))],
  ["answer_specs[0].fields[0].key", withSpec((s) => (firstField(s).key = "1door"))],
  ["answer_specs[0].fields[0].label", withSpec((s) => (firstField(s).label = ""))],
  ["answer_specs[0].fields[0].label", withSpec((s) => delete firstField(s).label)],
  ["answer_specs[0].fields[0].description", withSpec((s) => (firstField(s).description = 5))],
  ["answer_specs[0].fields[0].type", withSpec((s) => (firstField(s).type = "date time"))],
  ["answer_specs[0].fields[0].required", withSpec((s) => (firstField(s).required = "true"))],
  ["answer_specs[0].fields[0].unit", withSpec((s) => (firstField(s).unit = "m"))],
  [
    "answer_specs[0].fields[1].key",
    withSpec(
      (s) =>
        (s.fields = [
          { key: "a", label: "A" },
          { key: "a", label: "B" },
        ]),
    ),
  ],
  ["answer_specs[0].description", withSpec((s) => (s.description = ""))],
  ["answer_specs[0].weight", withSpec((s) => (s.weight = 2))],
  [
    "answer_specs[1].answer_key",
    createBody({ answer_specs: [fullAnswerSpec("same"), fullAnswerSpec("same")] }),
  ],
];

describe("profiles: validation", () => {
  itNamesEachBrokenField("/profiles", invalidBodies, createBody);

  it("refuses head fields on a new version", async () => {
    const problem = await expectProblem(
      await api.post(`/profiles/${profile.id}/versions`, { ...versionBody(2), name: "Renamed" }),
      400,
      "invalid-request",
    );
    expect(problem.errors?.map((e) => e.path)).toEqual(["name"]);
  });

  it("refuses a body on archive, and malformed versions, filters and cursors", async () => {
    const cases: [Promise<Response>, string][] = [
      [api.post(`/profiles/${profile.id}/archive`, { reason: "old" }), "reason"],
      [api.get(`/profiles/${profile.id}/versions/0`), "version"],
      [api.get(`/profiles/${profile.id}/versions/1.5`), "version"],
      [api.get(`/profiles/${profile.id}/versions/latest`), "version"],
      [api.get("/profiles?status=deleted"), "status"],
      [api.get("/profiles?limit=101"), "limit"],
      [api.get("/profiles?cursor=forged.cursor"), "cursor"],
    ];
    for (const [res, path] of cases) {
      const problem = await expectProblem(await res, 400, "invalid-request");
      expect(problem.errors?.map((e) => e.path)).toEqual([path]);
    }
  });

  it("binds cursors to the status filter", async () => {
    const { api: own } = await newTenant(["RUN_WORKFLOWS"]);
    for (let i = 0; i < 2; i++) await own.post("/profiles", createBody());
    const page = await expectJson<ProfilePage>(await own.get("/profiles?limit=1"), 200);
    const cursor = encodeURIComponent(page.next_cursor ?? "");
    await expectJson(await own.get(`/profiles?limit=1&cursor=${cursor}`), 200);
    const problem = await expectProblem(
      await own.get(`/profiles?status=archived&cursor=${cursor}`),
      400,
      "invalid-request",
    );
    expect(problem.errors?.[0]?.path).toBe("cursor");
  });
});

describe("profiles: conflicts and missing profiles", () => {
  it("refuses the 101st version with 409 and keeps 100", async () => {
    const { api: own } = await newTenant(["RUN_WORKFLOWS"]);
    const head = await expectJson<Profile>(await own.post("/profiles", createBody()), 201);
    // 104 parallel appends onto version 1: exactly 99 fit, the other 5 are real conflicts.
    const responses = await Promise.all(
      Array.from({ length: 104 }, (_, i) =>
        own.post(`/profiles/${head.id}/versions`, versionBody(i)),
      ),
    );
    const statuses = responses.map((res) => res.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(99);
    expect(statuses.filter((s) => s === 409)).toHaveLength(5);
    const problem = await expectProblem(
      await own.post(`/profiles/${head.id}/versions`, versionBody(101)),
      409,
      "conflict",
    );
    expect(problem.detail).toContain("100 versions");
    const after = await expectJson<Profile>(await own.get(`/profiles/${head.id}`), 200);
    expect(after.latest_version).toBe(100);
    await expectJson(await own.get(`/profiles/${head.id}/versions/100`), 200);
    await expectProblem(
      await own.get(`/profiles/${head.id}/versions/101`),
      404,
      "resource-not-found",
    );
  });

  it("refuses new versions of archived profiles with 409", async () => {
    const head = await expectJson<Profile>(await api.post("/profiles", createBody()), 201);
    await expectJson(await api.post(`/profiles/${head.id}/archive`), 200);
    const problem = await expectProblem(
      await api.post(`/profiles/${head.id}/versions`, versionBody(2)),
      409,
      "conflict",
    );
    expect(problem.detail).toContain("archived");
    expect(
      (await expectJson<Profile>(await api.get(`/profiles/${head.id}`), 200)).latest_version,
    ).toBe(1);
  });

  it("refuses new versions of anonymous profiles with 409", async () => {
    const head = await expectJson<Profile>(
      await api.post("/profiles", createBody({ name: "" })),
      201,
    );
    const problem = await expectProblem(
      await api.post(`/profiles/${head.id}/versions`, versionBody(2)),
      409,
      "conflict",
    );
    expect(problem.detail).toContain("anonymous");
  });

  it("answers 404 for unknown profiles and versions", async () => {
    const unknown = "prof_00000000000000000000000000";
    await expectProblem(await api.get(`/profiles/${unknown}`), 404, "resource-not-found");
    await expectProblem(
      await api.get(`/profiles/${unknown}/versions/1`),
      404,
      "resource-not-found",
    );
    await expectProblem(
      await api.post(`/profiles/${unknown}/versions`, versionBody(2)),
      404,
      "resource-not-found",
    );
    await expectProblem(await api.post(`/profiles/${unknown}/archive`), 404, "resource-not-found");
    await expectProblem(
      await api.get(`/profiles/${profile.id}/versions/7`),
      404,
      "resource-not-found",
    );
  });

  it("answers 404 for another workspace's profile and never lists it", async () => {
    const other = await newTenant(["RUN_WORKFLOWS"]);
    const id = profile.id;
    await expectProblem(await other.api.get(`/profiles/${id}`), 404, "resource-not-found");
    await expectProblem(
      await other.api.get(`/profiles/${id}/versions/1`),
      404,
      "resource-not-found",
    );
    await expectProblem(
      await other.api.post(`/profiles/${id}/versions`, versionBody(2)),
      404,
      "resource-not-found",
    );
    await expectProblem(await other.api.post(`/profiles/${id}/archive`), 404, "resource-not-found");
    expect(await expectJson(await other.api.get("/profiles"), 200)).toMatchObject({ data: [] });
    const mine = await expectJson<Profile>(await api.get(`/profiles/${id}`), 200);
    expect(mine).toMatchObject({ status: "active", latest_version: profile.latest_version });
  });
});
