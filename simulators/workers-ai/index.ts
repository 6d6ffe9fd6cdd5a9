import { type Broken, type BrokenPart, NOTHING_BROKEN } from "../broken";
import { type Faults, simulatedLatency } from "../faults";
import { type KnownPicture, knownFile, pictureAt } from "../known-media";
import { jpegComment } from "../media/jpeg";
import type { ErringPart, ErrorScripts } from "../scripted-errors";
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

/** What a broken model answers every call with: a documented permanent refusal. */
function brokenError(part: BrokenPart, kind: "refuse" | "quota"): Error {
  if (kind === "quota")
    return aiError(
      3036,
      429,
      "You have used up your daily free allocation of 10,000 neurons. Please upgrade to Cloudflare's Workers Paid plan if you would like to continue usage. (simulated: SIMULATE_BROKEN)",
    );
  return aiError(
    5004,
    400,
    `Invalid data: the simulated ${part} model is broken (SIMULATE_BROKEN)`,
  );
}

/**
 * Workers AI without an account. It keeps the per-account rate limits (429 past them),
 * injects latency and transient faults as configured, validates inputs, and answers as the
 * models would only from what it can know: speech recognition hears a source's captions where
 * the audio it is sent holds sound, or what a file the simulators know says (silence is heard
 * as silence; audio with sound of any other source is refused, so nothing is claimed as
 * heard); the vision model cannot see pixels: it describes the frames of a known file from
 * what is known of it, and by default refuses every other frame (`describe` answers a
 * description that says it saw nothing, for benchmarks of coverage);
 * the answer model answers from the evidence in its prompt as the local engine reads it, or
 * with `answers.mode` adversarial errs as models do and records each error in the bucket;
 * embeddings hash words. A part `broken` refuses every call for good.
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
      /** Models that fail every call for good (`SIMULATE_BROKEN`). */
      broken?: Broken;
      /** Models that throw a given error, for some calls or all (`SIMULATE_ERRORS`). */
      errors?: ErrorScripts;
    },
  ) {}

  async run(model: string, inputs: unknown): Promise<unknown> {
    const task = MODELS[model];
    if (!task) throw aiError(5007, 400, `No such model ${model} or task`);
    callsStarted.set(task, (callsStarted.get(task) ?? 0) + 1);
    await simulatedLatency(this.deps.faults, task);
    const part =
      task === "speech-recognition" ? "speech" : model.includes("llama-4-scout") ? "vision" : null;
    const broken = part && (this.deps.broken ?? NOTHING_BROKEN).get(part);
    if (part && broken) throw brokenError(part, broken);
    this.deps.errors?.check(erringPart(task, model));
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

  private async describe(inputs: unknown): Promise<unknown> {
    const uris = imageUris(inputs);
    if (uris.length === 0) throw aiError(3003, 400, "Request is missing headers or body: image");
    const frames = await Promise.all(uris.map((uri) => this.frameOf(uri)));
    if (this.deps.vision === "refuse" && frames.some((f) => f.picture === null))
      throw aiError(5004, 400, "the simulated vision model cannot see pictures");
    const images = frames.map(({ time, picture }, i) => {
      if (picture)
        return {
          image: i + 1,
          description: picture.description,
          tags: picture.tags,
          visible_text: picture.visible_text,
        };
      const at = time !== undefined ? ` at ${time.toFixed(1)} s` : "";
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

  /**
   * The frame's source time and, when its source is a known file showing a picture then, that
   * picture (else null: the simulator cannot know what the frame shows).
   */
  private async frameOf(uri: string): Promise<{ time?: number; picture: KnownPicture | null }> {
    const label = jpegComment(decodeBase64(uri.replace(/^data:[^,]*,/, "")));
    const named = label ? (JSON.parse(label) as { time?: unknown; cut_of?: unknown }) : {};
    const time = typeof named.time === "number" ? named.time : undefined;
    const source = typeof named.cut_of === "string" ? named.cut_of : null;
    const known = source && time !== undefined ? await knownFile(this.deps.bucket, source) : null;
    const picture = known && time !== undefined ? pictureAt(known, time) : null;
    return { ...(time === undefined ? {} : { time }), picture };
  }

  private async answer(inputs: unknown): Promise<unknown> {
    if (this.deps.faults.fails("json-mode")) throw new Error("JSON Mode couldn't be met");
    const { output, errors } = replyToPrompt(inputs, this.deps.answers ?? HONEST_ANSWERS);
    if (errors.length > 0) await recordAnswerErrors(this.deps.bucket, errors);
    return output;
  }
}

/** Which `SIMULATE_ERRORS` part a call of this model is. */
function erringPart(task: Task, model: string): ErringPart {
  if (task === "speech-recognition") return "speech";
  if (task === "text-embeddings") return "embeddings";
  return model.includes("llama-4-scout") ? "vision" : "answers";
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
