import { describe, expect, it } from "vitest";
import { admin, client } from "../../helpers/harness";

interface TaggedDocument {
  tags?: { name: string; description?: string }[];
  paths: Record<string, Record<string, { tags?: string[] }>>;
}

/** Tags the operations use that the document does not describe. */
function undescribedTags(doc: TaggedDocument): string[] {
  const described = new Set(
    (doc.tags ?? []).filter((tag) => (tag.description ?? "").length > 0).map((tag) => tag.name),
  );
  const used = Object.values(doc.paths).flatMap((ops) =>
    Object.values(ops).flatMap((op) => op.tags ?? []),
  );
  return [...new Set(used)].filter((tag) => !described.has(tag)).sort();
}

describe("the tags of the OpenAPI documents", () => {
  it("describes every tag an alpha operation carries", async () => {
    const res = await client(null).get("/openapi.json");
    const doc = (await res.json()) as TaggedDocument;
    expect(Object.keys(doc.paths).length).toBeGreaterThan(20);
    expect(undescribedTags(doc)).toEqual([]);
  });

  it("describes the admin API's tag", async () => {
    const res = await admin("GET", "/openapi.json");
    expect(res.status).toBe(200);
    expect(undescribedTags((await res.json()) as TaggedDocument)).toEqual([]);
  });

  it("finds an undescribed tag where there is one", () => {
    const doc = {
      tags: [{ name: "Videos", description: "" }],
      paths: { "/v": { get: { tags: ["Videos"] } } },
    };
    expect(undescribedTags(doc)).toEqual(["Videos"]);
  });
});
