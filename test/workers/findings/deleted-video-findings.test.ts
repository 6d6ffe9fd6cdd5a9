import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { answerFromPrompt } from "../../../simulators/workers-ai/answers";
import { createPorts, type Ports } from "../../../src/ports";
import { createDeps } from "../../../src/services/deps";
import type { FindingDto } from "../../../src/services/presenters/finding";
import type { ReportDto } from "../../../src/services/presenters/report";
import { executeRun } from "../../../src/services/runs/execute-run";
import { deleteVideo } from "../../helpers/deletion";
import { type Client, expectJson, newTenant } from "../../helpers/harness";
import { fixtureBytes } from "../../helpers/media-fixtures";
import { uploadFixture, uploadVideo, waitForFinal } from "../../helpers/processing";
import { RecordingQueue } from "../../helpers/sweep";
import { world as workersAiWorld } from "../answer-engine/recording-ai";
import { allFindings, startWorkflowRun, waitForWorkflowRun } from "./helpers";

// One workflow over talk.mp4 and voice-silence.mp4 (uploaded under a name of its own), run by
// the local engine and by the production answer engine; voice-silence.mp4 is deleted after.
const GONE_NAME = "night-shift-yard.mp4";
const MARKER = "[redacted: source deleted]";
const RULES = [
  {
    id: "dock-hours",
    title: "The loading dock's closing time is announced",
    description: "The briefing says when the loading dock closes.",
  },
  {
    id: "vests",
    title: "Forklift operators wear high visibility vests",
    description: "Forklift operators must wear high visibility vests.",
  },
];

let api: Client;
let workspaceId: string;
let kept: string;
let gone: string;
interface Issued {
  runId: string;
  findings: FindingDto[];
  markdown: string;
  /** What the findings and report quoted of the deleted video before its deletion. */
  quotes: string[];
}
const issued: Partial<Record<"local" | "production", Issued>> = {};

async function markdownReport(runId: string): Promise<{ report: ReportDto; text: string }> {
  const list = await expectJson<{ data: ReportDto[] }>(
    await api.get(`/reports?run_id=${runId}`),
    200,
  );
  const report = list.data.find((r) => r.format === "markdown");
  const res = await api.get(`/reports/${report?.id}`, { accept: "text/markdown" });
  expect(res.status).toBe(200);
  return { report: report as ReportDto, text: await res.text() };
}

async function detailed(runId: string): Promise<FindingDto[]> {
  const listed = await allFindings(api, `run_id=${runId}`);
  return Promise.all(
    listed.map(async (f) => expectJson<FindingDto>(await api.get(`/findings/${f.id}`), 200)),
  );
}

async function issue(runId: string): Promise<Issued> {
  const findings = await detailed(runId);
  const own = findings.filter((f) => f.video_id === gone);
  const quotes = [...new Set(own.flatMap((f) => f.evidence.map((e) => e.text)))];
  const { text } = await markdownReport(runId);
  // Meaningful only when the deleted video is quoted, in its findings and in the report.
  expect(quotes.length, JSON.stringify(own)).toBeGreaterThan(0);
  expect(quotes.some((q) => text.includes(q))).toBe(true);
  return { runId, findings, markdown: text, quotes };
}

/** A workflow run whose verdicts come from the production answer engine; returns its id. */
async function productionRun(workflowId: string): Promise<string> {
  const { engine } = workersAiWorld(answerFromPrompt);
  const ports = createPorts(env);
  const deps = createDeps({ ...env, ANALYSIS_QUEUE: new RecordingQueue() }, {
    ...ports,
    answerEngine: engine,
  } as Ports);
  const runId = (await startWorkflowRun(api, workflowId, { execute_now: false })).id;
  const message = { type: "run-analysis" as const, run_id: runId, workspace_id: workspaceId };
  for (let i = 0; i < 4; i++) await executeRun(deps, message);
  expect((await waitForWorkflowRun(api, runId)).status).toBe("completed");
  return runId;
}

beforeAll(async () => {
  ({ api, workspaceId } = await newTenant(["*"]));
  kept = (await waitForFinal(api, (await uploadFixture(api, "talk.mp4")).id)).id;
  const bytes = fixtureBytes("voice-silence.mp4");
  gone = (await waitForFinal(api, (await uploadVideo(api, GONE_NAME, bytes)).id)).id;
  const rulebook = await expectJson<{ id: string }>(
    await api.post("/rulebooks", { name: "Dock", content: "Dock rules", rules: RULES }),
    201,
  );
  const workflow = await expectJson<{ id: string }>(
    await api.post("/workflows", {
      name: "Dock review",
      playbook: "Judge what the videos say and show.",
      rulebook_id: rulebook.id,
      source_ids: [kept, gone],
      output_modes: ["findings", "markdown"],
    }),
    201,
  );
  const local = await startWorkflowRun(api, workflow.id);
  await waitForWorkflowRun(api, local.id);
  issued.local = await issue(local.id);
  issued.production = await issue(await productionRun(workflow.id));
  expect((await deleteVideo(api, gone)).status).toBe(204);
}, 120_000);

describe.each(["local", "production"] as const)("with the %s answer engine", (engine) => {
  it("withholds the deleted video's findings' description, quotes and clips", async () => {
    const before = issued[engine] as Issued;
    const now = await detailed(before.runId);
    expect(now.map((f) => [f.id, f.result_state, f.type, f.title, f.evidence_ids])).toEqual(
      before.findings.map((f) => [f.id, f.result_state, f.type, f.title, f.evidence_ids]),
    );
    for (const finding of now.filter((f) => f.video_id === gone)) {
      expect(finding.redacted).toBe("source_deleted");
      expect(finding.description).toBe(MARKER);
      for (const span of finding.evidence) {
        expect(span).toMatchObject({ text: MARKER, redacted: "source_deleted" });
        expect(span.clip_url).toBeUndefined();
      }
    }
    const others = now.filter((f) => f.video_id === kept);
    expect(others.map((f) => f.description)).toEqual(
      before.findings.filter((f) => f.video_id === kept).map((f) => f.description),
    );
    expect(others.flatMap((f) => f.evidence).every((e) => e.clip_url?.startsWith("http"))).toBe(
      true,
    );
    const body = JSON.stringify(now);
    for (const quote of before.quotes) expect(body).not.toContain(quote);
  });

  it("lists the deleted video's findings marked as redacted", async () => {
    const before = issued[engine] as Issued;
    const listed = await allFindings(api, `run_id=${before.runId}&video_id=${gone}`);
    expect(listed.length).toBeGreaterThan(0);
    for (const finding of listed) {
      expect(finding).toMatchObject({ redacted: "source_deleted", description: MARKER });
    }
  });

  it("renders the report without the video's quotes or name, its sections as issued", async () => {
    const before = issued[engine] as Issued;
    const { report, text } = await markdownReport(before.runId);
    for (const quote of before.quotes) expect(text).not.toContain(quote);
    expect(text).not.toContain(GONE_NAME);
    expect(text).not.toContain("Dock notes over silence");
    expect(report.notices).toEqual([
      expect.objectContaining({ code: "source_deleted", video_id: gone }),
    ]);
    const headings = (markdown: string) => markdown.match(/^## .*$/gm) ?? [];
    // Each section of the deleted video is headed by its id in place of its title.
    expect(headings(text)).toEqual(
      headings(before.markdown).map((h) => h.replace(/ — Dock notes over silence$/, ` — ${gone}`)),
    );
    expect(headings(text).filter((h) => h.endsWith(gone))).toHaveLength(RULES.length);
  });
});
