import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { z } from "zod";
import {
  ANSWER_ERROR_KINDS,
  type AnswerErrorKind,
  type AnswerModelSettings,
  DEFAULT_ERROR_RATES,
} from "../../../simulators/workers-ai/answer-errors";
import { replyToPrompt, type SimulatedReply } from "../../../simulators/workers-ai/answers";
import type { AnswerRequest, EngineVideo } from "../../../src/answer-engine/types";
import { database } from "../../../src/db/client";
import type { AnswerSpec } from "../../../src/domain/answers";
import { WorkersAiAnswerEngine } from "../../../src/ports/answer-engine/workers-ai";
import {
  type ModelAnswer,
  ModelAnswerSchema,
} from "../../../src/ports/answer-engine/workers-ai-output";
import { loadEngineVideos } from "../../../src/services/runs/engine-input";
import { newTenant } from "../../helpers/harness";
import type { MediaFixture } from "../../helpers/media-fixtures";
import { uploadFixture, waitForFinal } from "../../helpers/processing";
import { type Cue, request, video } from "../answer-engine/fixtures";
import { answerOut } from "../contracts/model-validators";

type Input = Ai_Cf_Meta_Llama_3_3_70B_Instruct_Fp8_Fast_Messages;

/** Fixtures indexed through the service (upload, processing), read as the answer engine reads them. */
export async function indexedFixtures(names: MediaFixture[]): Promise<EngineVideo[]> {
  const { api, workspaceId } = await newTenant();
  const ids: string[] = [];
  for (const name of names) {
    const uploaded = await uploadFixture(api, name);
    const done = await waitForFinal(api, uploaded.id);
    expect(done.status, JSON.stringify(done)).toBe("completed");
    ids.push(uploaded.id);
  }
  return loadEngineVideos(database(env.DB), workspaceId, ids);
}

/**
 * The prompts the production answer engine sends for these requests (all at once, batched as
 * a run's step batches them, or each alone), answered by the honest simulated model.
 */
export async function promptsFor(
  requests: AnswerRequest[],
  options: { batched?: boolean; maxSegments?: number } = {},
): Promise<Input[]> {
  const inputs: Input[] = [];
  const engine = new WorkersAiAnswerEngine({
    ai: {
      run: async (_model, input) => {
        inputs.push(structuredClone(input));
        return replyToPrompt(input).output;
      },
    },
    ...(options.maxSegments === undefined ? {} : { maxSegments: options.maxSegments }),
  });
  if (options.batched) await engine.answerMany(requests);
  else for (const one of requests) await engine.answer(one);
  return inputs;
}

/** The one prompt a question over these cues makes (a transcript in `language`). */
export async function promptOver(
  cues: Cue[],
  spec: Partial<AnswerSpec> & Pick<AnswerSpec, "answer_type">,
  options: { language?: string; locale?: string; mode?: AnswerRequest["mode"] } = {},
): Promise<Input> {
  const v = video({ id: "vid_sim", duration: Math.max(...cues.map((c) => c[1])) + 1, cues });
  const tagged = options.language ? inLanguage(v, options.language) : v;
  const one = {
    ...request(spec, [tagged]),
    locale: options.locale ?? "en",
    ...(options.mode ? { mode: options.mode } : {}),
  };
  const [input] = await promptsFor([one]);
  if (!input) throw new Error("the engine asked no model");
  return input;
}

/** The same video with its captions tagged as another language's track. */
export function inLanguage(v: EngineVideo, tag: string): EngineVideo {
  return {
    ...v,
    segments: v.segments.map((s) => ({
      ...s,
      evidence: s.evidence.map((e) => ({ ...e, source: `text-track:0:${tag}` })),
    })),
  };
}

/** What the user message of a call carried, parsed back. */
export interface SentPrompt {
  answer_spec?: { answer_key: string; description: string };
  questions?: { question_id: string; answer_key: string }[];
  segments: { evidence: { evidence_id: string; text: string; start: number }[] }[];
}

/** The parsed user message of a request. */
export function sent(input: Input): SentPrompt {
  const content = input.messages.find((m) => m.role === "user")?.content;
  if (typeof content !== "string") throw new Error("no user message");
  return JSON.parse(content) as SentPrompt;
}

/** Every evidence span of a prompt, by id. */
export function spansOf(input: Input): Map<string, { text: string; start: number }> {
  return new Map(
    sent(input).segments.flatMap((s) => s.evidence.map((e) => [e.evidence_id, e] as const)),
  );
}

/** The reply's answers (one, or a batch's), each checked against the answer schema. */
export function answersOf(reply: SimulatedReply): ModelAnswer[] {
  expect(answerOut(reply.output), JSON.stringify(reply.output)).toEqual([]);
  const response = reply.output.response as { answers?: unknown[] };
  const list = Array.isArray(response.answers) ? response.answers : [response];
  return list.map((answer) => {
    const parsed = ModelAnswerSchema.extend({ question_id: z.string().optional() })
      .strict()
      .safeParse(answer);
    expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
    return ModelAnswerSchema.parse(answer);
  });
}

/** The one answer of a single-question reply. */
export function onlyAnswer(reply: SimulatedReply): ModelAnswer {
  const [answer] = answersOf(reply);
  if (!answer) throw new Error("no answer");
  return answer;
}

/** The adversarial model erring only in `kind`, always where it applies. */
export function onlyKind(kind: AnswerErrorKind, seed = 1): AnswerModelSettings {
  const rates = { ...DEFAULT_ERROR_RATES };
  for (const k of ANSWER_ERROR_KINDS) rates[k] = k === kind ? 1 : 0;
  return { mode: "adversarial", seed, rates };
}

/** Asks the simulated model. */
export function ask(input: Input, settings?: AnswerModelSettings): SimulatedReply {
  return replyToPrompt(input, settings);
}
