import type { Api, Page } from "./api";
import { byId, h, pause, show } from "./dom";

interface Workflow {
  id: string;
  name: string;
}

interface WorkflowRun {
  id: string;
  status: "queued" | "processing" | "completed" | "failed" | "canceled";
  workflow?: { summary?: string | null };
  notices?: { detail: string }[];
}

/** A finding (spec §2.12), the fields this page shows. */
interface Finding {
  id: string;
  video_id: string;
  title: string;
  description: string;
  severity: string;
  result_state: string;
}

const STATE_WORDS: Record<string, string> = {
  found: "Found",
  not_found: "Not found",
  uncertain: "Uncertain — not a pass",
  not_checked: "Not checked",
};

/** Offers the workspace's workflows, or says how to make one. */
export async function fillWorkflowForm(api: Api): Promise<void> {
  const workflows = await api.json<Page<Workflow>>("GET", "/workflows?limit=100");
  const select = byId<HTMLSelectElement>("workflow");
  const keep = select.value;
  show(select, ...workflows.data.map((w) => h("option", { value: w.id, text: w.name })));
  if (workflows.data.some((w) => w.id === keep)) select.value = keep;
  byId("workflow-status").textContent =
    workflows.data.length === 0
      ? "No workflow yet: import a rulebook and create one (the README's walk-through, or vas workflows create), then Refresh."
      : "";
}

function findingItem(finding: Finding): HTMLElement {
  return h(
    "li",
    { class: "finding", "data-state": finding.result_state },
    h("strong", { text: finding.title }),
    h("span", {
      class: "status",
      text: ` ${STATE_WORDS[finding.result_state] ?? finding.result_state} · ${finding.severity} · ${finding.video_id}`,
    }),
    h("p", { text: finding.description }),
  );
}

/** Runs the workflow, waits for it, and lists its findings with the run's summary. */
export async function runWorkflow(api: Api, workflowId: string): Promise<void> {
  const status = byId("workflow-status");
  const list = byId("findings");
  show(list);
  let run = await api.json<WorkflowRun>("POST", "/runs", {
    kind: "workflow",
    workflow_id: workflowId,
  });
  while (run.status === "queued" || run.status === "processing") {
    status.textContent = `run ${run.id}: ${run.status}`;
    await pause(1000);
    run = await api.json<WorkflowRun>("GET", `/runs/${run.id}`);
  }
  const notes = (run.notices ?? []).map((n) => ` ${n.detail}`).join("");
  status.textContent = `run ${run.id}: ${run.status}${run.workflow?.summary ? ` — ${run.workflow.summary}` : ""}.${notes}`;
  if (run.status !== "completed") return;
  const findings = await api.json<Page<Finding>>("GET", `/findings?run_id=${run.id}&limit=100`);
  show(list, ...findings.data.map(findingItem));
}
