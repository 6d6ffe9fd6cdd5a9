import { z } from "zod";
import { evidenceId } from "../../src/answer-engine/evidence-ids";
import type { QuestionMode } from "../../src/answer-engine/language-reading";
import type { AnswerRequest, EngineSegment, EngineVideo } from "../../src/answer-engine/types";
import { ANSWER_TYPES, type AnswerSpec } from "../../src/domain/answers";
import type { EvidenceKind } from "../../src/domain/evidence";

const KINDS = ["transcript", "ocr", "scene", "thumbnail", "metadata"] as const;

const EvidenceSchema = z.object({
  evidence_id: z.string(),
  kind: z.enum(KINDS).catch("transcript"),
  start: z.number().optional(),
  end: z.number().optional(),
  language: z.string().nullish(),
  text: z.string(),
});

const SegmentSchema = z.object({
  video_id: z.string().optional(),
  segment_id: z.string().optional(),
  start: z.number().optional(),
  end: z.number().optional(),
  evidence: z.array(EvidenceSchema).default([]),
});

const SpecSchema = z.object({
  answer_key: z.string().default("answer"),
  answer_type: z.enum(ANSWER_TYPES).catch("verdict"),
  description: z.string().default(""),
  fields: z
    .array(
      z.object({
        key: z.string().default(""),
        label: z.string().default(""),
        description: z.string().optional(),
      }),
    )
    .default([]),
  accepted_evidence: z.array(z.string()).default([]),
  mode: z.enum(["observation", "rule", "mention"]).optional(),
});

/** The user message the answer engine sends (workers-ai-prompt.ts, workers-ai-batch.ts). */
export const PromptSchema = z.object({
  locale: z.string().default("en"),
  instructions: z.string().default(""),
  answer_spec: SpecSchema.optional(),
  questions: z.array(SpecSchema.extend({ question_id: z.string() })).optional(),
  videos: z
    .array(
      z.object({
        video_id: z.string(),
        title: z.string().default(""),
        duration: z.number().default(0),
      }),
    )
    .default([]),
  segments: z.array(SegmentSchema).default([]),
});
/** A parsed prompt. */
export type Prompt = z.infer<typeof PromptSchema>;
/** One question of a prompt, as its spec lists it. */
export type PromptQuestion = z.infer<typeof SpecSchema>;

/** One evidence span of the prompt, where it sits. */
export interface PromptSpan {
  id: string;
  kind: EvidenceKind;
  start: number;
  end: number;
  language: string | null;
  text: string;
  videoId: string;
  segmentId: string;
}

/** What a prompt holds, read once for all its questions. */
export interface PromptReading {
  prompt: Prompt;
  spans: PromptSpan[];
  /** The engine's id of a span (its hash) → the id the prompt gave it. */
  promptIds: Map<string, string>;
  videos: EngineVideo[];
  /** Every video has at least COVERED_SHARE of its duration in segments sent. */
  covered: boolean;
}

/** Share of a video the segments sent must span before the model may call anything absent. */
export const COVERED_SHARE = 0.95;

/** Ids a prompt's segments lack (a hand-written prompt) are made up from their position. */
function segmentsOf(prompt: Prompt) {
  return prompt.segments.map((segment, i) => {
    const starts = segment.evidence.map((e) => e.start ?? 0);
    const ends = segment.evidence.map((e) => e.end ?? e.start ?? 0);
    return {
      videoId: segment.video_id ?? prompt.videos[0]?.video_id ?? "video",
      id: segment.segment_id ?? `segment_${i + 1}`,
      start: segment.start ?? (starts.length > 0 ? Math.min(...starts) : 0),
      end: segment.end ?? Math.max(0, ...ends),
      evidence: segment.evidence,
    };
  });
}

/** The videos of a prompt as an engine reads them: only the segments sent, any language. */
export function readPrompt(prompt: Prompt): PromptReading {
  const segments = segmentsOf(prompt);
  const listed = new Map(prompt.videos.map((v) => [v.video_id, v]));
  for (const s of segments) {
    if (!listed.has(s.videoId))
      listed.set(s.videoId, { video_id: s.videoId, title: "", duration: s.end });
  }
  const spans: PromptSpan[] = [];
  const promptIds = new Map<string, string>();
  const videos = [...listed.values()].map((v): EngineVideo => {
    const own = segments.filter((s) => s.videoId === v.video_id);
    return {
      id: v.video_id,
      title: v.title,
      duration: Math.max(v.duration, ...own.map((s) => s.end)),
      coverage: { transcript: true, ocr: true, scene: true, metadata: true },
      limitations: [],
      segments: own.map((s): EngineSegment => {
        const evidence = s.evidence.map((e) => {
          const span = {
            kind: e.kind,
            start: e.start ?? s.start,
            end: e.end ?? e.start ?? s.end,
            text: e.text,
            // A transcript's language lives in its source tag (answer-engine/video-extent.ts).
            source:
              e.kind === "transcript"
                ? e.language
                  ? `whisper:${e.language}`
                  : "whisper"
                : "vision",
          };
          promptIds.set(evidenceId(s.id, span.kind, span.start, span.end), e.evidence_id);
          spans.push({
            id: e.evidence_id,
            kind: span.kind,
            start: span.start,
            end: span.end,
            language: e.language ?? null,
            text: e.text,
            videoId: v.video_id,
            segmentId: s.id,
          });
          return span;
        });
        return {
          id: s.id,
          start: s.start,
          end: s.end,
          transcript: evidence
            .filter((e) => e.kind === "transcript")
            .map((e) => e.text)
            .join(" "),
          scene_description: "",
          tags: [],
          evidence,
        };
      }),
    };
  });
  return { prompt, spans, promptIds, videos, covered: videos.every(isCovered) };
}

/** Whether the segments sent span most of a video: what a model can see of what it was not sent. */
function isCovered(video: EngineVideo): boolean {
  if (video.duration <= 0) return video.segments.length > 0;
  const sorted = [...video.segments].sort((a, b) => a.start - b.start);
  let seen = 0;
  let reached = 0;
  for (const s of sorted) {
    const from = Math.max(s.start, reached);
    if (s.end > from) seen += s.end - from;
    reached = Math.max(reached, s.end);
  }
  return seen >= COVERED_SHARE * video.duration;
}

/** The request a question of the prompt makes, with budgets no answer can exhaust. */
export function requestOf(question: PromptQuestion, reading: PromptReading): AnswerRequest {
  const spec: AnswerSpec = {
    answer_key: question.answer_key,
    answer_type: question.answer_type,
    description: question.description,
    fields: question.fields.map((f) => ({
      key: f.key,
      label: f.label,
      ...(f.description === undefined ? {} : { description: f.description }),
    })),
    evidence: { accepted_types: question.accepted_evidence },
  };
  const mode: QuestionMode | undefined = question.mode;
  return {
    run_id: "run_simulated_answer_model",
    instructions: reading.prompt.instructions,
    spec,
    videos: reading.videos,
    locale: reading.prompt.locale,
    budget: { media_seconds: Number.MAX_SAFE_INTEGER, tokens: Number.MAX_SAFE_INTEGER },
    ...(mode === undefined ? {} : { mode }),
  };
}
