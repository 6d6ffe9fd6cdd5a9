import { type Faults, simulatedLatency } from "../faults";
import { jpegComment } from "../media/jpeg";
import { type AnswerModelSettings, HONEST_ANSWERS } from "./answer-errors";
import { recordAnswerErrors } from "./answer-ledger";
import { replyToPrompt } from "./answers";
import { embed } from "./embeddings";
import { ACCOUNT, callsStarted, type RateWindow, type Task } from "./rate-window";
import { aiError, decodeBase64, transcribe } from "./speech";
import { chatUsage } from "./usage";

export { aiError } from "./speech";

/** The models the service calls, with the task whose rate limit each counts against. */
const MODELS: Record<string, Task> = {
  "@cf/openai/whisper-large-v3-turbo": "speech-recognition",
  "@cf/meta/llama-4-scout-17b-16e-instruct": "text-generation",
  "@cf/meta/llama-3.3-70b-instruct-fp8-fast": "text-generation",
  "@cf/baai/bge-m3": "text-embeddings",
};

/** How the simulated vision model treats a frame it cannot see (it sees no pixels). */
export type VisionMode = "refuse" | "describe";

/**
 * Workers AI without an account. It keeps the per-account rate limits (429 past them),
 * injects latency and transient faults as configured, validates inputs, and answers as the
 * models would only from what it can know: speech recognition hears a source's captions where
 * the audio it is sent holds sound (silence is heard as silence; audio with sound of a source
 * without captions is refused, so nothing is claimed as heard); the vision model cannot see pixels, so by default it refuses
 * every frame (`describe` answers a description that says so, for benchmarks of coverage);
 * the answer model answers from the evidence in its prompt as the local engine reads it, or
 * with `answers.mode` adversarial errs as models do and records each error in the bucket;
 * embeddings hash words.
 */
export class SimulatedAi {
  constructor(
    private readonly deps: {
      bucket: R2Bucket;
      faults: Faults;
      vision: VisionMode;
      /** How the answer model answers (honest unless told). */
      answers?: AnswerModelSettings;
      now?: () => number;
      /** The account's rate window (the isolate's own unless a test gives one). */
      rates?: RateWindow;
    },
  ) {}

  async run(model: string, inputs: unknown): Promise<unknown> {
    const task = MODELS[model];
    if (!task) throw aiError(5007, 400, `No such model ${model} or task`);
    callsStarted.set(task, (callsStarted.get(task) ?? 0) + 1);
    await simulatedLatency(this.deps.faults, task);
    if (!(this.deps.rates ?? ACCOUNT).admit(task, (this.deps.now ?? Date.now)()))
      throw aiError(
        3040,
        429,
        `Out of capacity: the simulated ${task} limit was reached this minute`,
      );
    if (this.deps.faults.fails(task))
      throw aiError(3040, 429, "No more data centers to forward the request to (simulated)");
    switch (task) {
      case "speech-recognition":
        return transcribe(this.deps.bucket, inputs);
      case "text-embeddings":
        return embed(inputs);
      default:
        return model.includes("llama-4-scout") ? this.describe(inputs) : this.answer(inputs);
    }
  }

  private describe(inputs: unknown): unknown {
    const uris = imageUris(inputs);
    if (uris.length === 0) throw aiError(3003, 400, "Request is missing headers or body: image");
    if (this.deps.vision === "refuse")
      throw aiError(5004, 400, "the simulated vision model cannot see pictures");
    const images = uris.map((uri, i) => {
      const label = jpegComment(decodeBase64(uri.replace(/^data:[^,]*,/, "")));
      const time = label ? (JSON.parse(label) as { time?: number }).time : undefined;
      const at = typeof time === "number" ? ` at ${time.toFixed(1)} s` : "";
      return {
        image: i + 1,
        description: `A frame of the video${at}; the simulator sees no pictures, so nothing in it is named.`,
        tags: [],
        visible_text: [],
      };
    });
    const response = JSON.stringify({ images });
    return { response, usage: chatUsage(inputs, response) };
  }

  private async answer(inputs: unknown): Promise<unknown> {
    if (this.deps.faults.fails("json-mode")) throw new Error("JSON Mode couldn't be met");
    const { output, errors } = replyToPrompt(inputs, this.deps.answers ?? HONEST_ANSWERS);
    if (errors.length > 0) await recordAnswerErrors(this.deps.bucket, errors);
    return output;
  }
}

/** The `data:` URIs of a chat request's image parts. */
function imageUris(inputs: unknown): string[] {
  const messages = (inputs as { messages?: { content?: unknown }[] } | null)?.messages ?? [];
  return messages.flatMap((m) =>
    Array.isArray(m.content)
      ? m.content.flatMap((part: { image_url?: { url?: unknown } }) =>
          typeof part.image_url?.url === "string" ? [part.image_url.url] : [],
        )
      : [],
  );
}
