import { env } from "cloudflare:test";
import { expect, it } from "vitest";

// One workerd runs many test files in turn (the workers project does not isolate files), and
// the setup file empties storage before each. Run with the suite, this file comes after others
// that left rows and objects behind in the same workerd; it fails if any reach it.

/** Tables a migration fills (the rulebook templates); every other table starts empty. */
function seededTables(): Set<string> {
  const seeded = new Set<string>();
  for (const migration of env.TEST_MIGRATIONS)
    for (const query of migration.queries)
      for (const match of query.matchAll(/INSERT INTO [`"]?(\w+)/gi))
        if (match[1] !== undefined) seeded.add(match[1]);
  return seeded;
}

it("starts from the migrated D1 tables alone and an empty bucket", async () => {
  const { results: tables } = await env.DB.prepare(
    "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name <> 'd1_migrations'",
  ).all<{ name: string; sql: string }>();
  const seeded = seededTables();
  // A full-text table keeps its own bookkeeping rows in shadow tables named after it.
  const virtual = tables.filter(({ sql }) => sql.startsWith("CREATE VIRTUAL TABLE"));
  const counted = tables.filter(
    ({ name }) => !seeded.has(name) && !virtual.some((table) => name.startsWith(`${table.name}_`)),
  );
  expect(counted.map(({ name }) => name)).toContain("workspaces");
  const counts = await env.DB.batch(
    counted.map(({ name }) =>
      env.DB.prepare(`SELECT '${name}' AS name, count(*) AS n FROM "${name}"`),
    ),
  );
  const filled = counts
    .map((result) => (result.results as { name: string; n: number }[])[0])
    .filter((row) => row !== undefined && row.n > 0);
  expect(filled).toEqual([]);
  const listed = await env.MEDIA_BUCKET.list({ limit: 5 });
  expect(listed.objects.map((object) => object.key)).toEqual([]);

  // Left behind on purpose, for whichever file runs next in this workerd.
  await env.DB.prepare(
    "INSERT INTO workspaces (id, name, created_at, updated_at) VALUES ('ws_left_behind', 'left', 0, 0)",
  ).run();
  await env.MEDIA_BUCKET.put("left-behind", "x");
});
