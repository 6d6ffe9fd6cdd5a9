import type { z } from "@hono/zod-openapi";

type RawIssue = z.core.$ZodRawIssue;

/** What a value is, in the words of the JSON a client sent. */
function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  switch (typeof value) {
    case "string":
      return "text";
    case "number":
      return Number.isInteger(value) ? "a whole number" : "a number";
    case "boolean":
      return value ? "true" : "false";
    case "object":
      return "an object";
    default:
      return `a ${typeof value}`;
  }
}

const EXPECTED: Record<string, string> = {
  string: "text",
  number: "a number",
  int: "a whole number",
  bigint: "a whole number",
  boolean: "true or false",
  array: "a list",
  tuple: "a list",
  object: "an object",
  record: "an object",
  null: "null",
  date: "a date",
};

interface Bounds {
  min?: { value: number; inclusive: boolean };
  max?: { value: number; inclusive: boolean };
}

/** Reads the limits the schema that raised an issue declares, so one sentence names both. */
function boundsOf(schema: z.core.$ZodType | undefined): Bounds {
  const bounds: Bounds = {};
  for (const check of schema?._zod.def.checks ?? []) {
    const def = check._zod.def as {
      check: string;
      value?: unknown;
      inclusive?: boolean;
      minimum?: number;
      maximum?: number;
    };
    if (def.check === "greater_than" && typeof def.value === "number")
      bounds.min = { value: def.value, inclusive: def.inclusive ?? true };
    if (def.check === "less_than" && typeof def.value === "number")
      bounds.max = { value: def.value, inclusive: def.inclusive ?? true };
    if (def.check === "min_length" && def.minimum !== undefined)
      bounds.min = { value: def.minimum, inclusive: true };
    if (def.check === "max_length" && def.maximum !== undefined)
      bounds.max = { value: def.maximum, inclusive: true };
  }
  return bounds;
}

function numberRange({ min, max }: Bounds): string {
  if (min?.inclusive && max?.inclusive) return `between ${min.value} and ${max.value}`;
  const parts: string[] = [];
  if (min) parts.push(min.inclusive ? `at least ${min.value}` : `greater than ${min.value}`);
  if (max) parts.push(max.inclusive ? `at most ${max.value}` : `less than ${max.value}`);
  return parts.join(" and ");
}

function countRange({ min, max }: Bounds, unit: string): string {
  if (min && max) {
    if (min.value === max.value) return `exactly ${min.value} ${unit}`;
    return `between ${min.value} and ${max.value} ${unit}`;
  }
  if (min) return `at least ${min.value} ${unit}`;
  return `at most ${max?.value} ${unit}`;
}

function sizeMessage(origin: string, bounds: Bounds): string {
  if (origin === "string") {
    if (bounds.min?.value === 1 && !bounds.max) return "must not be empty";
    return `must be ${countRange(bounds, "characters")} long`;
  }
  if (origin === "array" || origin === "set") {
    if (bounds.min?.value === 1 && !bounds.max) return "must not be empty";
    return `must hold ${countRange(bounds, "items")}`;
  }
  return `must be ${numberRange(bounds)}`;
}

function sizeIssue(issue: RawIssue & { code: "too_small" | "too_big" }): string {
  const declared = boundsOf(issue.schema);
  const inclusive = issue.inclusive ?? true;
  // The issue's own limit wins: a declared check may not be the one that failed (safe range).
  const bounds: Bounds =
    issue.code === "too_small"
      ? { ...declared, min: { value: Number(issue.minimum), inclusive } }
      : { ...declared, max: { value: Number(issue.maximum), inclusive } };
  if (issue.code === "too_big" && issue.origin === "int" && !declared.max)
    return "must be a whole number within ±9007199254740991";
  return sizeMessage(issue.origin, bounds);
}

