import type { Hono } from "hono";
import type { HonoEnv } from "../../src/middleware/hono-env";

/**
 * Rows of a workspace, one INSERT … SELECT over a counter (so 100,000 rows take seconds,
 * not the minutes that 100-parameter inserts would). Ids are `<prefix>_` and 26 digits,
 * valid lowercase ULIDs that sort after any id minted today, so the lists' newest-first
 * order and cursors behave as with real rows. `from` keeps successive calls apart.
 */
const SEEDERS = {
  videos: `INSERT INTO videos (id, workspace_id, filename, content_type, file_size, status, progress, source, duration, frame_count, created_at, updated_at)
    SELECT 'vid_' || ?2 || printf('%016d', ?3 + i), ?1, 'scale-' || i || '.mp4', 'video/mp4', 1000000,
      CASE WHEN i % 50 = 0 THEN 'failed' ELSE 'completed' END, 100, 'upload', 60, 1800, ?4, ?4 FROM n`,
  runs: `INSERT INTO runs (id, workspace_id, kind, status, sub_state, source_ids, execution_profile_ref, locale, profile_id, profile_version, formats, profile_snapshot_id, input_snapshot_id, cancel_requested, limitations, request_id, created_at, updated_at)
    SELECT 'run_' || ?2 || printf('%016d', ?3 + i), ?1, 'analysis', 'completed', 'completed',
      json_array('vid_' || ?2 || printf('%016d', ?3 + i)), 'balanced-analysis@1', 'en', 'prof_scale', 1,
      json_array('json'), 'snap_p' || i, 'snap_i' || i, 0, json_array(), 'req_scale', ?4, ?4 FROM n`,
  // One finding per seeded run (seed the runs first: a finding's run must exist).
  findings: `INSERT INTO findings (id, workspace_id, run_id, workflow_id, video_id, rule_id, rule_reference, title, description, type, severity, status, result_state, summary, evidence, metadata, created_at, updated_at)
    SELECT 'fnd_' || ?2 || printf('%016d', ?3 + i), ?1, 'run_' || ?2 || printf('%016d', ?3 + i), 'wf_scale',
      'vid_' || ?2 || printf('%016d', ?3 + i), 'rule_scale', 'R1', 'Scale rule', 'A seeded finding.',
      'needs_review', 'medium', 'open', 'uncertain', 'Seeded for the scale bench.', json_array(),
      json_object('extraction_method', 'bench', 'limitations', json_array(), 'quality', 'unknown'), ?4, ?4 FROM n`,
} as const;

/**
 * Bench-only: seeds `count` synthetic videos, runs or findings into a workspace (`npm run
 * bench -- scale`).
 */
export function registerBenchScaleRoutes(app: Hono<HonoEnv>) {
  app.post("/__bench/seed-rows", async (c) => {
    const kind = c.req.query("kind");
    if (kind !== "videos" && kind !== "runs" && kind !== "findings") {
      return c.json({ error: "kind" }, 400);
    }
    const workspaceId = c.req.query("workspace_id") ?? "";
    const count = Number(c.req.query("count") ?? 1000);
    const from = Number(c.req.query("from") ?? 0);
    const counter = `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${Math.floor(count)}) `;
    // A prefix that sorts after ULIDs of this century: "7zzzzzzzzz" is the largest time.
    await c.env.DB.prepare(counter + SEEDERS[kind])
      .bind(workspaceId, "7zzzzzzzzz", from, new Date().toISOString())
      .run();
    return c.json({ inserted: count });
  });
}
