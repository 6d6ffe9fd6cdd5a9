import { env } from "cloudflare:workers";
import { getTableColumns, getTableName } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { database, runBatch } from "../../../src/db/client";
import { insertJsonRowsStatements, JSON_ROWS_BYTES } from "../../../src/db/insert-json";
import { type FindingRow, insertFindingsStatements } from "../../../src/db/repos/findings";
import { type AnswerRow, insertAnswersStatements } from "../../../src/db/repos/runs";
import { answers, findings, runs } from "../../../src/db/schema";
import { newTenant } from "../../helpers/harness";

// Answers and findings are stored as JSON rows that SQL unpacks. Reports hash what is stored,
// so those rows must hold the very values drizzle's own insert binds one value a cell (the
// reference, one row a statement): each column read back with quote() (text, integer and real
// spell differently).

const db = database(env.DB);
let serial = 0;
let workspaceId: string;

beforeAll(async () => {
  ({ workspaceId } = await newTenant());
});

/** Every stored column of a run's rows in `table` but the ids, in position order, as SQL literals. */
async function stored(table: SQLiteTable, runColumn: string, runId: string, order: string) {
  const columns = Object.values(getTableColumns(table))
    .map((c) => c.name)
    .filter((name) => name !== "id" && name !== runColumn);
  const { results } = await env.DB.prepare(
    `SELECT ${columns.map((c) => `quote("${c}") AS "${c}"`).join(", ")} FROM ${getTableName(table)} WHERE "${runColumn}" = ? ORDER BY ${order}`,
  )
    .bind(runId)
    .all();
  return results;
}

