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
