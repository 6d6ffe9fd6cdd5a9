import { type AnswerContext, buildContext } from "../../answer-engine/context";
import { specMode } from "../../answer-engine/question-probes";
import type { AnswerRequest, EngineAnswer } from "../../answer-engine/types";
import { TransientModelError, UnknownModelError } from "../ai/model-calls";
import {
  type Decided,
  decideFromReview,
  READ_LANGUAGES,
  readsLocale,
  undocumentedFailure,
} from "./workers-ai-decide";
import { batchReplies, parseModelOutput, reportedUsage, type SendFacts } from "./workers-ai-output";
import {
  ANSWER_JSON_SCHEMA,
  ANSWER_MODEL,
  type AnswerAi,
  estimateTokens,
  promptEvidence,
  rankSegments,
  type SentSegment,
  SYSTEM_PROMPT,
} from "./workers-ai-prompt";
import { reviewModelAnswer } from "./workers-ai-review";

/** Most questions one call answers: their answers must fit the model's output as well. */
export const MAX_QUESTIONS_PER_CALL = 8;
/** Most output tokens a batched call allows, whatever its questions (prompt cap + this < context). */
const MAX_BATCH_OUTPUT_TOKENS = 4096;

function outputTokens(host: BatchHost, questions: number): number {
  return Math.min(host.maxOutputTokens * questions, MAX_BATCH_OUTPUT_TOKENS);
}

/** What batching needs of the engine: its limits, its model, and its one-question path. */
export interface BatchHost {
  maxSegments: number;
  maxPromptTokens: number;
  /** Output tokens allowed per question; a call allows this times its questions. */
  maxOutputTokens: number;
  ai: AnswerAi;
  single(request: AnswerRequest): Promise<EngineAnswer>;
  finish(
    ctx: AnswerContext,
    decided: Decided,
    inputTokens: number,
    outputTokens: number,
    tokenCut: boolean,
  ): EngineAnswer;
}

interface Question {
  index: number;
  ctx: AnswerContext;
  ranked: SentSegment[];
}

const BATCH_SYSTEM_PROMPT = [
  SYSTEM_PROMPT.replace(
    "You answer one question about indexed videos",
    "You answer each of several questions about indexed videos, independently of the others,",
  ),
  'Reply with {"answers": [...]}: one answer per question, each with its question_id.',
].join("\n");

const BATCH_JSON_SCHEMA = {
  type: "object",
  properties: {
    answers: {
      type: "array",
      items: {
        ...ANSWER_JSON_SCHEMA,
        properties: { question_id: { type: "string" }, ...ANSWER_JSON_SCHEMA.properties },
        required: ["question_id", ...ANSWER_JSON_SCHEMA.required],
      },
    },
  },
  required: ["answers"],
} as const;

/**
 * Answers questions over the same videos with as few calls as fit: questions are grouped (at
 * most MAX_QUESTIONS_PER_CALL) while the segments they need, shared between them, fit the
 * prompt cap; each answer is checked exactly as a lone one is (its citations against what was
 * sent, states only downgraded). A question without candidate evidence, alone in its group,
 * or missing from the model's reply goes the one-question way.
 */
export async function answerInBatches(
  host: BatchHost,
  requests: AnswerRequest[],
): Promise<EngineAnswer[]> {
  const answers: (EngineAnswer | undefined)[] = new Array(requests.length);
  const questions: Question[] = [];
  for (const [index, request] of requests.entries()) {
    const ctx = buildContext(request, READ_LANGUAGES);
    const ranked = rankSegments(ctx);
    if (ranked.length === 0 || !readsLocale(request.locale))
      answers[index] = await host.single(request);
    else questions.push({ index, ctx, ranked });
  }
  for (const group of groups(host, questions)) {
    const batch = group.length > 1 ? await askTogether(host, group) : new Map();
    for (const question of group) {
      answers[question.index] =
        batch.get(question.index) ?? (await host.single(question.ctx.request));
    }
  }
  return answers.map((answer, i) => {
    if (!answer) throw new Error(`question ${i} was not answered`);
    return answer;
  });
}

/** Consecutive questions grouped while their shared prompt fits. */
function groups(host: BatchHost, questions: Question[]): Question[][] {
  const out: Question[][] = [];
  let current: Question[] = [];
  for (const question of questions) {
    const next = [...current, question];
    const fits = next.length <= MAX_QUESTIONS_PER_CALL && select(host, next).cut === "none";
    if (current.length > 0 && !fits) {
      out.push(current);
      current = [question];
    } else current = next;
  }
  if (current.length > 0) out.push(current);
  return out;
}

interface Selection {
  /** Segment ids sent, in the order chosen. */
  segments: string[];
  /** Why some candidate was left out: nothing, the prompt cap, or the run's token budget. */
  cut: SendFacts["unsent"];
  tokens: number;
}

