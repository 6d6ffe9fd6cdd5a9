import { describe, expect, it } from "vitest";
import { client, newTenant } from "../../helpers/harness";
import { concretePath } from "../../helpers/security";

// Every operation of the OpenAPI document gets bad input shaped by its own schema; whatever
// the API answers with a 400 must read in plain words, never in the validator's.
const ZOD_WORDING =
  /Invalid (input|option|string|ISO|union|discriminator|key|element|type|enum|literal)|expected \w+, received|received (undefined|null)|Too (small|big)|to have [<>]=|to be [<>]=|Unrecognized key|Expected (string|number|array|object|boolean)|must match pattern/;

interface Schema {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
}

interface Operation {
  parameters?: { name: string; in: string; schema?: Schema }[];
  requestBody?: { content: Record<string, { schema: Schema }> };
}

interface Doc {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}

const doc = (await (await client(null).get("/openapi.json")).json()) as Doc;

function resolve(schema: Schema | undefined): Schema {
  if (schema?.$ref) return resolve(doc.components.schemas[schema.$ref.split("/").pop() ?? ""]);
  return schema ?? {};
}

/** Properties of an object schema, including those of every branch of a union. */
function propertiesOf(schema: Schema): Record<string, Schema> {
  const resolved = resolve(schema);
  const branches = [
    ...(resolved.oneOf ?? []),
    ...(resolved.anyOf ?? []),
    ...(resolved.allOf ?? []),
  ];
  return Object.assign({}, ...branches.map(propertiesOf), resolved.properties ?? {});
}

function typeOf(schema: Schema): string | undefined {
  const { type } = resolve(schema);
  return Array.isArray(type) ? type.find((t) => t !== "null") : type;
}

/** Values the schema refuses: the wrong type, and each declared limit overstepped. */
function badValues(raw: Schema): unknown[] {
  const schema = resolve(raw);
  const type = typeOf(schema);
  const values: unknown[] = [];
  if (type === "string") values.push(12345, ["x"]);
  if (type === "integer" || type === "number") values.push("x", 2.5, true);
  if (type === "boolean" || type === "object") values.push("x", 7);
  if (type === "array") values.push("x", { a: 1 }, [12345]);
  if (schema.enum) values.push("not-one-of-them");
  if (schema.minimum !== undefined) values.push(schema.minimum - 1);
  if (schema.maximum !== undefined) values.push(schema.maximum + 1);
  if (schema.minLength) values.push("");
  if (schema.maxLength !== undefined) values.push("x".repeat(schema.maxLength + 1));
  if (schema.minItems) values.push([]);
  if (schema.maxItems !== undefined) values.push(Array(schema.maxItems + 1).fill("x"));
  return values;
}

/** A query value the parameter refuses, written as text. */
function badQueryValues(schema: Schema): string[] {
  const resolved = resolve(schema);
  const values = ["not-valid-here"];
  if (resolved.minimum !== undefined) values.push(String(resolved.minimum - 1));
  if (resolved.maximum !== undefined) values.push(String(resolved.maximum + 1));
  if (resolved.maxLength !== undefined) values.push("x".repeat(resolved.maxLength + 1));
  return values;
}

const operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
  Object.entries(methods).map(([method, operation]) => ({ path, method, operation })),
);

describe.each(operations)("$method $path", ({ path, method, operation }) => {
  it("explains every validation failure in plain words", async () => {
    const { api } = await newTenant();
    const route = concretePath(path);
    const sent: Promise<Response>[] = [];
    for (const parameter of operation.parameters ?? []) {
      if (parameter.in === "query") {
        for (const value of badQueryValues(parameter.schema ?? {})) {
          const query = new URLSearchParams({ [parameter.name]: value });
          sent.push(api.request(method.toUpperCase(), `${route}?${query}`));
        }
      }
      if (parameter.in === "path") {
        sent.push(api.request(method.toUpperCase(), route.replace(/[^/]+_0{26}/, "x".repeat(300))));
      }
    }
    const body = operation.requestBody?.content["application/json"]?.schema;
    if (body) {
      const bodies: unknown[] = [{}, [], "text", 42, null, { not_a_field: 1 }];
      for (const [name, property] of Object.entries(propertiesOf(body))) {
        for (const value of badValues(property)) bodies.push({ [name]: value });
      }
      for (const item of bodies) {
        sent.push(api.request(method.toUpperCase(), route, { body: item }));
      }
    }
    let refused = 0;
    for (const res of await Promise.all(sent)) {
      if (res.status !== 400) continue;
      refused += 1;
      const text = await res.text();
      const problem = JSON.parse(text) as { detail: string; errors?: { message: string }[] };
      expect(problem.detail, text).not.toMatch(ZOD_WORDING);
      for (const error of problem.errors ?? [])
        expect(error.message, text).not.toMatch(ZOD_WORDING);
    }
    // Operations that take input must have been made to refuse some of it.
    if (sent.length > 0) expect(refused, `${method} ${path}`).toBeGreaterThan(0);
  });
});
