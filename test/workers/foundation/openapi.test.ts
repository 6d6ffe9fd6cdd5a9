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

  it("names every operation, secures the document and lists only the errors each can answer", async () => {
    const doc = (await (await client(null).get("/openapi.json")).json()) as {
      security: unknown;
      paths: Record<
        string,
        Record<string, { operationId?: string; requestBody?: unknown; responses: object }>
      >;
    };
    expect(doc.security).toEqual([{ bearerAuth: [] }]);
    const ids: string[] = [];
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        const where = `${method} ${path}`;
        expect(operation.operationId, where).toMatch(/^[a-z]+[A-Za-z]*$/);
        ids.push(operation.operationId ?? "");
        const statuses = Object.keys(operation.responses);
        expect(statuses, where).not.toContain("405");
        if (operation.requestBody === undefined) {
          expect(statuses, where).not.toContain("413");
          expect(statuses, where).not.toContain("415");
        } else expect(statuses, where).toEqual(expect.arrayContaining(["413", "415"]));
      }
    }
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(expect.arrayContaining(["listVideos", "createUpload", "createRun"]));
  });

  it("documents X-Request-Id as an optional header of every operation and of every response", async () => {
    const doc = (await (await client(null).get("/openapi.json")).json()) as {
      paths: Record<
        string,
        Record<
          string,
          {
            parameters?: { $ref?: string }[];
            responses: Record<string, { headers?: Record<string, { $ref?: string }> }>;
          }
        >
      >;
      components: {
        parameters: Record<string, { name: string; in: string; required: boolean }>;
        headers: Record<string, object>;
      };
    };
    expect(doc.components.parameters.RequestId).toMatchObject({
      name: "X-Request-Id",
      in: "header",
      required: false,
    });
    expect(doc.components.headers.RequestId).toBeDefined();
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        const where = `${method} ${path}`;
        expect(operation.parameters, where).toContainEqual({
          $ref: "#/components/parameters/RequestId",
        });
        for (const [status, response] of Object.entries(operation.responses)) {
          expect(response.headers?.["X-Request-Id"], `${where} ${status}`).toEqual({
            $ref: "#/components/headers/RequestId",
          });
        }
      }
    }
  });

  it("leaves fields the server defaults out of what a request requires", async () => {
    const doc = (await (await client(null).get("/openapi.json")).json()) as {
      components: {
        schemas: Record<string, { required?: string[]; properties?: Record<string, object> }>;
      };
    };
    const analysis = doc.components.schemas.AnalysisRunRequest;
    expect(analysis?.required).toEqual(["source_ids", "profile_id"]);
    expect(analysis?.properties?.kind).not.toHaveProperty("default");
    expect(doc.components.schemas.CreateRunRequest).not.toHaveProperty("discriminator");
  });

  it("serves the interactive reference at /docs from its own pinned viewer", async () => {
    const res = await workerFetch(`${ORIGIN}/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/text\/html/);
    const html = await res.text();
    expect(html).toContain("/api/v1alpha1/openapi.json");
    expect(html).toContain('<script src="/docs/api-reference.js">');
    expect(html).not.toMatch(/https?:\/\//);
    expect(html).toMatch(/"agent":\s*{\s*"disabled":\s*true/);
    expect(html).toMatch(/"telemetry":\s*false/);

    const viewer = await workerFetch(`${ORIGIN}/docs/api-reference.js`);
    expect(viewer.status).toBe(200);
    expect(viewer.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(await viewer.text()).toContain("createApiReference");
  });
});
