import { env } from "cloudflare:test";
import { expect, it } from "vitest";

// One workerd runs many test files in turn (the workers project does not isolate files), and
// the setup file empties storage before each. Run with the suite, this file comes after others
// that left workspaces behind in the same workerd; it fails if any reach it. Only API calls
// create these rows, so queue work an earlier file left running cannot add one.
const CREATED_BY_API = [
  "workspaces",
  "api_keys",
  "videos",
  "profiles",
  "workflows",
  "webhook_endpoints",
];

it("starts with no workspace, key, video, profile, workflow or endpoint of an earlier file", async () => {
  const counts = await env.DB.batch(
    CREATED_BY_API.map((table) =>
      env.DB.prepare(`SELECT '${table}' AS name, count(*) AS n FROM "${table}"`),
    ),
  );
  const filled = counts
    .map((result) => (result.results as { name: string; n: number }[])[0])
    .filter((row) => row?.n !== 0);
  expect(filled).toEqual([]);

  // Left behind on purpose, for whichever file runs next in this workerd.
  await env.DB.prepare(
    "INSERT INTO workspaces (id, name, created_at, updated_at) VALUES ('ws_left_behind', 'left', 0, 0)",
  ).run();
});
