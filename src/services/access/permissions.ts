import { PERMISSIONS, type Permission } from "../../domain/caller";

/** Expands a stored permission list (`["*"]` means all) into a set. */
export function expandPermissions(stored: readonly string[]): ReadonlySet<Permission> {
  if (stored.includes("*")) return new Set(PERMISSIONS);
  return new Set(PERMISSIONS.filter((permission) => stored.includes(permission)));
}
