import { z } from "@hono/zod-openapi";

const DECIMAL = /^[0-9]+$/;

/**
 * An integer query or path parameter. Only decimal digits are read as a number: `0x10`,
 * `1e2`, `0b11`, ` 5`, `5.0`, a repeated parameter (an array) and anything else stay as
 * they came and fail `z.number()`, so the request answers 400 naming the parameter instead
 * of reading what JavaScript's `Number()` would make of it.
 */
export function integerParam<T extends z.ZodType<number>>(schema: T) {
  return z.preprocess(
    (value) => (typeof value === "string" && DECIMAL.test(value) ? Number(value) : value),
    schema,
  );
}
