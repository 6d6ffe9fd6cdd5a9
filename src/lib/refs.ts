/**
 * Spells a `name@version` reference in the spec's form (the spec's Run section): lowercase
 * alphanumeric groups joined by hyphens, `@`, a numeric version. Any name is folded into that form,
 * so "Weekly Dock Summary" version 2 is `weekly-dock-summary@2`.
 */
export function nameAtVersion(name: string, version: number): string {
  const slug = name
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return `${slug === "" ? "template" : slug}@${version}`;
}
