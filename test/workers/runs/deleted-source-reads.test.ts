import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it, vi } from "vitest";
import type { EvidenceRef } from "../../../src/domain/evidence";
import type { RunDto } from "../../../src/routes/runs/schemas";
import type { AnswerDto } from "../../../src/services/presenters/answer";
import type { ReportDto } from "../../../src/services/presenters/report";
import { deleteVideo, waitForErasure } from "../../helpers/deletion";
import { type Client, expectJson, newTenant } from "../../helpers/harness";
import { fixtureBytes } from "../../helpers/media-fixtures";
import { uploadFixture, uploadVideo, waitForFinal } from "../../helpers/processing";
import { createProfile, waitForRun } from "../../helpers/runs";

// A run over two videos, one deleted once its reports were issued. talk.mp4 stays;
// voice-silence.mp4, uploaded under a name of its own, goes.
const GONE_NAME = "night-shift-yard.mp4";
const MARKER = "[redacted: source deleted]";
/** Questions both videos answer, with the sentences quoted in the reports. */
const PROFILE = {
  name: "Dock rules",
  instructions: "Review what the videos say about the loading dock and forklifts.",
  answer_specs: [
    {
      answer_key: "vests_required",
      answer_type: "verdict",
      description: "Forklift operators must wear high visibility vests",
      evidence: { accepted_types: ["transcript"], required: true },
    },
    {
      answer_key: "dock_said",
      answer_type: "synthesis",
      description: "what is said about the loading dock and the forklifts",
      evidence: { accepted_types: ["transcript"] },
    },
    {
      answer_key: "dock_moments",
      answer_type: "retrieval",
      description: "loading dock",
      evidence: { accepted_types: ["transcript"] },
    },
  ],
};

let api: Client;
let runId: string;
let kept: string;
let gone: string;
/** The reports as issued, before the deletion, with their content and manifest. */
let issued: ReportDto[];
/** Every text the answers quoted of each video before the deletion. */
const quotes: Record<"kept" | "gone", string[]> = { kept: [], gone: [] };
/** The names the reports gave the deleted video as issued: its file name, and title if any. */
const names = [GONE_NAME];

async function reports(query = "&expand[]=content&expand[]=manifest"): Promise<ReportDto[]> {
  const page = await expectJson<{ data: ReportDto[] }>(
    await api.get(`/reports?run_id=${runId}${query}`),
    200,
  );
  return page.data.sort((a, b) => a.format.localeCompare(b.format));
}

async function answers(): Promise<AnswerDto[]> {
  return (await expectJson<{ data: AnswerDto[] }>(await api.get(`/runs/${runId}/answers`), 200))
    .data;
}

/** Every span the answers cite, as read: with a clip URL unless redacted. */
function spans(list: AnswerDto[]): (EvidenceRef & { clip_url?: string })[] {
  return list.flatMap((a) => [
    ...a.answer_payload.evidence_summary.representative,
    ...a.answer_payload.items.flatMap((i) => i.evidence),
  ]);
}

async function markdownOf(id: string): Promise<string> {
  const res = await api.get(`/reports/${id}`, { accept: "text/markdown" });
  expect(res.status).toBe(200);
  return res.text();
}