const text = fc.string({ unit: "binary", maxLength: 40 });
const number = fc.oneof(
  fc.integer({ min: -1e9, max: 1e9 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);
const json = fc.jsonValue({ maxDepth: 3 });

/** A run row whose cancel flag is left to its column default (false, stored as 0). */
function runRow(id: string): typeof runs.$inferInsert {
  const now = "2026-06-01T00:00:00.000Z";
  return {
    id,
    workspaceId,
    kind: "workflow",
    status: "processing",
    subState: "running",
    sourceIds: ["vid_a", "vid_b"],
    executionProfileRef: "premium-analysis@1",
    locale: "en-US",
    formats: ["json"],
    profileSnapshotId: "snap_p",
    inputSnapshotId: "snap_i",
    limitations: [],
    requestId: "req_json_rows",
    createdAt: now,
    updatedAt: now,
  };
}

async function twoRuns(): Promise<[string, string]> {
  serial++;
  const ids: [string, string] = [`run_json_a_${serial}`, `run_json_b_${serial}`];
  await runBatch(db, [db.insert(runs).values(runRow(ids[0]))]);
  await runBatch(db, insertJsonRowsStatements(db, runs, [runRow(ids[1])]));
  return ids;
}

const answerArb = fc.record({
  key: text,
  type: fc.constantFrom("verdict", "measurement", "synthesis"),
  resultState: fc.constantFrom("found", "not_found", "uncertain", "not_checked"),
  scope: text,
  eventCount: fc.nat(),
  evidenceCount: fc.nat(),
  summary: text,
  value: json,
  reasonCode: fc.option(text),
  seconds: number,
});

const findingArb = fc.record({
  title: text,
  severity: fc.constantFrom("info", "low", "high"),
  summary: text,
  reasonCode: fc.option(text),
  start: number,
  note: fc.option(text),
  limitations: fc.array(text, { maxLength: 3 }),
});

describe("rows stored as JSON", () => {
  it("store what drizzle's insert stores, column for column, defaults included", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(answerArb, { minLength: 1, maxLength: 12 }), async (drawn) => {
        const [a, b] = await twoRuns();
        const rows = (runId: string): AnswerRow[] =>
          drawn.map((d, i) => ({
            id: `ans_${runId}_${i}`,
            runId,
            workspaceId,
            position: i,
            key: `${i}/${d.key}`,
            type: d.type,
            resultState: d.resultState,
            coverage: { state: "partial", scope: d.scope },
            eventCount: d.eventCount,
            evidenceCount: d.evidenceCount,
            payload: {
              summary: d.summary,
              value: d.value,
              items: [],
              evidence_summary: {
                contributing_count: 0,
                drill_down_path: `/runs/${d.key}`,
                precision: "unknown",
                representative: [],
              },
            },
            reasonCode: d.reasonCode,
            provenance: { engine: "local", seconds: d.seconds },
            createdAt: "2026-06-01T00:00:00.000Z",
          })) as AnswerRow[];
        await runBatch(
          db,
          rows(a).map((row) => db.insert(answers).values(row)),
        );
        // However many the rows, a step's answers travel in one statement.
        const statements = insertAnswersStatements(db, rows(b));
        expect(statements).toHaveLength(1);
        await runBatch(db, statements);
        const expected = await stored(answers, "run_id", a, "position");
        expect(expected).toHaveLength(drawn.length);
        expect(await stored(answers, "run_id", b, "position")).toEqual(expected);
        expect(await stored(runs, "id", b, "created_at")).toEqual(
          await stored(runs, "id", a, "created_at"),
        );
      }),
      { numRuns: 25 },
    );
  });

  it("store findings as drizzle's insert does, and skip rows already stored", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(findingArb, { minLength: 1, maxLength: 8 }), async (drawn) => {
        const [a, b] = await twoRuns();
        const rows = (runId: string): FindingRow[] =>
          drawn.map((d, i) => ({
            id: `finding_${runId}_${i}`,
            workspaceId,
            runId,
            workflowId: "wf_json_rows",
            videoId: "vid_a",
            ruleId: `rule-${i}`,
            ruleReference: `rb@1/rule-${i}`,
            title: d.title,
            description: d.summary,
            type: "needs_review",
            severity: d.severity,
            status: "open",
            resultState: "not_checked",
            summary: d.summary,
            reasonCode: d.reasonCode,
            evidence: [
              {
                id: "ev",
                video_id: "vid_a",
                segment_id: "seg_a",
                kind: "transcript",
                start_time: d.start,
                end_time: d.start,
                text: d.title,
              },
            ],
            metadata: {
              extraction_method: "x:none",
              limitations: d.limitations,
              quality: "unknown",
            },
            reviewNote: d.note,
            reviewedAt: null,
            reviewedBy: null,
            createdAt: "2026-06-01T00:00:00.000Z",
            updatedAt: "2026-06-01T00:00:00.000Z",
          })) as FindingRow[];
        await runBatch(
          db,
          rows(a).map((row) => db.insert(findings).values(row)),
        );
        await runBatch(db, insertFindingsStatements(db, rows(b)));
        // Stored again (a duplicate delivery): nothing changes, nothing fails.
        await runBatch(
          db,
          insertFindingsStatements(
            db,
            rows(b).map((r) => ({ ...r, title: "again" })),
          ),
        );
        const expected = await stored(findings, "run_id", a, "rule_id");
        expect(expected).toHaveLength(drawn.length);
        expect(await stored(findings, "run_id", b, "rule_id")).toEqual(expected);
      }),
      { numRuns: 25 },
    );
  });

  it("splits rows over statements that each stay under the bytes a D1 value may hold", async () => {
    const big = "é".repeat(100_000);
    const rows = Array.from({ length: 30 }, (_, i) => ({
      ...runRow(`run_big_${i}`),
      requestId: big,
    }));
    const statements = insertJsonRowsStatements(db, runs, rows);
    const carried = statements.map((statement) => {
      const { params } = (statement as unknown as { toSQL(): { params: unknown[] } }).toSQL();
      expect(params).toHaveLength(1);
      return new TextEncoder().encode(String(params[0])).length;
    });
    // 30 rows of ~200 KB: several statements, each under the bound, all rows stored.
    expect(carried.length).toBeGreaterThan(5);
    for (const bytes of carried) expect(bytes).toBeLessThanOrEqual(JSON_ROWS_BYTES);
    await runBatch(db, statements);
    const { results } = await env.DB.prepare(
      "SELECT count(*) AS n FROM runs WHERE id LIKE 'run_big_%' AND length(request_id) = 100000",
    ).all<{ n: number }>();
    expect(results[0]?.n).toBe(30);
  });
});