/** Segments for a group: each question's best ones in turn, until the prompt cap (or budget). */
function select(host: BatchHost, group: Question[]): Selection {
  const budget = Math.min(...group.map((q) => q.ctx.request.budget.tokens));
  const output = outputTokens(host, group.length);
  const limit = Math.min(host.maxPromptTokens, budget - output);
  const binding: SendFacts["unsent"] =
    budget - output < host.maxPromptTokens ? "budget" : "context";
  const chosen = new Map<string, number>();
  let tokens =
    estimateTokens(BATCH_SYSTEM_PROMPT) + estimateTokens(JSON.stringify(group.map(spec)));
  tokens += estimateTokens(JSON.stringify(BATCH_JSON_SCHEMA));
  for (let rank = 0; rank < host.maxSegments; rank++) {
    for (const question of group) {
      const candidate = question.ranked[rank];
      if (!candidate || chosen.has(candidate.segment.id)) continue;
      const cost = estimateTokens(JSON.stringify(promptSegment(candidate, group)));
      if (tokens + cost > limit) return { segments: [...chosen.keys()], cut: binding, tokens };
      chosen.set(candidate.segment.id, cost);
      tokens += cost;
    }
  }
  const all = group.every((q) => q.ranked.every((s) => chosen.has(s.segment.id)));
  return { segments: [...chosen.keys()], cut: all ? "none" : "context", tokens };
}

function spec(question: Question, i: number) {
  const { spec } = question.ctx.request;
  return {
    question_id: `q${i + 1}`,
    answer_key: spec.answer_key,
    answer_type: spec.answer_type,
    description: spec.description ?? "",
    fields: spec.fields ?? [],
    accepted_evidence: question.ctx.requirement.groups.map((g) => g.type),
    mode: specMode(spec, question.ctx.request.instructions, question.ctx.request.mode),
  };
}

/** A segment as the prompt lists it: every evidence span any question of the group accepts. */
function promptSegment(segment: SentSegment, group: Question[]) {
  const same = group.flatMap((q) => q.ranked.filter((s) => s.segment.id === segment.segment.id));
  const refs = new Map(same.flatMap((s) => s.refs.map((r) => [r.evidence_id, r] as const)));
  const languages = new Map(same.flatMap((s) => [...s.languages]));
  return {
    video_id: segment.video.id,
    segment_id: segment.segment.id,
    start: segment.segment.start,
    end: segment.segment.end,
    evidence: [...refs.values()].map((r) => promptEvidence(r, languages)),
  };
}

/** One call for the group; the answers it gave, by question index (missing ones left out). */
async function askTogether(host: BatchHost, group: Question[]): Promise<Map<number, EngineAnswer>> {
  const selection = select(host, group);
  const sent = new Set(selection.segments);
  const first = group[0];
  if (!first) return new Map();
  const segments = group
    .flatMap((q) => q.ranked.filter((s) => sent.has(s.segment.id)))
    .filter((s, i, all) => all.findIndex((o) => o.segment.id === s.segment.id) === i)
    .sort((a, b) => a.videoIndex - b.videoIndex || a.segment.start - b.segment.start);
  const { request } = first.ctx;
  const user = JSON.stringify({
    locale: request.locale,
    instructions: request.instructions,
    questions: group.map(spec),
    videos: request.videos.map((v) => ({ video_id: v.id, title: v.title, duration: v.duration })),
    segments: segments.map((s) => promptSegment(s, group)),
  });
  let output: unknown;
  try {
    output = await host.ai.run(ANSWER_MODEL, {
      messages: [
        { role: "system", content: BATCH_SYSTEM_PROMPT },
        { role: "user", content: user },
      ],
      response_format: { type: "json_schema", json_schema: BATCH_JSON_SCHEMA },
      max_tokens: outputTokens(host, group.length),
      temperature: 0,
    });
  } catch (error) {
    if (error instanceof TransientModelError) throw error;
    if (error instanceof UnknownModelError) return undocumented(host, group, selection, error);
    // A documented refusal of this call (JSON mode could not meet the batch's schema, say):
    // each question is asked alone, as one the reply leaves out is.
    return new Map();
  }
  const usage = reportedUsage(output);
  const inputShare = Math.ceil((usage.input ?? selection.tokens) / group.length);
  const replies = batchReplies(output);
  const out = new Map<number, EngineAnswer>();
  for (const [i, question] of group.entries()) {
    const reply = replies.get(`q${i + 1}`);
    const model = reply === undefined ? null : parseModelOutput(reply);
    if (!model) continue;
    const mine = question.ranked.filter((s) => sent.has(s.segment.id));
    const facts: SendFacts = {
      sent: mine,
      unsent: mine.length === question.ranked.length ? "none" : selection.cut,
    };
    const outputTokens = estimateTokens(JSON.stringify(reply));
    const decided = decideFromReview(
      question.ctx,
      reviewModelAnswer(question.ctx, model, facts),
      facts,
    );
    const answer = host.finish(
      question.ctx,
      decided,
      inputShare,
      outputTokens,
      facts.unsent === "budget",
    );
    // The call read the evidence once for all its questions: each bears its share of it.
    answer.usage.media_seconds /= group.length;
    out.set(question.index, answer);
  }
  return out;
}

/**
 * Every question of a group whose call failed with an undocumented error over its bounded
 * attempts: not checked, each bearing its share of every attempt's prompt. Asking each alone
 * would only meet the same error once per question.
 */
function undocumented(
  host: BatchHost,
  group: Question[],
  selection: Selection,
  error: UnknownModelError,
): Map<number, EngineAnswer> {
  const share = Math.ceil((selection.tokens * error.attempts) / group.length);
  return new Map(
    group.map((question) => {
      const decided = undocumentedFailure(question.ctx, error.text, error.attempts);
      const answer = host.finish(question.ctx, decided, share, 0, selection.cut === "budget");
      answer.usage.media_seconds /= group.length;
      return [question.index, answer] as const;
    }),
  );
}
