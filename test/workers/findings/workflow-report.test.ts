import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { answerFromPrompt } from "../../../simulators/workers-ai/answers";
import { createPorts, type Ports } from "../../../src/ports";
import { createDeps } from "../../../src/services/deps";
import { executeRun } from "../../../src/services/runs/execute-run";
import { type Client, expectJson, newTenant } from "../../helpers/harness";
import { uploadFixture, waitForFinal } from "../../helpers/processing";
import { RecordingQueue } from "../../helpers/sweep";
import { world as workersAiWorld } from "../answer-engine/recording-ai";
import { RULES, startWorkflowRun, waitForWorkflowRun, workflowOver } from "./helpers";

// One workflow over talk.mp4 ("Warehouse safety briefing") and silent.mp4, in which nothing
// is heard or seen, run by the local engine and by the production answer engine
// (WorkersAiAnswerEngine over the answer model's simulator), whose items are numbered `item_N`.
let api: Client;
let workspaceId: string;
let workflowId: string;
let localRunId: string;
const markdown: Record<"local" | "production", string> = { local: "", production: "" };

beforeAll(async () => {
  ({ api, workspaceId } = await newTenant());
  const talk = (await waitForFinal(api, (await uploadFixture(api, "talk.mp4")).id)).id;
  const silent = (await waitForFinal(api, (await uploadFixture(api, "silent.mp4")).id)).id;
  ({ workflowId } = await workflowOver(api, [talk, silent]));
  const local = await startWorkflowRun(api, workflowId);
  await waitForWorkflowRun(api, local.id);
  localRunId = local.id;
  markdown.local = await markdownReport(local.id);
  markdown.production = await markdownReport(await productionRun());
}, 90_000);

/** A workflow run whose verdicts come from the production answer engine; returns its id. */
async function productionRun(): Promise<string> {
  const { engine } = workersAiWorld(answerFromPrompt);
  const ports = createPorts(env);
  const deps = createDeps({ ...env, ANALYSIS_QUEUE: new RecordingQueue() }, {
    ...ports,
    answerEngine: engine,
  } as Ports);
  const runId = (await startWorkflowRun(api, workflowId, { execute_now: false })).id;
  const message = { type: "run-analysis" as const, run_id: runId, workspace_id: workspaceId };
  // The first delivery plans the steps and opens the lanes; the next ones work the steps.
  for (let i = 0; i < 4; i++) await executeRun(deps, message);
  expect((await waitForWorkflowRun(api, runId)).status).toBe("completed");
  return runId;
}

async function markdownReport(runId: string): Promise<string> {
  const list = await expectJson<{ data: { id: string; format: string }[] }>(
    await api.get(`/reports?run_id=${runId}`),
    200,
  );
  return reportText(list.data.find((r) => r.format === "markdown")?.id);
}

async function reportText(id: string | undefined): Promise<string> {
  const res = await api.get(`/reports/${id}`, { accept: "text/markdown" });
  expect(res.status).toBe(200);
  return res.text();
}

describe("a workflow run's Markdown report, as a person reads it", () => {
  it("is titled for a workflow and names its rulebook, not a profile", () => {
    expect(markdown.local).toMatch(/^# Workflow report\n/);
    expect(markdown.local).toMatch(/^- \*\*Rulebook:\*\* `rb_\w+@1`$/m);
    expect(markdown.local).not.toContain("**Profile:**");
  });

  it("sums the answers up, with the source nothing was heard or seen of", () => {
    expect(markdown.local).toMatch(
      /^- \*\*Summary:\*\* 1 found, 1 uncertain, 4 not checked \(6 answers\); nothing was heard or seen in 1 of 2 sources(;|\n)/m,
    );
  });

  it("counts what was not checked and why under limitations, then carries the run's notice", () => {
    expect(markdown.local).not.toContain("**Limitations:** None");
    expect(markdown.local).toContain(
      "- **Limitations:**\n  - 4 of 6 not checked: the evidence the rule needs was not extracted (4)\n  - 1 of 6 uncertain: ",
    );
    expect(markdown.local).toMatch(
      /^ {2}- silent\.mp4: Nothing in this video was heard or seen, so search finds it only by its filename, title and tags, and every rule or answer about it is not checked\./m,
    );
  });

  it("renders the same bytes when asked for again later, headings and notices included", async () => {
    const again = await expectJson<{ data: { id: string }[] }>(
      await api.post(`/runs/${localRunId}/reports`, { formats: ["markdown"] }),
      201,
    );
    expect(await reportText(again.data[0]?.id)).toBe(markdown.local);
  });

  it("quotes the sentence behind an uncertain answer, with its times", () => {
    const section = markdown.local
      .split("\n## ")
      .find((s) => s.startsWith("Forklift operators wear high visibility vests (high) — "));
    expect(section, markdown.local).toContain("**Verdict:** Uncertain — not a pass");
    expect(section).toContain(
      '"Forklift operators must wear high visibility vests." (00:05–00:08)',
    );
  });
});

describe.each(["local", "production"] as const)("with the %s answer engine", (engine) => {
  it("heads each section by the rule's title (and severity) and the video's name", () => {
    const headings = markdown[engine].match(/^## .*$/gm) ?? [];
    const expected = RULES.flatMap((rule) => {
      const title = rule.severity ? `${rule.title} (${rule.severity})` : rule.title;
      return [`## ${title} — Warehouse safety briefing`, `## ${title} — silent.mp4`];
    });
    expect(headings, markdown[engine]).toEqual(expected);
  });

  it("reads no Pass for a video nothing was heard or seen of", () => {
    const silent = markdown[engine].split("\n## ").filter((s) => /^.* — silent/.test(s));
    expect(silent).toHaveLength(RULES.length);
    for (const section of silent) {
      expect(section).toContain("**Verdict:** Not checked");
      expect(section).not.toMatch(/\bPass\b/);
    }
  });
});
