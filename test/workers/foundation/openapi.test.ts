import { describe, expect, it } from "vitest";
import { client, ORIGIN, workerFetch } from "../../helpers/harness";

describe("the OpenAPI document and the reference", () => {
  it("serves an OpenAPI 3.1 document of the alpha surface without a key", async () => {
    const res = await client(null).get("/openapi.json");
    expect(res.status).toBe(200);
    const doc = (await res.json()) as {
      openapi: string;
      servers: { url: string }[];
      paths: Record<
        string,
        Record<string, { security?: unknown; responses: Record<string, unknown> }>
      >;
      components: { securitySchemes: Record<string, unknown> };
    };
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.servers[0]?.url).toBe(`${ORIGIN}/api/v1alpha1`);
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({
      type: "http",
      scheme: "bearer",
    });
    const list = doc.paths["/videos"]?.get;
    expect(list?.security).toEqual([{ bearerAuth: [] }]);
    expect(Object.keys(list?.responses ?? {})).toEqual(
      expect.arrayContaining(["200", "400", "401", "403", "404"]),
    );
  });

  it("serves the interactive reference at /docs", async () => {
    const res = await workerFetch(`${ORIGIN}/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/text\/html/);
    expect(await res.text()).toContain("/api/v1alpha1/openapi.json");
  });
});
