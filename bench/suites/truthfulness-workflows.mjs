// The workflow part of the truthfulness bench: a labelled rulebook run as a workflow over one
// video; each finding is judged like an answer (its result state against whether the requirement
// was met or the hazard occurred), and its type and severity against the rule's kind.
import { json, until } from "../lib.mjs";

const TYPES = {
  requirement: { found: "requirement_met", not_found: "requirement_not_shown" },
  hazard: { found: "hazard_observed", not_found: "hazard_not_shown" },
};

/** The type and severity a finding of this rule must carry in this state. */
function expected(rule, state) {
  const kind = rule.kind ?? "requirement";
  const type = TYPES[kind][state] ?? "needs_review";
  const harmless = type === "requirement_met" || type === "hazard_not_shown";
  return { type, severity: harmless ? "info" : rule.severity };
}

/** Runs the workflow; per rule id, its finding shaped like an answer plus any type mismatch. */
export async function findingsOf({ api, headers }, videoId, workflow) {
  const post = async (route, body) =>
    json(await fetch(`${api}${route}`, { method: "POST", headers, body: JSON.stringify(body) }));
  const rulebook = await post("/rulebooks", {
    name: workflow.name,
    content: workflow.playbook,
    rules: workflow.rules.map(({ id, title, description, severity, kind }) => ({
      id,
      title,
      description,
      severity,
      ...(kind === undefined ? {} : { kind }),
    })),
  });
  const created = await post("/workflows", {
    name: workflow.name,
    playbook: workflow.playbook,
    rulebook_id: rulebook.id,
    source_ids: [videoId],
  });
  const accepted = await post("/runs", { kind: "workflow", workflow_id: created.id });
  const run = await until(
    async () => json(await fetch(`${api}/runs/${accepted.id}`, { headers })),
    (r) => ["completed", "failed", "canceled"].includes(r.status),
  );
  if (run.status !== "completed") throw new Error(`${workflow.name}: run ${run.status}`);
  const page = await json(await fetch(`${api}/findings?run_id=${run.id}&limit=100`, { headers }));
  const byRule = new Map();
  for (const rule of workflow.rules) {
    const finding = page.data.find((f) => f.rule_id === rule.id);
    if (finding === undefined) throw new Error(`${workflow.name}: no finding for ${rule.id}`);
    const want = expected(rule, finding.result_state);
    const mismatch =
      finding.type === want.type && finding.severity === want.severity
        ? undefined
        : `${rule.id}: ${finding.result_state} as ${finding.type}/${finding.severity}, expected ${want.type}/${want.severity}`;
    byRule.set(rule.id, {
      result_state: finding.result_state,
      reason_code: finding.reason_code,
      answer_payload: {},
      evidence_ids: finding.evidence_ids ?? [],
      mismatch,
    });
  }
  return byRule;
}
