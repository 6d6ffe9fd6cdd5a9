import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { PageQuerySchema } from "../../../src/schemas/page";
import { type Client, expectJson, expectProblem, newTenant } from "../../helpers/harness";
import { createBody } from "../profiles/bodies";

let api: Client;
let profileId: string;

beforeAll(async () => {
  ({ api } = await newTenant(["*"]));
  const profile = await expectJson<{ id: string }>(await api.post("/profiles", createBody()), 201);
  profileId = profile.id;
});

async function expectNamed(res: Response, field: string) {
  const problem = await expectProblem(res, 400, "invalid-request");
  expect(problem.errors?.map((error) => error.path)).toContain(field);
}

describe("integers in the query and the path are decimal digits only", () => {
  it.each([
    "limit=0x10",
    "limit=1e2",
    "limit=0b11",
    "limit=0o7",
    "limit=%205",
    "limit=5%20",
    "limit=%2B5",
    "limit=5.0",
    "limit=",
    "limit=5&limit=6",
  ])("GET /videos?%s answers 400 naming limit", async (query) => {
    await expectNamed(await api.get(`/videos?${query}`), "limit");
  });

  it("refuses limit[]=5 naming limit[] instead of ignoring it", async () => {
    await expectNamed(await api.get("/videos?limit[]=5"), "limit[]");
    await expectNamed(await api.get("/runs?limit%5B%5D=5"), "limit[]");
  });

  it("still reads plain digits", async () => {
    const page = await expectJson<{ data: unknown[] }>(await api.get("/videos?limit=5"), 200);
    expect(page.data).toEqual([]);
    await expectJson(await api.get(`/profiles/${profileId}/versions/1`), 200);
    await expectJson(await api.get(`/profiles/${profileId}/versions/01`), 200);
  });

  it.each(["0x1", "1e0", "0b1", "%201", "1.0", "+1"])(
    "GET /profiles/{id}/versions/%s answers 400 naming version",
    async (version) => {
      await expectNamed(await api.get(`/profiles/${profileId}/versions/${version}`), "version");
    },
  );

  it("accepts a limit exactly when it is digits naming 1-100", () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string(), fc.nat(200).map(String), fc.double().map(String)),
        (raw) => {
          const parsed = PageQuerySchema.safeParse({ limit: raw });
          const value = Number(raw);
          const expected = /^[0-9]+$/.test(raw) && value >= 1 && value <= 100;
          expect(parsed.success, raw).toBe(expected);
          if (parsed.success) expect(parsed.data.limit).toBe(value);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe("text with an unpaired surrogate is refused, never stored changed", () => {
  it("refuses a profile named \\ud800x, naming name, and stores nothing", async () => {
    const { api: fresh } = await newTenant(["*"]);
    await expectNamed(await fresh.post("/profiles", createBody({ name: "\ud800x" })), "name");
    const list = await expectJson<{ data: unknown[] }>(await fresh.get("/profiles"), 200);
    expect(list.data).toEqual([]);
  });

  it("refuses a video filename with a lone low surrogate and creates no video", async () => {
    const { api: fresh } = await newTenant(["*"]);
    const res = await fresh.post("/videos", { filename: "clip\udc00.mp4", file_size: 10 });
    await expectNamed(res, "filename");
    const list = await expectJson<{ data: unknown[] }>(await fresh.get("/videos"), 200);
    expect(list.data).toEqual([]);
  });

  it("names the field that holds it", async () => {
    const body = createBody();
    (body as { description?: string }).description = "ok \udbff";
    await expectNamed(await api.post("/profiles", body), "description");
  });

  it("keeps paired surrogates (emoji) exactly as sent", async () => {
    const name = "Dock 🚚 check";
    const created = await expectJson<{ name: string; id: string }>(
      await api.post("/profiles", createBody({ name })),
      201,
    );
    expect(created.name).toBe(name);
    const read = await expectJson<{ name: string }>(await api.get(`/profiles/${created.id}`), 200);
    expect(read.name).toBe(name);
  });

  it("refuses a lone surrogate anywhere in a generated string", async () => {
    const { api: fresh } = await newTenant(["*"]);
    await fc.assert(
      fc.asyncProperty(
        fc.string({ maxLength: 20 }),
        fc.integer({ min: 0xd800, max: 0xdfff }),
        fc.string({ maxLength: 20 }),
        async (before, unit, after) => {
          const name = `${before}${String.fromCharCode(unit)}${after}`;
          await expectNamed(await fresh.post("/profiles", createBody({ name })), "name");
        },
      ),
      { numRuns: 25 },
    );
    const list = await expectJson<{ data: unknown[] }>(await fresh.get("/profiles"), 200);
    expect(list.data).toEqual([]);
  });
});
