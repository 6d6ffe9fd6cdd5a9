import { evidenceId } from "../../../src/answer-engine/evidence-ids";
import {
  type WorkersAiAnswerDependencies,
  WorkersAiAnswerEngine,
} from "../../../src/ports/answer-engine/workers-ai";
import type { ANSWER_MODEL, AnswerAi } from "../../../src/ports/answer-engine/workers-ai-prompt";

type Input = Ai_Cf_Meta_Llama_3_3_70B_Instruct_Fp8_Fast_Messages;

/** One call to the fake, as the engine made it. */
export interface AnswerAiCall {
  model: string;
  inputs: Input;
}

/** What the user message carried, parsed back. */
export interface SentPrompt {
  instructions: string;
  answer_spec: { answer_key: string; answer_type: string; accepted_evidence: string[] };
  segments: {
    segment_id: string;
    video_id: string;
    evidence: { evidence_id: string; text: string; language: string | null }[];
  }[];
}

/**
 * Stands in for `env.AI` running the answer model: records every call and answers with what
 * the test's responder returns (or throws), like the real binding does.
 */
export class RecordingAnswerAi implements AnswerAi {
  readonly calls: AnswerAiCall[] = [];

  constructor(private readonly respond: (inputs: Input) => unknown) {}

  async run(model: typeof ANSWER_MODEL, inputs: Input): Promise<unknown> {
    this.calls.push({ model, inputs: structuredClone(inputs) });
    await new Promise((resolve) => setTimeout(resolve, 1));
    return this.respond(inputs);
  }

  /** The parsed user message of a call. */
  prompt(index = 0): SentPrompt {
    const content = this.calls[index]?.inputs.messages.find((m) => m.role === "user")?.content;
    if (typeof content !== "string") throw new Error(`call ${index} has no user message`);
    return JSON.parse(content) as SentPrompt;
  }
}

/** A JSON-mode answer as Workers AI returns it: `response` already parsed, plus usage. */
export function jsonMode(response: unknown, usage = { prompt_tokens: 900, completion_tokens: 60 }) {
  return { response, usage };
}

/** The vests cue of talk.mp4 and the loading dock cue, as the engine cites them. */
export const VEST_ID = evidenceId("seg_vid_talk_0", "transcript", 5, 8.5);
export const DOCK_ID = evidenceId("seg_vid_talk_1", "transcript", 9, 12);

/** A verdict spec about the vests of the safety talk. */
export const vestsVerdict = (extra = {}) => ({
  answer_key: "vests_worn",
  answer_type: "verdict" as const,
  // A rule question: talk.mp4's cue states the rule, which is no evidence anyone wore one.
  description: "Are forklift operators required to wear high visibility vests?",
  ...extra,
});

/**
 * A valid model answer (found, citing nothing) with the given fields replaced. Its quotes are
 * words of talk.mp4's vests, dock and spill cues, so whichever of them it cites holds one.
 */
export const modelAnswer = (fields: Record<string, unknown>) => ({
  result_state: "found",
  summary: "Operators are told to wear vests.",
  evidence_ids: [],
  quotes: ["wear high visibility vests", "loading dock closes at six pm", "Report every spill"],
  items: [],
  ...fields,
});

/** An engine over a recording fake that answers with `respond`. */
export function world(
  respond: (inputs: unknown) => unknown,
  options: Partial<WorkersAiAnswerDependencies> = {},
) {
  const ai = new RecordingAnswerAi(respond);
  return { ai, engine: new WorkersAiAnswerEngine({ ai, ...options }) };
}
