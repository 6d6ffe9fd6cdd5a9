import { z } from "zod";
import { heardLanguage } from "../../media-understanding/speech-language";
import { normalizeLanguage, type TimedText } from "../../media-understanding/timed-text";
import { normalizeTag } from "../../media-understanding/video-tags";
import type { AudioChunk } from "./edge-media";

/** Speech to text: multilingual, timed segments, cheap per audio minute. */
export const WHISPER_MODEL = "@cf/openai/whisper-large-v3-turbo";
/** Vision: takes `data:` images, follows a JSON schema (`response_format`). */
export const VISION_MODEL = "@cf/meta/llama-4-scout-17b-16e-instruct";

/** The part of the Workers AI binding (`Ai`) this adapter calls; `env.AI` fits it. */
export interface AiLike {
  run(
    model: typeof WHISPER_MODEL,
    inputs: Ai_Cf_Openai_Whisper_Large_V3_Turbo_Input,
  ): Promise<unknown>;
  run(
    model: typeof VISION_MODEL,
    inputs: Ai_Cf_Meta_Llama_4_Scout_17B_16E_Instruct_Messages,
  ): Promise<unknown>;
}

// Speech spans sort after every text track in a transcript.
const SPEECH_GROUP = 1_000_000;

/**
 * Whisper's request for one base64 audio chunk, in `language` when it is known (the model's
 * documented default is English); VAD and no carry-over curb hallucinated text.
 */
export function whisperInput(
  audioBase64: string,
  language: string | null = null,
): Ai_Cf_Openai_Whisper_Large_V3_Turbo_Input {
  return {
    audio: audioBase64,
    task: "transcribe",
    ...(language === null ? {} : { language }),
    vad_filter: true,
    condition_on_previous_text: false,
  };
}

const WhisperOutputSchema = z.object({
  text: z.string(),
  segments: z.array(z.unknown()).optional(),
  transcription_info: z
    .object({
      language: z.string().optional(),
      language_probability: z.number().optional().catch(undefined),
    })
    .optional(),
});

const WhisperSegmentSchema = z
  .object({ start: z.number().min(0), end: z.number().min(0), text: z.string() })
  .refine((s) => s.end >= s.start);

/** Speech spans of one chunk in video time; `malformed` when anything had to be dropped. */
export interface SpeechParse {
  spans: TimedText[];
  language: string | null;
  malformed: boolean;
}

/**
 * Validates Whisper's answer for a chunk sent in language `passed` (null: none was passed);
 * untimed or out-of-range parts are dropped, not guessed. The language is the one the speech
 * was heard in (`heardLanguage`), null when no speech was recognised.
 */
export function parseWhisper(
  raw: unknown,
  chunk: AudioChunk,
  passed: string | null = null,
): SpeechParse {
  const out = WhisperOutputSchema.safeParse(raw);
  if (!out.success) return { spans: [], language: null, malformed: true };
  const info = out.data.transcription_info;
  const language = heardLanguage(
    passed,
    normalizeLanguage(info?.language),
    info?.language_probability,
  );
  const source = `whisper${language ? `:${language}` : ""}`;
  const segments = out.data.segments ?? [];
  // Text with no timed segments cannot be placed in a segment, so it is not used.
  let malformed = segments.length === 0 && out.data.text.trim() !== "";
  const spans: TimedText[] = [];
  for (const item of segments) {
    const seg = WhisperSegmentSchema.safeParse(item);
    const text = seg.success ? seg.data.text.replace(/\s+/g, " ").trim() : "";
    // Times a little past the chunk are rounding; far past it they are not this chunk's.
    if (!seg.success || seg.data.start >= chunk.length + 1) {
      malformed = true;
      continue;
    }
    if (text === "") continue;
    const start = Math.min(seg.data.start, chunk.length);
    spans.push({
      start: chunk.start + start,
      end: chunk.start + Math.max(start, Math.min(seg.data.end, chunk.length)),
      text,
      origin: "speech",
      source,
      language,
      group: SPEECH_GROUP,
    });
  }
  // Audio without speech is in no language.
  return { spans, language: spans.length > 0 ? language : null, malformed };
}

const VISION_SYSTEM_PROMPT = [
  "You describe still frames of a video for a search index.",
  "Say only what is visible in each image: setting, people (never guess who they are),",
  "objects, actions in progress and legible on-screen text.",
  "Do not guess what happens before or after the frame; do not name people, brands or",
  "places unless the name is written in the image. If an image is unclear, say so.",
  "Answer with JSON only.",
].join(" ");

const VISION_JSON_SCHEMA = {
  type: "object",
  properties: {
    images: {
      type: "array",
      items: {
        type: "object",
        properties: {
          image: { type: "integer" },
          description: { type: "string" },
          tags: { type: "array", items: { type: "string" } },
          visible_text: { type: "array", items: { type: "string" } },
        },
        required: ["image", "description", "tags", "visible_text"],
      },
    },
  },
  required: ["images"],
};

