import {
  type AnswerError,
  type AnswerModelSettings,
  HONEST_ANSWERS,
  withError,
} from "./answer-errors";
import { type PromptQuestion, PromptSchema, readPrompt } from "./answer-prompt";
import { answerHonestly } from "./honest-answer";

/** What one call of the simulated answer model returns, and the errors it made in it. */
export interface SimulatedReply {
  /** As Workers AI returns a JSON-mode call: `response` parsed, and token usage. */
  output: {
    response: unknown;
    usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
  };
  errors: AnswerError[];
}

interface Message {
  role?: string;
  content?: unknown;
}

function messagesOf(inputs: unknown): Message[] {
  const messages = (inputs as { messages?: unknown } | null)?.messages;
  return Array.isArray(messages) ? messages : [];
}

/**
 * Tokens of a text as Llama 3's tokenizer counts them, near enough: about four bytes of
 * UTF-8 a token (English runs near four characters; other scripts take more bytes a token).
 */
function tokens(text: string): number {
  return Math.ceil(new TextEncoder().encode(text).byteLength / 4);
}

// Llama 3's chat template wraps each message in a header and an end-of-turn token.
const TOKENS_PER_MESSAGE = 5;

function usageOf(messages: Message[], response: unknown) {
  const prompt_tokens = messages.reduce(
    (n, m) =>
      n +
      TOKENS_PER_MESSAGE +
      tokens(typeof m.content === "string" ? m.content : JSON.stringify(m.content ?? "")),
    1,
  );
  const completion_tokens = tokens(JSON.stringify(response));
  return { prompt_tokens, completion_tokens, total_tokens: prompt_tokens + completion_tokens };
}

/** A question that says nothing, for a prompt that names none. */
const NO_QUESTION: PromptQuestion = {
  answer_key: "answer",
  answer_type: "verdict",
  description: "",
  fields: [],
  accepted_evidence: [],
};

/**
 * The answer model, simulated: each question of the prompt (one `answer_spec`, or a batch's
 * `questions`, answered apart and keyed by `question_id`) answered by the honest model
 * (honest-answer.ts), then, with `settings.mode` adversarial, given at most one error
 * (answer-errors.ts). Usage is counted from the messages and the reply.
 */
export function replyToPrompt(
  inputs: unknown,
  settings: AnswerModelSettings = HONEST_ANSWERS,
): SimulatedReply {
  const messages = messagesOf(inputs);
  const user = messages.find((m) => m.role === "user")?.content;
  if (typeof user !== "string")
    throw Object.assign(new Error("3003: no user message"), { code: 3003 });
  let body: unknown;
  try {
    body = JSON.parse(user);
  } catch {
    // The service always sends JSON; anything else is read as a prompt without evidence.
    body = {};
  }
  const parsed = PromptSchema.safeParse(body);
  const prompt = parsed.success ? parsed.data : PromptSchema.parse({});
  const reading = readPrompt(prompt);
  const errors: AnswerError[] = [];
  const answer = (question: PromptQuestion) => {
    const made = withError(answerHonestly(question, reading), reading, settings);
    if (made.error) errors.push(made.error);
    return made.answer;
  };
  const response = prompt.questions
    ? { answers: prompt.questions.map((q) => ({ question_id: q.question_id, ...answer(q) })) }
    : answer(prompt.answer_spec ?? NO_QUESTION);
  return { output: { response, usage: usageOf(messages, response) }, errors };
}

/** The simulated answer model's output alone, as the binding returns it (honest by default). */
export function answerFromPrompt(inputs: unknown, settings?: AnswerModelSettings): unknown {
  return replyToPrompt(inputs, settings).output;
}