/** What no read may show once the video is deleted: its quotes, its name, a URL of it. */
function expectNothingOfGone(body: string) {
  for (const quote of quotes.gone) expect(body).not.toContain(quote);
  for (const name of names) expect(body).not.toContain(name);
  const urls = body.match(/https?:\/\/[^\s"')\]]+/g) ?? [];
  for (const url of urls) expect(decodeURIComponent(url)).not.toContain(gone);
}

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return `sha256:${Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

beforeAll(async () => {
  ({ api } = await newTenant(["*"]));
  kept = (await waitForFinal(api, (await uploadFixture(api, "talk.mp4")).id)).id;
  const bytes = fixtureBytes("voice-silence.mp4");
  gone = (await waitForFinal(api, (await uploadVideo(api, GONE_NAME, bytes)).id)).id;
  const run = await expectJson<RunDto>(
    await api.post("/runs", {
      source_ids: [kept, gone],
      profile_id: await createProfile(api, PROFILE),
      formats: ["json", "markdown"],
    }),
    202,
  );
  runId = run.id;
  expect((await waitForRun(api, runId)).status).toBe("completed");
  await vi.waitUntil(async () => (await reports("")).length === 2, { timeout: 5_000 });
  issued = await reports();
  const cited = spans(await answers());
  quotes.kept = [...new Set(cited.filter((s) => s.video_id === kept).map((s) => s.text))];
  quotes.gone = [...new Set(cited.filter((s) => s.video_id === gone).map((s) => s.text))];
  // The test means something only if both videos are quoted in the reports as issued.
  for (const report of issued) {
    expect(quotes.gone.some((q) => report.content?.includes(q))).toBe(true);
    expect(quotes.kept.some((q) => report.content?.includes(q))).toBe(true);
  }
  const sources = JSON.parse(issued[0]?.content ?? "{}").report.sources as {
    video_id: string;
    title: string | null;
  }[];
  const title = sources.find((s) => s.video_id === gone)?.title;
  if (title) names.push(title);
  expect((await deleteVideo(api, gone)).status).toBe(204);
}, 90_000);

describe("reads of a run whose source was deleted after its reports were issued", () => {
  it("render each report without the deleted video, with its structure and hashes as issued", async () => {
    const now = await reports();
    expect(now.map((r) => r.id)).toEqual(issued.map((r) => r.id));
    for (const [i, report] of now.entries()) {
      const before = issued[i];
      expect(report.content_identity).toBe(before?.content_identity);
      expect(report.output_identity).toBe(before?.output_identity);
      expect(report.manifest?.content_identity).toBe(before?.content_identity);
      expect(report.notices).toEqual([
        expect.objectContaining({ code: "source_deleted", video_id: gone }),
      ]);
      const content = report.content ?? "";
      expectNothingOfGone(content);
      expectNothingOfGone(JSON.stringify(report));
      expect(content).toMatch(/redacted: source deleted/);
      expect(quotes.kept.some((q) => content.includes(q))).toBe(true);
      // Same sections in the same order: only what came from the deleted video changed.
      const headings = (text: string) => text.match(/^## .*$/gm) ?? [];
      if (report.format === "markdown") {
        expect(headings(content)).toEqual(headings(before?.content ?? ""));
      } else {
        const sections = (text: string) =>
          JSON.parse(text).report.sections.map((s: { answer_id: string; kind: string }) => [
            s.answer_id,
            s.kind,
          ]);
        expect(sections(content)).toEqual(sections(before?.content ?? ""));
        expect(JSON.parse(content).report.notices).toContainEqual(
          expect.objectContaining({ code: "source_deleted", video_id: gone }),
        );
      }
    }
  });

  it("keep the issued bytes stored, still hashing to content_identity", async () => {
    for (const report of issued) {
      const row = await env.DB.prepare("SELECT object_key FROM reports WHERE id = ?")
        .bind(report.id)
        .first<{ object_key: string }>();
      const stored = (await (await env.MEDIA_BUCKET.get(row?.object_key ?? ""))?.text()) ?? "";
      expect(stored).toBe(report.content);
      expect(await sha256(stored)).toBe(report.content_identity);
    }
  });

  it("withhold the deleted video's spans from the manifest and sign no clip of it", async () => {
    const [json] = await reports("&expand[]=manifest");
    const evidence = json?.manifest?.evidence ?? [];
    const own = evidence.filter((e) => e.video_id === gone);
    expect(own.length).toBeGreaterThan(0);
    for (const span of own) {
      expect(span).toMatchObject({ text: MARKER, redacted: "source_deleted" });
      expect(span.clip_url).toBeUndefined();
    }
    const others = evidence.filter((e) => e.video_id === kept);
    expect(others.length).toBeGreaterThan(0);
    for (const span of others) expect(span.clip_url).toMatch(/^https?:\/\//);
  });

  it("answer a Markdown report's own content the same way", async () => {
    const markdown = issued.find((r) => r.format === "markdown");
    const body = await markdownOf(markdown?.id ?? "");
    expectNothingOfGone(body);
    expect(body).toContain("\\[redacted: source deleted\\]");
    expect(body).toContain(`${gone}: This video was deleted`);
    const [, now] = await reports();
    expect(body).toBe(now?.content);
  });

  it("withhold the deleted video from the run's answers, keeping the other's quotes and clips", async () => {
    const list = await answers();
    expectNothingOfGone(JSON.stringify(list));
    const cited = spans(list);
    expect(cited.filter((s) => s.video_id === gone).every((s) => s.redacted)).toBe(true);
    expect(list.some((a) => a.answer_payload.redacted === "source_deleted")).toBe(true);
    const own = cited.filter((s) => s.video_id === kept);
    expect(own.map((s) => s.text)).toEqual(expect.arrayContaining(quotes.kept));
    expect(own.every((s) => s.clip_url?.startsWith("http"))).toBe(true);
  });

  it("withhold the deleted video's name from the run's input snapshot", async () => {
    const run = await expectJson<RunDto>(await api.get(`/runs/${runId}?expand[]=snapshots`), 200);
    expectNothingOfGone(JSON.stringify(run));
    expect(run.analysis.snapshots?.input.sources).toContainEqual({
      video_id: gone,
      redacted: "source_deleted",
    });
  });

  it("render new reports without it, their content_identity the hash of what they hold", async () => {
    const made = await expectJson<{ data: ReportDto[] }>(
      await api.post(`/runs/${runId}/reports?expand[]=content`, { formats: ["markdown"] }),
      201,
    );
    const [report] = made.data;
    expectNothingOfGone(JSON.stringify(report));
    expect(await sha256(report?.content ?? "")).toBe(report?.content_identity);
    expect(await markdownOf(report?.id ?? "")).toBe(report?.content);
  });

  it("read a report made before manifests kept how it was rendered the same way", async () => {
    const [json] = await reports("&expand[]=content");
    const row = await env.DB.prepare("SELECT manifest FROM reports WHERE id = ?")
      .bind(json?.id)
      .first<{ manifest: string }>();
    const key = JSON.parse(row?.manifest ?? "{}").object_key;
    const stored = JSON.parse((await (await env.MEDIA_BUCKET.get(key))?.text()) ?? "{}");
    expect(stored.render).toEqual({ notices: [], redacted: [] });
    delete stored.render;
    await env.MEDIA_BUCKET.put(key, JSON.stringify(stored));
    const again = await expectJson<ReportDto>(
      await api.get(`/reports/${json?.id}?expand[]=content`),
      200,
    );
    expect(again.content).toBe(json?.content);
  });

  it("read the same once the video is erased", async () => {
    const before = await reports("&expand[]=content");
    await waitForErasure(gone);
    expect(await reports("&expand[]=content")).toEqual(before);
  });
});
