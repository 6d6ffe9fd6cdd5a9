import { beforeAll, describe, expect, it } from "vitest";
import { prefersMarkdown } from "../../../src/routes/reports/accept";
import type { RunDto } from "../../../src/routes/runs/schemas";
import { type Client, expectJson, expectProblem, newTenant } from "../../helpers/harness";
import { uploadFixture, waitForFinal } from "../../helpers/processing";
import { createProfile, waitForRun } from "../../helpers/runs";

interface Report {
  id: string;
  format: string;
  content?: string;
}

let api: Client;
let reports: Report[];

beforeAll(async () => {
  ({ api } = await newTenant());
  const video = (await waitForFinal(api, (await uploadFixture(api, "talk.mp4")).id)).id;
  const profileId = await createProfile(api);
  const run = await expectJson<RunDto>(
    await api.post("/runs", { source_ids: [video], profile_id: profileId }),
    202,
  );
  await waitForRun(api, run.id);
  reports = (
    await expectJson<{ data: Report[] }>(
      await api.post(`/runs/${run.id}/reports?expand[]=content`, {
        formats: ["markdown", "json"],
      }),
      201,
    )
  ).data;
}, 60_000);

describe("GET /reports/{report_id} with Accept: text/markdown", () => {
  it("answers a Markdown report's content itself, as text/markdown", async () => {
    const markdown = reports.find((r) => r.format === "markdown");
    const res = await api.get(`/reports/${markdown?.id}`, { accept: "text/markdown" });
    const text = await res.text();
    expect(res.status, text).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    expect(text).toBe(markdown?.content);
    // Without the header the same URL is the report resource.
    const resource = await expectJson<Report>(await api.get(`/reports/${markdown?.id}`), 200);
    expect(resource).toMatchObject({ id: markdown?.id, format: "markdown" });
    expect(resource).not.toHaveProperty("content");
  });

  it("answers 406 for a JSON report, which has no Markdown", async () => {
    const json = reports.find((r) => r.format === "json");
    const problem = await expectProblem(
      await api.get(`/reports/${json?.id}`, { accept: "text/markdown" }),
      406,
      "not-acceptable",
    );
    expect(problem.detail).toContain("application/json");
  });

  it("reads Accept by quality, and a named type before a wildcard", () => {
    expect(prefersMarkdown(undefined)).toBe(false);
    expect(prefersMarkdown("*/*")).toBe(false);
    expect(prefersMarkdown("application/json")).toBe(false);
    expect(prefersMarkdown("text/markdown")).toBe(true);
    expect(prefersMarkdown("text/markdown, */*")).toBe(true);
    expect(prefersMarkdown("text/*")).toBe(true);
    expect(prefersMarkdown("application/json, text/markdown;q=0.5")).toBe(false);
    expect(prefersMarkdown("application/json;q=0.4, text/markdown")).toBe(true);
    expect(prefersMarkdown("text/markdown;q=0")).toBe(false);
  });
});
