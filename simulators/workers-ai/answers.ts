import { stems } from "../../src/lib/text/search-scoring";
import { isStopword, tokenize } from "../../src/lib/text/text-features";

interface PromptEvidence {
  evidence_id: string;
  kind: string;
  text: string;
}

interface Spec {
  answer_type: string;
  description?: string;
  fields?: { description?: string; label?: string }[];
}

interface Prompt {
  answer_spec: Spec;
  /** A batched call: several questions over the same segments. */
  questions?: (Spec & { question_id: string })[];
  segments: { evidence: PromptEvidence[] }[];
}

/** Words that say what to do with the evidence rather than what to find in it. */
const FRAMING = new Set(
  "check confirm verify whether video clip show shown shows visible see seen mention mentioned said say says state stated does did is are was were any how many much when where which list count".split(
    " ",
  ),
);
const NEGATION = /\b(not|never|no|without|n't|nicht|kein|keine|nie)\b/i;

function parsePrompt(inputs: unknown): Prompt {
  const messages = (inputs as { messages?: { role?: string; content?: unknown }[] } | null)
    ?.messages;
  const user = messages?.find((m) => m.role === "user")?.content;
  if (typeof user !== "string")
    throw Object.assign(new Error("3003: no user message"), { code: 3003 });
  try {
    return JSON.parse(user) as Prompt;
  } catch {
    // The service always sends JSON; anything else is answered as a model would: no evidence.
    return { answer_spec: { answer_type: "verdict" }, segments: [] };
  }
}

/**
 * The answer model, simulated conservatively: it finds the question's content words in the
 * evidence it was given, and says `found` only for evidence holding all of them in a sentence
 * without a negation, citing it; partial or negated matches are `uncertain`; no match at all is
 * `not_found` (the service decides whether the evidence it sent allows an absence). It never
 * invents a value it cannot read.
 */
export function answerFromPrompt(inputs: unknown): unknown {
  const prompt = parsePrompt(inputs);
  if (prompt.questions) {
    // A batched call answers each question as a lone call would, keyed by its id.
    const answers = prompt.questions.map((question) => ({
      question_id: question.question_id,
      ...answerOne(question, prompt),
    }));
    const completion = 80 * answers.length;
    return {
      response: { answers },
      usage: { prompt_tokens: 500, completion_tokens: completion, total_tokens: 500 + completion },
    };
  }
  return {
    response: answerOne(prompt.answer_spec, prompt),
    usage: { prompt_tokens: 500, completion_tokens: 80, total_tokens: 580 },
  };
}

function answerOne(spec: Spec, prompt: Prompt): Record<string, unknown> {
  // A verdict on a rule asks its title and its description apart (each a way the rule may be
  // stated); any other question is one whole.
  // Labelled lines ("Owner: Safety", from a rulebook's extra columns) describe the rule; they
  // are not what to look for.
  const labels = (spec.fields ?? []).flatMap((f) =>
    f.label
      ? [
          f.label
            .split("\n")
            .filter((line) => !/^[^:]{1,40}:\s/.test(line))
            .join(" "),
        ]
      : [],
  );
  const questions =
    spec.answer_type === "verdict" && labels.length > 0
      ? [spec.description ?? "", ...labels]
      : [
          [spec.description ?? "", ...(spec.fields ?? []).map((f) => f.description ?? "")].join(
            " ",
          ),
        ];
  const wanted = questions.map((question) => [
    ...new Set(
      stems(
        tokenize(question)
          .filter((w) => !isStopword(w) && !FRAMING.has(w))
          .join(" "),
      ),
    ),
  ]);
  const evidence = prompt.segments.flatMap((s) => s.evidence ?? []);
  const scored = evidence.map((e) => {
    const words = new Set(stems(e.text));
    const shares = wanted.map((w) =>
      w.length === 0 ? 0 : w.filter((word) => words.has(word)).length / w.length,
    );
    return { e, share: Math.max(0, ...shares) };
  });
  const full = scored.filter((s) => s.share === 1 && !NEGATION.test(s.e.text)).map((s) => s.e);
  const partial = scored.filter((s) => s.share > 0).map((s) => s.e);
  const state = full.length > 0 ? "found" : partial.length > 0 ? "uncertain" : "not_found";
  const cited = (state === "found" ? full : partial).slice(0, 5);
  const answer = {
    result_state: state,
    ...(state === "found"
      ? {}
      : {
          reason_code: state === "uncertain" ? "insufficient_evidence" : "no_supporting_evidence",
        }),
    summary:
      state === "found"
        ? `Stated in the evidence: "${cited[0]?.text ?? ""}"`
        : state === "uncertain"
          ? "Some words of the question appear, but no evidence states it whole."
          : "No evidence given mentions it.",
    value: spec.answer_type === "verdict" && state === "found" ? true : null,
    evidence_ids: cited.map((e) => e.evidence_id),
    // As the prompt asks: the cited words that support a found, copied exactly.
    quotes: state === "found" ? cited.map((e) => e.text) : [],
    items: cited.map((e) => ({
      label: e.text.slice(0, 200),
      result_state: state === "found" ? "found" : "uncertain",
      evidence_ids: [e.evidence_id],
    })),
  };
  return answer;
}
