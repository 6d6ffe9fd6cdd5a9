import { describe, expect, it } from "vitest";
import type { TemplateBlock } from "../../../src/domain/report-templates";
import type { RenderInput } from "../../../src/services/reports/types";
import { answer, ev, input, json, text } from "./fixtures";

const DETAIL =
  "silent.mp4: Nothing in this video was heard or seen, so search finds it only by its filename, title and tags, and every rule or answer about it is not checked. Add a caption or subtitle track to the file and upload it again.";

/**
 * The case: a profile run over two videos, nothing heard or seen of one; the verdict
 * is found (and true) from the other, over part of the sources.
 */
function twoVideos(
  language = "en",
  blocks: TemplateBlock[] = [{ type: "verdict", answer_key: "vests" }],
) {
  const run: RenderInput = input(
    blocks,
    [
      answer("vests", "verdict", "found", {
        value: true,
        summary: "Operators wore vests.",
        representative: [ev("v1", 5, 8)],
        coverage: { state: "partial", scope: "1 of 2 videos" },
      }),
    ],
    language,
  );
  run.run.source_ids = ["vid_dock", "vid_silent"];
  run.videos.push({ id: "vid_silent", title: "silent.mp4", duration: 6 });
  run.notices = [{ code: "nothing_understood", video_id: "vid_silent", detail: DETAIL }];
  return run;
}

describe("a report over a source nothing was heard or seen of", () => {
  it("reads no Pass over both videos: the verdict says what was found and what was not checked", () => {
    const md = text(twoVideos(), "markdown");
    expect(md).toContain(
      "**Verdict:** Found in 1 of 2 videos; 1 not checked — not a pass over all sources\n",
    );
    expect(md).not.toMatch(/\bPass\b/);
    const section = json(twoVideos()).report.sections[0];
    expect(section?.fields).toEqual([
      {
        key: "verdict",
        label: "Verdict",
        text: "Found in 1 of 2 videos; 1 not checked — not a pass over all sources",
      },
    ]);
    // The raw `true` would read as a pass over both videos.
    expect(section?.value).toBeNull();
    expect(section?.result_state).toBe("found");
  });

  it("says so in the summary and the limitations, with counts, reasons and the run's notice", () => {
    const md = text(twoVideos(), "markdown");
    expect(md).toContain(
      "- **Summary:** 1 found (1 answer); nothing was heard or seen in 1 of 2 sources; 1 answer decided without everything read\n",
    );
    expect(md).not.toContain("**Limitations:** None");
    expect(md).toContain(
      "- **Limitations:**\n  - 1 of 1 decided without everything read: not a pass over all sources\n  - silent.mp4: Nothing in this video was heard or seen, so search finds it only by its filename, title and tags, and every rule or answer about it is not checked. Add a caption or subtitle track to the file and upload it again.\n",
    );
  });

  it("carries the run's notices in the JSON report, and its limitations in words with codes", () => {
    const { report } = json(twoVideos());
    expect(report.notices).toEqual([
      { code: "nothing_understood", video_id: "vid_silent", detail: DETAIL },
    ]);
    expect(report.limitations).toEqual([
      {
        code: "partial_coverage",
        text: "1 of 1 decided without everything read: not a pass over all sources",
      },
      { code: "nothing_understood", text: DETAIL },
    ]);
  });

  it("says the same in Japanese", () => {
    const md = text(twoVideos("ja"), "markdown");
    expect(md).toContain(
      "**判定:** 2 本中 1 本で検出、1 本は未確認（すべてのソースについての合格ではありません）\n",
    );
    expect(md).toContain(
      "- **概要:** 1 検出（回答 1 件）。ソース 2 件中 1 件では何も聞き取れず、何も見えませんでした。1 件の回答はすべてを読み取らずに判断\n",
    );
    expect(md).toContain(
      "  - 1 件中 1 件はすべてを読み取らずに判断: すべてのソースについての合格ではありません\n  - silent.mp4：この動画では何も聞き取れず、何も見えませんでした。",
    );
    expect(md).not.toMatch(/(?<!不)合格(?!では)/);
    expect(json(twoVideos("ja")).report.notices).toEqual([
      {
        code: "nothing_understood",
        video_id: "vid_silent",
        detail: expect.stringMatching(/^silent\.mp4：この動画では何も聞き取れず/),
      },
    ]);
  });

  it("shows no Pass for that answer in an overview of all answers either", () => {
    const md = text(twoVideos("en", [{ type: "gauge" }]), "markdown");
    expect(md).toContain(
      "| vests | Found | Found in 1 of 2 videos; 1 not checked — not a pass over all sources |",
    );
    expect(md).not.toMatch(/\bPass\b/);
  });

  it("counts a source the answer itself left unchecked, when no notice names it", () => {
    const partly = twoVideos();
    partly.notices = [];
    const [vests] = partly.answers;
    if (vests)
      vests.answer_payload.items = [
        { item_id: "vid_dock", label: "Dock", result_state: "found", attributes: [], evidence: [] },
        {
          item_id: "vid_silent",
          label: "silent.mp4",
          result_state: "not_checked",
          attributes: [],
          evidence: [],
        },
      ];
    const md = text(partly, "markdown");
    expect(md).toContain(
      "**Verdict:** Found in 1 of 2 videos; 1 not checked — not a pass over all sources\n",
    );
    expect(md).toContain(
      "- **Summary:** 1 found (1 answer); 1 answer decided without everything read\n",
    );
  });

  it("keeps the Pass over a source read in part (its captions read, no frame seen)", () => {
    const partly = twoVideos();
    partly.notices = [];
    partly.run.source_ids = ["vid_dock"];
    const md = text(partly, "markdown");
    expect(md).toContain("**Verdict:** Pass\n");
    expect(md).toContain("- **Summary:** 1 found (1 answer)\n- **Limitations:** None\n");
  });

  it("keeps a Pass over every source read whole, and lists a notice only for the run's sources", () => {
    const whole = twoVideos();
    const [vests] = whole.answers;
    if (vests) vests.coverage = { state: "complete", scope: "2 of 2 videos" };
    whole.notices = [{ code: "nothing_understood", video_id: "vid_elsewhere", detail: "x" }];
    const md = text(whole, "markdown");
    expect(md).toContain("**Verdict:** Pass\n");
    expect(md).toContain("- **Summary:** 1 found (1 answer)\n- **Limitations:** None\n");
    expect(json(whole).report.notices).toEqual([]);
  });

  it("judges a workflow verdict by its own video: the other video's notice is not its gap", () => {
    const workflow = twoVideos();
    workflow.run.kind = "workflow";
    const [vests] = workflow.answers;
    if (vests) vests.key = "vests/vid_dock";
    workflow.template.blocks = [{ type: "verdict", answer_key: "vests/vid_dock" }];
    const md = text(workflow, "markdown");
    expect(md).toContain("**Verdict:** Pass\n");
    expect(md).toContain(
      "- **Summary:** 1 found (1 answer); nothing was heard or seen in 1 of 2 sources\n",
    );
  });

  it("renders the same bytes for the same stored state", () => {
    for (const format of ["json", "markdown"] as const) {
      expect(text(twoVideos(), format)).toBe(text(twoVideos(), format));
    }
  });
});
