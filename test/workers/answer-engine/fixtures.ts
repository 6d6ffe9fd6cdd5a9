import { expect } from "vitest";
import { evidenceId } from "../../../src/answer-engine/evidence-ids";
import type {
  AnswerRequest,
  EngineAnswer,
  EngineSegment,
  EngineVideo,
} from "../../../src/answer-engine/types";
import type { AnswerSpec } from "../../../src/domain/answers";
import type { EvidenceKind, EvidenceRef, ExtractionCoverage } from "../../../src/domain/evidence";

/** A timed text: [start, end, text] in seconds. */
export type Cue = [number, number, string];

/** What a hand-built video holds. */
export interface VideoShape {
  id: string;
  title?: string;
  duration: number;
  /** Segment boundaries inside (0, duration); default every 8 s. */
  bounds?: number[];
  cues?: Cue[];
  scene?: Cue[];
  ocr?: Cue[];
  coverage?: Partial<ExtractionCoverage>;
  tags?: string[];
}

function span(kind: EvidenceKind, [start, end, text]: Cue, source: string) {
  return { kind, start, end, text, source };
}

/**
 * An EngineVideo as the media-understanding engines shape it: segments covering the duration,
 * each cue in every segment it overlaps (with its own times), scene/OCR spans in the segment
 * their time falls in. Transcript coverage defaults to "has cues"; scene and OCR to false.
 */
export function video(shape: VideoShape): EngineVideo {
  const cuts = shape.bounds ?? [];
  const inner = cuts.length > 0 ? cuts : defaultCuts(shape.duration);
  const edges = [0, ...inner, shape.duration];
  const cues = shape.cues ?? [];
  const segments: EngineSegment[] = edges.slice(0, -1).map((start, index) => {
    const end = edges[index + 1] ?? shape.duration;
    const inside = cues.filter(([s, e]) => s < end && e > start);
    const at = (c: Cue) =>
      c[0] >= start && (c[0] < end || (index === edges.length - 2 && c[0] <= end));
    return {
      id: `seg_${shape.id}_${index}`,
      start,
      end,
      transcript: inside.map((c) => c[2]).join(" "),
      scene_description:
        inside.length > 0 ? `Captioned speech: "${inside[0]?.[2]}"` : "No timed text",
      tags: shape.tags ?? [],
      evidence: [
        ...(shape.scene ?? []).filter(at).map((c) => span("scene", c, "vision")),
        ...(shape.ocr ?? []).filter(at).map((c) => span("ocr", c, "vision")),
        ...inside.map((c) => span("transcript", c, "text-track:0:eng")),
      ],
    };
  });
  return {
    id: shape.id,
    title: shape.title ?? shape.id,
    duration: shape.duration,
    coverage: {
      transcript: cues.length > 0,
      ocr: false,
      scene: false,
      metadata: false,
      ...shape.coverage,
    },
    limitations: cues.length > 0 ? [] : ["no-timed-text"],
    segments,
  };
}

function defaultCuts(duration: number): number[] {
  const cuts: number[] = [];
  for (let t = 8; t < duration; t += 8) cuts.push(t);
  return cuts;
}

/** The warehouse safety talk of test/fixtures/media/README.md (`talk.mp4`). */
export const TALK_CUES: Cue[] = [
  [1, 4, "Welcome to the warehouse safety briefing."],
  [5, 8.5, "Forklift operators must wear high visibility vests."],
  [9, 12, "The loading dock closes at six pm."],
  [13, 16.5, "Report every spill\nto the shift supervisor immediately."],
  [17, 20, "Keep fire exits clear of pallets at all times."],
  [21, 23.5, "Thank you and stay safe."],
];

/** talk.mp4 as the local engine indexes it: three segments, transcript only. */
export function talk(overrides: Partial<VideoShape> = {}): EngineVideo {
  return video({
    id: "vid_talk",
    title: "Warehouse safety briefing",
    duration: 24,
    bounds: [8.75, 16.75],
    cues: TALK_CUES,
    ...overrides,
  });
}

/** silent.mp4: 6 s, no text tracks, nothing extracted. */
export function silent(id = "vid_silent"): EngineVideo {
  return video({ id, title: "Silent clip", duration: 6, bounds: [] });
}

/**
 * An answer request with generous budgets unless told otherwise. The hand-built videos hold
 * transcripts (and scene or OCR spans only where a test adds them), so specs ask about the
 * transcript unless they name their evidence: a default `clip` needs frames for an absence
 * (local-coverage.test.ts).
 */
export function request(
  spec: Partial<AnswerSpec> & Pick<AnswerSpec, "answer_type">,
  videos: EngineVideo[],
  options: { instructions?: string; mediaSeconds?: number; tokens?: number } = {},
): AnswerRequest {
  return {
    run_id: "run_01test",
    instructions: options.instructions ?? "",
    spec: { answer_key: "check", evidence: { accepted_types: ["transcript"] }, ...spec },
    videos,
    locale: "en",
    budget: { media_seconds: options.mediaSeconds ?? 100_000, tokens: options.tokens ?? 100_000 },
  };
}

/** Every evidence ref an answer cites, anywhere in it. */
export function citedRefs(answer: EngineAnswer): EvidenceRef[] {
  const p = answer.answer_payload;
  return [
    ...p.evidence_summary.representative,
    ...p.items.flatMap((i) => [...i.evidence, ...i.attributes.flatMap((a) => a.evidence ?? [])]),
  ];
}

/** Whether a ref names a span that exists in the videos, with the id its hash gives. */
export function existsInIndex(ref: EvidenceRef, videos: EngineVideo[]): boolean {
  const segment = videos
    .find((v) => v.id === ref.video_id)
    ?.segments.find((s) => s.id === ref.segment_id);
  const span = segment?.evidence.find(
    (e) =>
      e.kind === ref.kind &&
      e.start === ref.start_time &&
      e.end === ref.end_time &&
      e.text === ref.text,
  );
  return (
    span !== undefined &&
    ref.evidence_id === evidenceId(ref.segment_id, ref.kind, ref.start_time, ref.end_time)
  );
}

/** Asserts that everything an answer cites exists in the index. */
export function expectCitesIndex(answer: EngineAnswer, videos: EngineVideo[]): void {
  for (const ref of citedRefs(answer)) {
    expect(existsInIndex(ref, videos), JSON.stringify(ref)).toBe(true);
  }
}