/** One vision request for up to a few frames, given as `data:` URIs in time order. */
export function visionInput(
  dataUris: readonly string[],
): Ai_Cf_Meta_Llama_4_Scout_17B_16E_Instruct_Messages {
  const n = dataUris.length;
  const ask =
    `There ${n === 1 ? "is 1 image" : `are ${n} images`}, numbered 1 to ${n} in the order given. ` +
    "For each return: image (its number), description (one or two plain sentences), " +
    "tags (up to 8 lowercase nouns or short phrases for visible things) and visible_text " +
    "(each legible line of on-screen text, verbatim; empty when none).";
  return {
    messages: [
      { role: "system", content: VISION_SYSTEM_PROMPT },
      {
        role: "user",
        content: [
          { type: "text", text: ask },
          ...dataUris.map((url) => ({ type: "image_url", image_url: { url } })),
        ],
      },
    ],
    response_format: { type: "json_schema", json_schema: VISION_JSON_SCHEMA },
    temperature: 0,
    max_tokens: 400 * n,
  };
}

const VisionEnvelopeSchema = z.object({ response: z.unknown() });
const VisionBodySchema = z.object({ images: z.array(z.unknown()) });
const VisionImageSchema = z.object({
  image: z.number().int().min(1),
  description: z.string().trim().min(1).max(1000),
  tags: z.array(z.string()),
  visible_text: z.array(z.string()),
});
const TAG_PATTERN = /^[\p{L}\p{N}][\p{L}\p{N} '&.-]{0,39}$/u;
const MAX_TAGS_PER_FRAME = 8;

/** What the model said about one image, after validation. */
export interface VisionFrame {
  description: string;
  tags: string[];
  visibleText: string[];
}

/** Validates a vision answer; keyed by 0-based image position. Dropped parts set `malformed`. */
export function parseVision(
  raw: unknown,
  imageCount: number,
): { frames: Map<number, VisionFrame>; malformed: boolean } {
  const frames = new Map<number, VisionFrame>();
  const envelope = VisionEnvelopeSchema.safeParse(raw);
  const body = VisionBodySchema.safeParse(envelope.success ? jsonOf(envelope.data.response) : null);
  if (!body.success) return { frames, malformed: true };
  let malformed = false;
  for (const item of body.data.images) {
    const img = VisionImageSchema.safeParse(item);
    const position = img.success ? img.data.image - 1 : -1;
    if (!img.success || position >= imageCount || frames.has(position)) {
      malformed = true;
      continue;
    }
    const tags = img.data.tags.map((t) => normalizeTag(t));
    const goodTags = tags.filter((t): t is string => t !== null && TAG_PATTERN.test(t));
    const lines = img.data.visible_text.map((l) => l.replace(/\s+/g, " ").trim());
    const goodLines = lines.filter((l) => l !== "" && l.length <= 200);
    if (goodTags.length < tags.length || goodLines.length < lines.filter(Boolean).length) {
      malformed = true;
    }
    frames.set(position, {
      description: img.data.description.replace(/\s+/g, " "),
      tags: [...new Set(goodTags)].slice(0, MAX_TAGS_PER_FRAME),
      visibleText: [...new Set(goodLines)],
    });
  }
  if (frames.size < imageCount) malformed = true;
  return { frames, malformed };
}

/** JSON mode answers with an object, or with a string holding JSON (fenced at times). */
function jsonOf(response: unknown): unknown {
  if (typeof response !== "string") return response;
  const text = response
    .trim()
    .replace(/^```(?:json)?\s*/i, "")
    .replace(/\s*```$/, "");
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

const WhisperDurationSchema = z.object({
  transcription_info: z.object({ duration: z.number().min(0) }),
});

/**
 * The seconds of audio Whisper says it was sent (`transcription_info.duration`, the unit it is
 * billed by), else the seconds of the chunk that was sent.
 */
export function audioSeconds(raw: unknown, sent: number): number {
  const parsed = WhisperDurationSchema.safeParse(raw);
  return parsed.success ? parsed.data.transcription_info.duration : sent;
}

const ChatUsageSchema = z.object({
  usage: z.object({
    prompt_tokens: z.number().int().min(0).optional(),
    completion_tokens: z.number().int().min(0).optional(),
  }),
});

/** The tokens a chat model reported in `usage` (Workers AI's output schema); none: 0. */
export function chatTokens(raw: unknown): { input_tokens: number; output_tokens: number } {
  const parsed = ChatUsageSchema.safeParse(raw);
  const usage = parsed.success ? parsed.data.usage : {};
  return { input_tokens: usage.prompt_tokens ?? 0, output_tokens: usage.completion_tokens ?? 0 };
}
