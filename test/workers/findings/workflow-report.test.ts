import { beforeAll, describe, expect, it } from "vitest";
import { type Client, expectJson, newTenant } from "../../helpers/harness";
import { uploadFixture, waitForFinal } from "../../helpers/processing";
import { startWorkflowRun, waitForWorkflowRun, workflowOver } from "./helpers";

let markdown: string;

beforeAll(async () => {
  const { api } = await newTenant();
  const talk = (await waitForFinal(api, (await uploadFixture(api, "talk.mp4")).id)).id;
  const silent = (await waitForFinal(api, (await uploadFixture(api, "silent.mp4")).id)).id;
  const { workflowId } = await workflowOver(api, [talk, silent]);
  const run = await startWorkflowRun(api, workflowId);
  await waitForWorkflowRun(api, run.id);
  markdown = await markdownReport(api, run.id);
}, 60_000);

async function markdownReport(api: Client, runId: string): Promise<string> {
  const list = await expectJson<{ data: { id: string; format: string }[] }>(
    await api.get(`/reports?run_id=${runId}`),
    200,
  );
  const id = list.data.find((r) => r.format === "markdown")?.id;
  const res = await api.get(`/reports/${id}`, { accept: "text/markdown" });
  expect(res.status).toBe(200);
  return res.text();
}

describe("a workflow run's Markdown report, as a person reads it", () => {
  it("is titled for a workflow and names its rulebook, not a profile", () => {
    expect(markdown).toMatch(/^# Workflow report\n/);
    expect(markdown).toMatch(/^- \*\*Rulebook:\*\* `rb_\w+@1`$/m);
    expect(markdown).not.toContain("**Profile:**");
  });

  it("sums the answers up and counts what was not checked and why under limitations", () => {
    expect(markdown).toContain("- **Summary:** 1 found, 1 uncertain, 4 not checked (6 answers)\n");
    expect(markdown).not.toContain("**Limitations:** None");
    expect(markdown).toContain(
      "- **Limitations:**\n  - 4 of 6 not checked: the evidence the rule needs was not extracted (4)\n  - 1 of 6 uncertain: ",
    );
  });

  it("heads a section with the rule's title and severity, and one without a severity by its title", () => {
    expect(markdown).toMatch(/^## Forklift operators wear high visibility vests \(high\) — /m);
    expect(markdown).toMatch(/^## Fire exits are kept clear — /m);
  });

  it("quotes the sentence behind an uncertain answer, with its times", () => {
    const section = markdown
      .split("\n## ")
      .find((s) => s.startsWith("Forklift operators wear high visibility vests (high) — "));
    expect(section, markdown).toContain("**Verdict:** Uncertain — not a pass");
    expect(section).toContain(
      '"Forklift operators must wear high visibility vests." (00:05–00:08)',
    );
  });
});
