import { z } from "@hono/zod-openapi";
import type { AppendRefusal } from "../../db/repos/versioned-heads";
import { HEAD_STATUSES } from "../../db/schema";
import { ApiError, notFound } from "../../errors/api-error";
import { TimestampSchema } from "../../schemas/common";
import { integerParam } from "../../schemas/integer";
import { PageQuerySchema, pageSchema } from "../../schemas/page";

// What profiles and report templates share on the wire: both are versioned heads (the spec's
// Profile and report template heads section).

/** `name` of a create body: omitted, null or blank makes the head anonymous. */
export const HeadNameSchema = z
  .string()
  .trim()
  .max(200)
  .nullable()
  .optional()
  .openapi({
    description:
      "Display name, up to 200 characters. Omitted, null or blank creates an anonymous head: " +
      "it is readable by id but takes no new versions and is not listed.",
    example: "Loading dock safety review",
  });

/** `description` of a create body. */
export const HeadDescriptionSchema = z.string().trim().max(2000).nullable().optional().openapi({
  description: "What the head is for, up to 2,000 characters",
  example: "Checks dock doors, forklift speed and PPE in warehouse walkthroughs.",
});

const keyExample = "key_01jd3m6t8y0c7x4k2n9q5r1s3v";

/**
 * The head fields of the spec's Profile and report template heads section, identical for profiles
 * and report templates.
 */
function headFields(idExample: string) {
  return {
    id: z.string().openapi({ description: "Public id", example: idExample }),
    name: z.string().nullable().openapi({
      description: "Display name; null for anonymous heads",
      example: "Loading dock safety review",
    }),
    description: z.string().nullable().openapi({ description: "What the head is for" }),
    status: z.enum(HEAD_STATUSES).openapi({
      description: "`active`, or `archived` (still readable, takes no new versions)",
      example: "active",
    }),
    anonymous: z.boolean().openapi({
      description: "Created without a name: takes no new versions and is not listed",
      example: false,
    }),
    latest_version: z
      .number()
      .int()
      .openapi({ description: "The highest version, 1-100", example: 3 }),
    created_by: z
      .string()
      .openapi({ description: "Id of the API key that created the head", example: keyExample }),
    updated_by: z.string().openapi({
      description: "Id of the API key that last changed the head (new version, archive)",
      example: keyExample,
    }),
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
  };
}

/**
 * The head schemas of one resource, named after it (`Profile`, `ProfileWithLatestVersion`,
 * `ProfilePage`): the head as lists show it, with its latest version as single reads and
 * changes answer, and a page of heads.
 */
export function headSchemas<Version extends z.ZodType>(
  name: string,
  idExample: string,
  VersionSchema: Version,
) {
  const HeadSchema = z.object(headFields(idExample)).openapi(name);
  const WithLatestSchema = HeadSchema.extend({
    latest: VersionSchema.openapi({ description: "The version `latest_version`, in full" }),
  }).openapi(`${name}WithLatestVersion`);
  return { HeadSchema, WithLatestSchema, PageSchema: pageSchema(HeadSchema, `${name}Page`) };
}

/** `created_by` and `created_at` of a version. */
export const versionAuthorFields = {
  created_by: z
    .string()
    .openapi({ description: "Id of the API key that created the version", example: keyExample }),
  created_at: TimestampSchema,
};

/** The `{version}` path parameter. */
export const VersionParamSchema = integerParam(z.number().int().min(1)).openapi({
  param: { name: "version", in: "path" },
  type: "integer",
  minimum: 1,
  description: "Version number, from 1",
  example: 1,
});

/** The optional body of the archive operations: nothing, or `{}`. */
export const ArchiveBodySchema = z.strictObject({}).openapi("ArchiveRequest");

/** Query of the list operations: paging plus the lifecycle filter. */
export const ListHeadsQuerySchema = PageQuerySchema.extend({
  status: z.enum(HEAD_STATUSES).default("active").openapi({
    description: "`active` (default) or `archived`; anonymous heads are never listed",
  }),
});

/** The answer to a refused new version: 404 for a missing head, 409 otherwise. */
export function versionRefused(what: string, id: string, refusal: AppendRefusal): ApiError {
  switch (refusal) {
    case "not-found":
      return notFound(what, id);
    case "archived":
      return new ApiError("conflict", `${what} ${id} is archived and takes no new versions.`);
    case "anonymous":
      return new ApiError(
        "conflict",
        `${what} ${id} is anonymous (created without a name) and takes no new versions.`,
      );
    case "full":
      return new ApiError(
        "conflict",
        `${what} ${id} already has 100 versions, the most it can have; create a new one.`,
      );
  }
}

/** The name a head is stored with: null (anonymous) when omitted, null or blank. */
export function storedName(name: string | null | undefined): string | null {
  return name === undefined || name === null || name === "" ? null : name;
}
