import { z } from "@hono/zod-openapi";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fieldErrors } from "../../../src/routes/validation-hook";

// The sentences a client reads for each kind of zod issue; the hook installs the error map.
const BodySchema = z.strictObject({
  instructions: z.string().min(1).max(200),
  limit: z.number().int().min(1).max(100).optional(),
  threshold: z.number().min(0).max(1).optional(),
  kind: z.enum(["analysis", "workflow"]).optional(),
  at: z.iso.datetime({ offset: true }).optional(),
  tags: z.array(z.string()).min(1).max(3).optional(),
  ids: z.union([z.string(), z.array(z.string())]).optional(),
  flag: z.boolean().optional(),
  nested: z.object({ name: z.string() }).optional(),
  checked: z
    .string()
    .refine((value) => value !== "no")
    .optional(),
});

const TaggedSchema = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("text"), text: z.string() }),
  z.strictObject({ type: z.literal("count"), count: z.number().int() }),
]);

function errorsOf(schema: z.ZodType, input: unknown) {
  const result = schema.safeParse(input);
  if (result.success) return [];
  return fieldErrors(result.error.issues);
}

const ZOD_WORDING =
  /Invalid (input|option|string|ISO|union|discriminator|key|element|type)|expected \w+, received|received undefined|Too (small|big)|[<>]=|Unrecognized key|must match pattern/;

describe("validation messages in plain words", () => {
  it.each([
    [{}, "instructions", "is required"],
    [{ instructions: "" }, "instructions", "must be between 1 and 200 characters long"],
    [{ instructions: 5 }, "instructions", "must be text, not a whole number"],
    [{ instructions: "a", limit: 0 }, "limit", "must be between 1 and 100"],
    [{ instructions: "a", limit: 2.5 }, "limit", "must be a whole number between 1 and 100"],
    [{ instructions: "a", threshold: "high" }, "threshold", "must be a number between 0 and 1"],
    [{ instructions: "a", kind: "batch" }, "kind", "must be one of: analysis, workflow"],
    [{ instructions: "a", at: "yesterday" }, "at", expect.stringContaining("date-time")],
    [{ instructions: "a", tags: [] }, "tags", "must hold between 1 and 3 items"],
    [{ instructions: "a", tags: [1] }, "tags[0]", "must be text, not a whole number"],
    [{ instructions: "a", ids: 3 }, "ids", "must be text or a list, not a whole number"],
    [{ instructions: "a", flag: "yes" }, "flag", "must be true or false, not text"],
    [{ instructions: "a", nested: { name: null } }, "nested.name", "must be text, not null"],
    [{ instructions: "a", checked: "no" }, "checked", "is not valid"],
    [{ instructions: "a", colour: "red" }, "colour", "is not a known field"],
  ])("%j: %s %s", (input, path, message) => {
    expect(errorsOf(BodySchema, input)).toEqual([{ path, message }]);
  });

  it("names the tag and the fields of the variant it chose in a tagged union", () => {
    expect(errorsOf(TaggedSchema, { type: "other" })).toEqual([
      { path: "type", message: "must be one of: text, count" },
    ]);
    expect(errorsOf(TaggedSchema, { type: "count", count: "x" })).toEqual([
      { path: "count", message: "must be a whole number" },
    ]);
    expect(errorsOf(TaggedSchema, [])).toEqual([
      { path: "body", message: "must be an object, not a list" },
    ]);
  });

  it("never shows the validator's own wording, whatever arrives", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 3 }), fc.jsonValue({ maxDepth: 2 }), (raw, extra) => {
        const inputs = [raw, { instructions: raw, tags: extra, ids: raw, nested: extra }];
        for (const schema of [BodySchema, TaggedSchema]) {
          for (const input of inputs) {
            for (const error of errorsOf(schema, input)) {
              expect(error.message).not.toMatch(ZOD_WORDING);
              expect(error.path).not.toBe("");
            }
          }
        }
      }),
    );
  });
});
