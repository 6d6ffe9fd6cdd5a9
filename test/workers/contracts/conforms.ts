/** What a reply must carry, by path (`$`, `$.matches[]`), and which objects are free-form maps. */
export interface ShapeRules {
  required?: Record<string, readonly string[]>;
  /** Paths of user-defined maps (vector metadata): any keys, any values. */
  free?: readonly string[];
}

const kind = (v: unknown) => (Array.isArray(v) ? "array" : v === null ? "null" : typeof v);

/**
 * Where `value` departs from the documented example `documented`: a field the documentation
 * does not show, a field of another JSON type, or a required field that is missing.
 * Arrays are compared item by item with the documented array's first item.
 */
export function departures(
  value: unknown,
  documented: unknown,
  rules: ShapeRules = {},
  path = "$",
): string[] {
  const actual = ArrayBuffer.isView(value) ? Array.from(value as Float32Array) : value;
  if (kind(actual) !== kind(documented)) {
    return [`${path}: ${kind(actual)}, documented ${kind(documented)}`];
  }
  if (Array.isArray(actual) && Array.isArray(documented)) {
    const model = documented[0];
    if (model === undefined) return [];
    return actual.flatMap((item, i) =>
      departures(item, model, rules, `${path}[]`).map((d) =>
        d.replace(`${path}[]`, `${path}[${i}]`),
      ),
    );
  }
  if (kind(actual) !== "object" || rules.free?.includes(path)) return [];
  const got = actual as Record<string, unknown>;
  const shown = documented as Record<string, unknown>;
  const missing = (rules.required?.[path] ?? [])
    .filter((key) => !(key in got))
    .map((key) => `${path}.${key}: missing`);
  const extra = Object.keys(got).flatMap((key) =>
    key in shown
      ? departures(got[key], shown[key], rules, `${path}.${key}`)
      : [`${path}.${key}: not documented`],
  );
  return [...missing, ...extra];
}
