import type { z } from "@hono/zod-openapi";
import type { VersionedHeadRepo } from "../../db/repos/versioned-heads";
import type { IdPrefix } from "../../lib/ids";
import type { Page } from "../../lib/pagination";
import type { HeadWire, HeadWithLatestWire } from "../../services/presenters/head";

/** The types one resource fills in: its id parameter and what its versions hold. */
export interface HeadTypes {
  /** Name of the id path parameter: `profile_id`. */
  idParam: string;
  /** The body of a new version, as validated. */
  body: object;
  /** What the repo stores of a version body. */
  content: object;
  /** A stored version row. */
  row: object;
  /** A version on the wire. */
  version: object;
}

/**
 * What the six head operations (create, list, get, add a version, get a version, archive; the
 * spec's Profiles and report templates section) of one resource differ by: names in paths and
 * prose, schemas, the repo, and how a version body is stored and shown.
 */
export interface HeadResource<T extends HeadTypes> {
  /** Name of the id path parameter: `profile_id`. */
  idParam: T["idParam"];
  /** Path segment, also the scope of list cursors: `profiles`. */
  path: string;
  /** Prefix of new ids: `prof`. */
  idPrefix: IdPrefix;
  /** OpenAPI tag: `Profiles`. */
  tag: string;
  /** The resource in prose, lower case: `profile`, `profiles`. */
  noun: { one: string; many: string };
  /** How the create operation introduces the resource: `an analysis profile`. */
  introduced: string;
  // The wire schemas. The path parameters are typed by their output too, so a route can
  // read the id under `idParam` whatever the resource calls it.
  IdParamsSchema: z.ZodObject & z.ZodType<Record<T["idParam"], string>>;
  VersionParamsSchema: z.ZodObject & z.ZodType<Record<T["idParam"], string> & { version: number }>;
  CreateBodySchema: z.ZodType<NewHeadBody & T["body"]>;
  VersionBodySchema: z.ZodType<T["body"]>;
  VersionSchema: z.ZodType<T["version"]>;
  WithLatestSchema: z.ZodType<HeadWithLatestWire<T["version"]>>;
  PageSchema: z.ZodType<Page<HeadWire>>;
  /** The resource's SQL. */
  repo: VersionedHeadRepo<T["content"], T["row"]>;
  /** What the repo stores of a version body (also the version part of a create body). */
  contentOf(body: T["body"]): T["content"];
  /** Renders a stored version. */
  presentVersion(row: T["row"]): T["version"];
}

/** The head fields of a create body; the rest is the body of version 1. */
export interface NewHeadBody {
  name?: string | null | undefined;
  description?: string | null | undefined;
}

/** `Profile` from `profile`, as errors name the resource. */
export function titleOf<T extends HeadTypes>(resource: HeadResource<T>): string {
  const { one } = resource.noun;
  return one.charAt(0).toUpperCase() + one.slice(1);
}

/** `ReportTemplate` from `report template`, as operation ids name the resource. */
export function pascalNoun(noun: string): string {
  return noun.replace(/(^|\s+)(\w)/g, (_, _space: string, letter: string) => letter.toUpperCase());
}
