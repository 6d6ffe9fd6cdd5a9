import { renderBlock } from "./blocks";
import { compareText, formatTime } from "./format";
import type { ReportModel } from "./model";
import { lookup, stringsFor } from "./strings";
import type { RenderInput, StoredAnswer } from "./types";

/** Answers by key, then id: the order of the store's rows must not change the bytes. */
function reportOrder(answers: readonly StoredAnswer[]): StoredAnswer[] {
  return [...answers].sort((a, b) => compareText(a.key, b.key) || compareText(a.id, b.id));
}

/** Builds the format-neutral report of a run's stored answers; pure, no clock, no randomness. */
export function buildReport(input: RenderInput): ReportModel {
  const strings = stringsFor(input.template.language);
  const answers = reportOrder(input.answers);
  const titleIndex = input.template.blocks.findIndex((block) => block.type === "heading");
  const titleBlock = input.template.blocks[titleIndex];
  const title = titleBlock?.label?.trim() ? titleBlock.label : strings.defaultTitle;
  const sources = input.run.source_ids.map((videoId) => {
    const video = input.videos.find((v) => v.id === videoId);
    const duration = video !== undefined && Number.isFinite(video.duration) ? video.duration : null;
    return {
      video_id: videoId,
      title: video === undefined || video.title === "" ? null : video.title,
      duration,
      duration_text: formatTime(duration ?? undefined),
    };
  });
  return {
    title,
    language: input.template.language,
    run_id: input.run.id,
    template: { id: input.template.id, version: input.template.version },
    profile_ref: input.run.profile_ref,
    execution_profile_ref: input.run.execution_profile_ref,
    sources,
    limitations: input.run.limitations.map((code) => ({
      code,
      text: lookup(strings.limitationTexts, code) ?? code,
    })),
    sections: input.template.blocks.map((block, index) =>
      renderBlock(block, { answers, strings, isTitle: index === titleIndex }),
    ),
  };
}
