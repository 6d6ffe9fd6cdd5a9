import { env } from "cloudflare:test";
import { expect, it } from "vitest";
import { insertVideos } from "../../helpers/factories";
import { freshStorage } from "../../helpers/fresh-storage";
import { expectJson, newTenant } from "../../helpers/harness";
import { createBody } from "../profiles/bodies";
import { registerEndpoint } from "../webhooks/helpers";

// One workerd runs many test files in turn (the workers project does not isolate files), and
// the setup file empties storage before each (freshStorage). Whatever ran before this file, the
// test itself leaves a row in every table, as an earlier file would, and empties storage the
// way the setup file does: it cannot pass because it happened to run first. Only API calls
// create these rows, so queue work an earlier file left running cannot add one.
const CREATED_BY_API = [
  "workspaces",
  "api_keys",
  "videos",
  "profiles",
  "workflows",
  "webhook_endpoints",
];

async function filledTables() {
  const counts = await env.DB.batch(
    CREATED_BY_API.map((table) =>
      env.DB.prepare(`SELECT '${table}' AS name, count(*) AS n FROM "${table}"`),
    ),
  );
  return counts
    .map((result) => (result.results as { name: string; n: number }[])[0])
    .filter((row) => row?.n !== 0);
}

/** One row in each table of CREATED_BY_API. */
async function leaveRowsBehind(): Promise<void> {
  const { api, workspaceId } = await newTenant();
  // A workflow takes completed videos only: one inserted as other files insert them.
  const [videoId = ""] = await insertVideos(workspaceId, 1);
  await expectJson(await api.post("/profiles", createBody()), 201);
  const rulebook = await expectJson<{ id: string }>(
    await api.post("/rulebooks", {
      name: "Left",
      rules: [{ id: "r1", title: "Left", description: "Left behind." }],
    }),
    201,
  );
  await expectJson(
    await api.post("/workflows", {
      name: "Left",
      playbook: "Left behind.",
      rulebook_id: rulebook.id,
      source_ids: [videoId],
    }),
    201,
  );
  await registerEndpoint(api);
}

it("starts with no workspace, key, video, profile, workflow or endpoint of an earlier file", async () => {
  expect(await filledTables()).toEqual([]);

  // What an earlier file leaves, then what the setup file does before the next one.
  await leaveRowsBehind();
  expect((await filledTables()).map((row) => row?.name)).toEqual(CREATED_BY_API);
  await freshStorage();
  expect(await filledTables()).toEqual([]);

  // Left behind on purpose, for whichever file runs next in this workerd.
  await env.DB.prepare(
    "INSERT INTO workspaces (id, name, created_at, updated_at) VALUES ('ws_left_behind', 'left', 0, 0)",
  ).run();
});

it("records every migration, in order, as wrangler's migrations table does", async () => {
  const recorded = await env.DB.prepare("SELECT id, name FROM d1_migrations ORDER BY id").all<{
    id: number;
    name: string;
  }>();
  expect(recorded.results).toEqual(
    env.TEST_MIGRATIONS.map((migration, i) => ({ id: i + 1, name: migration.name })),
  );
});
