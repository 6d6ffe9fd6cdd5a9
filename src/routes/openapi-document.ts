import { REQUEST_ID_HEADER } from "../lib/request-id";

interface SchemaObject {
  $ref?: string;
  oneOf?: SchemaObject[];
  required?: string[];
  discriminator?: { propertyName: string };
  [key: string]: unknown;
}

/**
 * Drops each `discriminator` whose property some branch may leave out. OpenAPI requires the
 * property in every branch, and client generators then refuse a value without it, such as
 * a run request that leaves `kind` to its default. The branches stay exclusive through the
 * property's values, so nothing is lost.
 */
export function withoutOptionalDiscriminators<
  D extends { components?: { schemas?: Record<string, unknown> } },
>(document: D): D {
  const schemas = (document.components?.schemas ?? {}) as Record<string, SchemaObject>;
  const byRef = (ref: string | undefined) => schemas[ref?.split("/").pop() ?? ""];
  for (const schema of Object.values(schemas)) {
    const property = schema.discriminator?.propertyName;
    if (property === undefined || !schema.oneOf) continue;
    const everyBranchRequires = schema.oneOf.every((branch) =>
      (byRef(branch.$ref) ?? branch).required?.includes(property),
    );
    if (!everyBranchRequires) delete schema.discriminator;
  }
  return document;
}

function refsIn(value: unknown, found: Set<string>): void {
  if (Array.isArray(value)) for (const item of value) refsIn(item, found);
  else if (typeof value === "object" && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      if (key === "$ref" && typeof item === "string") found.add(item.split("/").pop() ?? "");
      else refsIn(item, found);
    }
  }
}

/**
 * Writes a request field's server default into its description instead of `default`.
 * Generators read `default` on a shared component as "always present" (openapi-typescript
 * makes such fields required), so a client could not leave `kind` or `limit` out of a
 * request body although the server fills them in. Query parameters keep `default`.
 */
export function withRequestDefaultsDescribed<
  D extends {
    paths?: Record<string, object>;
    components?: { schemas?: Record<string, unknown> };
  },
>(document: D): D {
  const schemas = (document.components?.schemas ?? {}) as Record<string, SchemaObject>;
  const pending = new Set<string>();
  for (const methods of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(methods as Record<string, unknown>)) {
      refsIn((operation as { requestBody?: unknown }).requestBody, pending);
    }
  }
  const seen = new Set<string>();
  for (const name of pending) {
    if (seen.has(name)) continue;
    seen.add(name);
    const schema = schemas[name];
    if (!schema) continue;
    const nested = new Set<string>();
    refsIn(schema, nested);
    for (const ref of nested) pending.add(ref);
    const properties = (schema.properties ?? {}) as Record<string, SchemaObject>;
    for (const property of Object.values(properties)) {
      if (!("default" in property)) continue;
      const note = `Default: \`${JSON.stringify(property.default)}\`.`;
      property.description = [property.description, note].filter(Boolean).join(". ");
      delete property.default;
    }
  }
  return document;
}

/** The components every operation refers to for the request id, both ways. */
const REQUEST_ID_DESCRIPTION =
  "The request's id, in every response and in problem documents as `request_id`; name it when you report a problem.";

interface OperationObject {
  parameters?: unknown[];
  responses?: Record<string, { headers?: Record<string, unknown> }>;
}

/**
 * Documents `X-Request-Id` on every operation: an optional request header (a client's own id,
 * kept when it follows the rule, replaced otherwise, never refused) and a header of every
 * response. Added here rather than per route: the request-id middleware serves every path, so
 * the document cannot leave one out, and no header validator runs for it.
 */
export function withRequestIdHeaders<
  D extends { paths?: Record<string, object>; components?: object },
>(document: D, rule: { pattern: string; maxLength: number }): D {
  const components = { ...document.components } as Record<string, Record<string, unknown>>;
  components.parameters = {
    ...components.parameters,
    RequestId: {
      name: REQUEST_ID_HEADER,
      in: "header",
      required: false,
      description: `Your own id for this request, used instead of a generated one when it is 1-${rule.maxLength} letters, digits and \`.\` \`_\` \`:\` \`-\`; any other value is replaced by a generated id (never refused).`,
      schema: { type: "string", maxLength: rule.maxLength, pattern: rule.pattern },
      example: "req_2f6c1a5b7e4a",
    },
  };
  components.headers = {
    ...components.headers,
    RequestId: {
      description: REQUEST_ID_DESCRIPTION,
      schema: { type: "string" },
      example: "4bf92f35-77b3-4da6-a3ce-929d0e0e4736",
    },
  };
  Object.assign(document, { components });
  for (const methods of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(methods as Record<string, OperationObject>)) {
      operation.parameters = [
        ...(operation.parameters ?? []),
        { $ref: "#/components/parameters/RequestId" },
      ];
      for (const response of Object.values(operation.responses ?? {})) {
        response.headers = {
          ...response.headers,
          [REQUEST_ID_HEADER]: { $ref: "#/components/headers/RequestId" },
        };
      }
    }
  }
  return document;
}
