import { readFile } from "node:fs/promises";
import path from "node:path";
import type { VasClient } from "../client.js";
import type { components } from "../generated/openapi.js";
import { unwrap } from "../http.js";
import { paginate } from "../paginate.js";
import type { Run } from "../types.js";
import { EXIT, type Settings, UsageError } from "./config.js";
import { printJson, printTable } from "./output.js";

type Schemas = components["schemas"];
type Finding = Schemas["Finding"];
type Mapping = Schemas["CsvImportMapping"];
type Preview = Schemas["CsvImportPreview"];

async function all<T>(pages: AsyncIterable<T>, limit = 1000): Promise<T[]> {
  const items: T[] = [];
  for await (const item of pages) {
    if (items.length >= limit) break;
    items.push(item);
  }
  return items;
}

/** The preview's suggested mapping as an import takes it (no nulls), or why it cannot be. */
function mappingOf(preview: Preview): Mapping {
  const s = preview.suggested_mapping;
  if (s.rule_title === null)
    throw new UsageError(
      `No column looks like a rule title (columns: ${preview.columns.join(", ")}). Name one "Title" or "Rule".`,
    );
  const mapping: Mapping = { rule_title: s.rule_title };
  if (s.rulebook_name !== null) mapping.rulebook_name = s.rulebook_name;
  if (s.rule_id !== null) mapping.rule_id = s.rule_id;
  if (s.rule_description !== null) mapping.rule_description = s.rule_description;
  if (s.rule_severity !== null) mapping.rule_severity = s.rule_severity;
  if (s.additional_description_columns.length > 0)
    mapping.additional_description_columns = s.additional_description_columns;
  return mapping;
}

/** Imports a CSV of rules with the suggested mapping: preview, then import, all or nothing. */
export async function importRulebooks(
  client: VasClient,
  s: Settings,
  file: string,
  flags: { name?: string },
) {
  const csv = await readFile(file, "utf8");
  const preview = await unwrap(
    client.api.POST("/rulebooks/csv-imports/preview", { body: { csv } }),
    "POST /rulebooks/csv-imports/preview",
  );
  if (preview.error_count > 0) {
    const lines = preview.errors.map((e) => `line ${e.line}: ${e.message}`).join("; ");
    throw new UsageError(`${file}: ${preview.error_count} rows cannot be imported (${lines}).`);
  }
  const imported = await unwrap(
    client.api.POST("/rulebooks/csv-imports", {
      body: {
        session_id: preview.session_id,
        mapping: mappingOf(preview),
        default_rulebook_name: flags.name ?? path.basename(file).replace(/\.[^.]+$/, ""),
      },
    }),
    "POST /rulebooks/csv-imports",
  );
  if (s.json) printJson(imported.rulebooks);
  else printTable(imported.rulebooks.map((r) => [r.id, `${r.rules.length} rules`, r.name]));
  return EXIT.ok;
}

export async function listRulebooks(client: VasClient, s: Settings) {
  const rulebooks = await all(
    paginate((cursor) =>
      unwrap(
        client.api.GET("/rulebooks", { params: { query: cursor ? { cursor } : {} } }),
        "GET /rulebooks",
      ),
    ),
  );
  if (s.json) printJson(rulebooks);
  else printTable(rulebooks.map((r) => [r.id, `${r.rules.length} rules`, r.name]));
  return EXIT.ok;
}

export async function createWorkflow(
  client: VasClient,
  s: Settings,
  flags: { rulebook: string; video: string[]; name: string; playbook?: string },
) {
  const workflow = await unwrap(
    client.api.POST("/workflows", {
      body: {
        name: flags.name,
        rulebook_id: flags.rulebook,
        source_ids: flags.video,
        ...(flags.playbook === undefined ? {} : { playbook: flags.playbook }),
      },
    }),
    "POST /workflows",
  );
  if (s.json) printJson(workflow);
  else
    printTable([[workflow.id, workflow.rulebook_id, workflow.source_ids.join(","), workflow.name]]);
  return EXIT.ok;
}

/** One line per finding: state, severity, video, time of its first cited span, rule title. */
function findingRows(findings: Finding[]) {
  return findings.map((f) => [f.id, f.result_state, f.severity, f.status, f.video_id, f.title]);
}

async function findingsOf(client: VasClient, query: { run_id?: string; video_id?: string }) {
  return all(
    paginate((cursor) =>
      unwrap(
        client.api.GET("/findings", {
          params: { query: { ...query, ...(cursor ? { cursor } : {}) } },
        }),
        "GET /findings",
      ),
    ),
  );
}

/** Runs a workflow; with --wait, waits and prints its summary and findings. */
export async function runWorkflow(
  client: VasClient,
  s: Settings,
  workflowId: string,
  flags: { wait?: boolean; timeout: number },
) {
  let run: Run = await client.createRun({ kind: "workflow", workflow_id: workflowId });
  if (flags.wait) run = await client.waitForRun(run.id, { timeoutMs: flags.timeout * 1000 });
  const findings = run.status === "completed" ? await findingsOf(client, { run_id: run.id }) : [];
  if (s.json) {
    printJson(flags.wait ? { run, findings } : run);
    return EXIT.ok;
  }
  const summary = run.workflow?.summary;
  printTable([[run.id, run.status, summary ?? ""]]);
  for (const notice of run.notices ?? []) process.stdout.write(`Note: ${notice.detail}\n`);
  if (findings.length > 0) printTable(findingRows(findings));
  return EXIT.ok;
}

export async function listFindings(
  client: VasClient,
  s: Settings,
  flags: { run?: string; video?: string },
) {
  const findings = await findingsOf(client, {
    ...(flags.run ? { run_id: flags.run } : {}),
    ...(flags.video ? { video_id: flags.video } : {}),
  });
  if (s.json) printJson(findings);
  else printTable(findingRows(findings));
  return EXIT.ok;
}

const REVIEW = ["confirmed", "dismissed", "resolved", "open"] as const;

export async function reviewFinding(
  client: VasClient,
  s: Settings,
  findingId: string,
  flags: { status: string; note?: string },
) {
  const status = REVIEW.find((value) => value === flags.status);
  if (status === undefined)
    throw new UsageError(`--status must be one of ${REVIEW.join(", ")}, not ${flags.status}.`);
  const finding = await unwrap(
    client.api.POST("/findings/{finding_id}/review", {
      params: { path: { finding_id: findingId } },
      body: { status, ...(flags.note === undefined ? {} : { note: flags.note }) },
    }),
    "POST /findings/{finding_id}/review",
  );
  if (s.json) printJson(finding);
  else printTable(findingRows([finding]));
  return EXIT.ok;
}
