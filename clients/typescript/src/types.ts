import type { components, operations } from "./generated/openapi.js";

type Schemas = components["schemas"];
export type Video = Schemas["Video"];
export type UploadSession = Schemas["UploadSession"];
export type StorageTarget = Schemas["StorageTarget"];
export type SearchRequest = Schemas["SearchRequest"];
export type SearchResult = Schemas["SearchResult"];
export type SearchResultPage = Schemas["SearchResultPage"];
export type Run = Schemas["Run"];
export type CreateRunRequest = Schemas["CreateRunRequest"];
export type Answer = Schemas["Answer"];
export type Report = Schemas["Report"];
export type Profile = Schemas["ProfileWithLatestVersion"];
export type UsageReport = Schemas["UsageReport"];
export type UsagePeriod = Schemas["UsagePeriod"];

/** The query a list operation takes, from the document. */
export type QueryOf<Op extends keyof operations> = NonNullable<
  operations[Op]["parameters"]["query"]
>;
