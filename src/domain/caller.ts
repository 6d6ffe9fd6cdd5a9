/** The route permissions of the spec's Authentication section. */
export const PERMISSIONS = [
  "READ_VIDEOS",
  "UPLOAD_VIDEOS",
  "DELETE_VIDEOS",
  "VIEW_INSIGHTS",
  "VIEW_USAGE",
  "RUN_WORKFLOWS",
  "SEARCH_CONTENT",
  "MANAGE_WEBHOOKS",
  "MANAGE_RULEBOOKS",
] as const;

/** One route permission. */
export type Permission = (typeof PERMISSIONS)[number];

/** Who is calling: derived from the API key, never from the request. */
export interface AuthContext {
  keyId: string;
  workspaceId: string;
  /** The owner (`user_…`) the key acts for; several keys may act for one owner. */
  ownerId: string;
  permissions: ReadonlySet<Permission>;
}
