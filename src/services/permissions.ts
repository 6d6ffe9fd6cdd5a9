/** The route permissions of spec section 5. */
export const PERMISSIONS = [
  "READ_VIDEOS",
  "UPLOAD_VIDEOS",
  "VIEW_INSIGHTS",
  "RUN_WORKFLOWS",
  "SEARCH_CONTENT",
  "MANAGE_WEBHOOKS",
  "MANAGE_RULEBOOKS",
] as const;

/** One route permission. */
export type Permission = (typeof PERMISSIONS)[number];

/** Expands a stored permission list (`["*"]` means all) into a set. */
export function expandPermissions(stored: readonly string[]): ReadonlySet<Permission> {
  if (stored.includes("*")) return new Set(PERMISSIONS);
  return new Set(PERMISSIONS.filter((permission) => stored.includes(permission)));
}
