import { beforeAll, describe, expect, it } from "vitest";
import { type Client, expectJson, expectProblem, newTenant } from "../../helpers/harness";
import { itNamesEachBrokenField } from "../heads/shared";
import { createBody, fullBlock, type Template, versionBody } from "./bodies";

let api: Client;
let template: Template;

beforeAll(async () => {
  ({ api } = await newTenant(["RUN_WORKFLOWS"]));
  template = await expectJson<Template>(await api.post("/report-templates", createBody()), 201);
});

/** A create body whose only block is changed by `change`. */
function withBlock(change: (block: Record<string, unknown>) => void): Record<string, unknown> {
  const block = fullBlock();
  change(block);
  return createBody({ blocks: [block] });
}

const long = (n: number) => "x".repeat(n);

// Every field of the body, each broken once; the problem must name exactly that field.
const invalidBodies: [string, Record<string, unknown>][] = [
  ["name", createBody({ name: long(201) })],
  ["description", createBody({ description: ["a"] })],
  ["language", createBody({ language: undefined })],
  ["language", createBody({ language: "english" })],
  ["language", createBody({ language: "EN" })],
  ["language", createBody({ language: "en_US" })],
  ["blocks", createBody({ blocks: undefined })],
  ["blocks", createBody({ blocks: [] })],
  ["blocks", createBody({ blocks: Array.from({ length: 101 }, () => ({ type: "narrative" })) })],
  ["theme", createBody({ theme: "dark" })],
  ["blocks[0]", createBody({ blocks: ["table"] })],
  ["blocks[0].type", withBlock((b) => delete b.type)],
  ["blocks[0].type", withBlock((b) => (b.type = "pie chart"))],
  ["blocks[0].answer_key", withBlock((b) => (b.answer_key = "Dock Doors"))],
  ["blocks[0].label", withBlock((b) => (b.label = ""))],
  ["blocks[0].field_labels", withBlock((b) => (b.field_labels = { key: "a", label: "A" }))],
  ["blocks[0].field_labels[0].label", withBlock((b) => (b.field_labels = [{ key: "a" }]))],
  [
    "blocks[0].field_labels[0].unit",
    withBlock((b) => (b.field_labels = [{ key: "a", label: "A", unit: "m" }])),
  ],
  [
    "blocks[0].columns[1].key",
    withBlock(
      (b) =>
        (b.columns = [
          { key: "a", label: "A" },
          { key: "", label: "B" },
        ]),
    ),
  ],
  ["blocks[0].group_by", withBlock((b) => (b.group_by = ""))],
  ["blocks[0].sort_by", withBlock((b) => (b.sort_by = long(65)))],
  ["blocks[0].sort_direction", withBlock((b) => (b.sort_direction = "up"))],
  ["blocks[0].mapping", withBlock((b) => (b.mapping = "open=Open"))],
  ["blocks[0].mapping.open", withBlock((b) => (b.mapping = { open: 1 }))],
  ["blocks[0].style", withBlock((b) => (b.style = "bold"))],
];

describe("report templates: validation", () => {
  itNamesEachBrokenField("/report-templates", invalidBodies, createBody);

  it("refuses malformed versions, filters and cursors", async () => {
    const cases: [Promise<Response>, string][] = [
      [api.get(`/report-templates/${template.id}/versions/0`), "version"],
      [api.get(`/report-templates/${template.id}/versions/two`), "version"],
      [api.get("/report-templates?status=all"), "status"],
      [api.get("/report-templates?limit=0"), "limit"],
      [api.get("/report-templates?cursor=abc.def"), "cursor"],
      [api.post(`/report-templates/${template.id}/archive`, { now: true }), "now"],
    ];
    for (const [res, path] of cases) {
      const problem = await expectProblem(await res, 400, "invalid-request");
      expect(problem.errors?.map((e) => e.path)).toEqual([path]);
    }
  });
});

describe("report templates: conflicts and missing templates", () => {
  it("refuses the 101st version with 409 and keeps 100", async () => {
    const { api: own } = await newTenant(["RUN_WORKFLOWS"]);
    const head = await expectJson<Template>(await own.post("/report-templates", createBody()), 201);
    const responses = await Promise.all(
      Array.from({ length: 101 }, (_, i) =>
        own.post(`/report-templates/${head.id}/versions`, versionBody(i)),
      ),
    );
    const statuses = responses.map((res) => res.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(99);
    expect(statuses.filter((s) => s === 409)).toHaveLength(2);
    await expectProblem(
      await own.post(`/report-templates/${head.id}/versions`, versionBody(101)),
      409,
      "conflict",
    );
    const after = await expectJson<Template>(await own.get(`/report-templates/${head.id}`), 200);
    expect(after.latest_version).toBe(100);
  });

  it("refuses new versions of archived and anonymous templates with 409", async () => {
    const archived = await expectJson<Template>(
      await api.post("/report-templates", createBody()),
      201,
    );
    await expectJson(await api.post(`/report-templates/${archived.id}/archive`), 200);
    const anonymous = await expectJson<Template>(
      await api.post("/report-templates", createBody({ name: null })),
      201,
    );
    for (const [id, word] of [
      [archived.id, "archived"],
      [anonymous.id, "anonymous"],
    ] as const) {
      const problem = await expectProblem(
        await api.post(`/report-templates/${id}/versions`, versionBody(2)),
        409,
        "conflict",
      );
      expect(problem.detail).toContain(word);
    }
  });

  it("answers 404 for unknown templates and versions, and for another workspace's", async () => {
    const other = await newTenant(["RUN_WORKFLOWS"]);
    for (const [caller, id] of [
      [api, "tpl_00000000000000000000000000"],
      [other.api, template.id],
    ] as const) {
      await expectProblem(await caller.get(`/report-templates/${id}`), 404, "resource-not-found");
      await expectProblem(
        await caller.get(`/report-templates/${id}/versions/1`),
        404,
        "resource-not-found",
      );
      await expectProblem(
        await caller.post(`/report-templates/${id}/versions`, versionBody(2)),
        404,
        "resource-not-found",
      );
      await expectProblem(
        await caller.post(`/report-templates/${id}/archive`),
        404,
        "resource-not-found",
      );
    }
    await expectProblem(
      await api.get(`/report-templates/${template.id}/versions/2`),
      404,
      "resource-not-found",
    );
    expect(await expectJson(await other.api.get("/report-templates"), 200)).toMatchObject({
      data: [],
    });
    const mine = await expectJson<Template>(await api.get(`/report-templates/${template.id}`), 200);
    expect(mine.status).toBe("active");
  });
});