function literal(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** Whether a number schema only takes whole numbers (`.int()` and its sized forms). */
function wholeOnly(schema: z.core.$ZodType | undefined): boolean {
  return (schema?._zod.def.checks ?? []).some((check) => {
    const def = check._zod.def as { check: string; format?: string };
    return def.check === "number_format" && /int/.test(def.format ?? "");
  });
}

function typeIssue(issue: RawIssue & { code: "invalid_type" }): string {
  if (issue.input === undefined) return "is required";
  const numeric = issue.expected === "number" || issue.expected === "int";
  let wanted = EXPECTED[issue.expected] ?? `a ${issue.expected}`;
  if (numeric) {
    if (wholeOnly(issue.schema)) wanted = EXPECTED.int ?? wanted;
    const range = numberRange(boundsOf(issue.schema));
    if (range !== "") wanted = `${wanted}${range.startsWith("between") ? "" : ","} ${range}`;
  }
  // Query parameters always arrive as text, so "not text" would only confuse there.
  if (numeric && (typeof issue.input === "number" || typeof issue.input === "string"))
    return `must be ${wanted}`;
  return `must be ${wanted}, not ${kindOf(issue.input)}`;
}

const FORMATS: Record<string, string> = {
  datetime: "a date-time with a time zone, such as 2026-11-21T09:30:00Z",
  date: "a date such as 2026-11-21",
  time: "a time such as 09:30:00",
  email: "an email address",
  url: "an absolute URL",
  uuid: "a UUID",
  ulid: "a ULID",
  base64: "base64 text",
  base64url: "base64url text",
};

function formatIssue(issue: RawIssue & { code: "invalid_format" }): string {
  const { format } = issue;
  if (format === "regex" && "pattern" in issue) return `must match the pattern ${issue.pattern}`;
  if (format === "starts_with" && "prefix" in issue) return `must start with "${issue.prefix}"`;
  if (format === "ends_with" && "suffix" in issue) return `must end with "${issue.suffix}"`;
  if (format === "includes" && "includes" in issue) return `must contain "${issue.includes}"`;
  return `must be ${FORMATS[format] ?? `a valid ${format}`}`;
}

/** The values a discriminated union's tag may take (zod reports none when none matched). */
function discriminatorValues(issue: RawIssue & { code: "invalid_union" }): unknown[] {
  const key = "discriminator" in issue ? issue.discriminator : undefined;
  const inst = issue.inst as { _zod?: { propValues?: Record<string, Set<unknown>> } } | undefined;
  const values = typeof key === "string" ? inst?._zod?.propValues?.[key] : undefined;
  return values ? [...values].filter((value) => value !== undefined) : [];
}

function oneOf(values: readonly unknown[]): string {
  return values.length === 1
    ? `must be ${literal(values[0])}`
    : `must be one of: ${values.map(literal).join(", ")}`;
}

function unionIssue(issue: RawIssue & { code: "invalid_union" }): string {
  if (issue.errors.length === 0) {
    const values = discriminatorValues(issue);
    return values.length > 0 ? oneOf(values) : "does not match any of the accepted forms";
  }
  const expected = new Set<string>();
  for (const branch of issue.errors) {
    const [only] = branch;
    if (branch.length !== 1 || only?.code !== "invalid_type" || only.path.length > 0) {
      return "does not match any of the accepted forms";
    }
    expected.add(EXPECTED[only.expected] ?? `a ${only.expected}`);
  }
  if (issue.input === undefined) return "is required";
  return `must be ${[...expected].join(" or ")}, not ${kindOf(issue.input)}`;
}

/**
 * The plain sentence (without the field's name, which `errors[].path` carries) for a zod
 * issue. Installed as zod's global error map, so a schema's own message still wins.
 */
export function plainMessage(issue: RawIssue): string {
  switch (issue.code) {
    case "invalid_type":
      return typeIssue(issue);
    case "too_small":
    case "too_big":
      return sizeIssue(issue);
    case "invalid_value":
      return oneOf(issue.values);
    case "invalid_format":
      return formatIssue(issue);
    case "not_multiple_of":
      return `must be a multiple of ${String(issue.divisor)}`;
    case "unrecognized_keys":
      return `holds fields that are not known: ${issue.keys.join(", ")}`;
    case "invalid_union":
      return unionIssue(issue);
    case "invalid_key":
      return "holds a key that is not allowed";
    case "invalid_element":
      return "holds a value that is not allowed";
    default:
      return "is not valid";
  }
}
