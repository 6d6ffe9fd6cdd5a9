/**
 * Bindings and variables of the Worker. Everything `wrangler.toml` declares comes from
 * `npm run types` (worker-configuration.d.ts, checked by `npm test`); secrets, which the
 * config does not name, are listed here.
 */
export type Env = Omit<Cloudflare.Env, keyof PlatformBindings | SimulatorBindings> &
  PlatformBindings &
  Secrets;

/** Bindings only the local simulators' entry uses (simulators/worker.ts), never the service. */
type SimulatorBindings = "VECTORIZE_SIMULATOR";

/**
 * The production platform bindings, typed by the parts the adapters call. The real bindings
 * (`Ai`, `MediaBinding`, `Vectorize`) fit these shapes, and so do the local simulators that
 * stand in for them when the production adapters run on this machine.
 */
export interface PlatformBindings {
  AI?: AiRunner;
  MEDIA?: MediaBindingLike;
  VECTORIZE?: Pick<Vectorize, "upsert" | "query" | "deleteByIds" | "describe" | "getByIds">;
}

/** The part of the Workers AI binding every adapter uses: one model call. */
export interface AiRunner {
  run(model: string, inputs: unknown, options?: unknown): Promise<unknown>;
}

/**
 * Everything the Worker reads besides wrangler.toml's bindings and vars (`.dev.vars` locally,
 * Worker secrets in production), each in one class. `npm run deploy:check` holds the classes
 * to the deploy: it sets exactly `DeployedSecrets`.
 */
export type Secrets = DeployedSecrets & OptionalSecrets & TestOnlySecrets;

/** What every deployment needs; `npm run deploy` sets each of them. */
export interface DeployedSecrets {
  /** Operator token for /admin/v1; when unset the admin API answers 404. */
  ADMIN_TOKEN?: string;
  /** Secret for cursors, signed URLs, sealed webhook secrets and the local storage gateway. */
  SIGNING_SECRET?: string;
  /** Production only: the R2 S3 API key that signs upload targets. */
  R2_ACCESS_KEY_ID?: string;
  R2_SECRET_ACCESS_KEY?: string;
}

/** Settings with defaults, which an operator may set as secrets; the deploy leaves them alone. */
export interface OptionalSecrets {
  /**
   * Seconds without progress after which the crash sweep takes over a video's or run's
   * work (default 60: work in progress renews its lease every 20 s).
   */
  WORK_LEASE_SECONDS?: string;
  /**
   * Seconds of wall time after which a run's invocation starts no new step and hands its
   * lanes to new messages (default 30).
   */
  RUN_INVOCATION_SECONDS?: string;
  /**
   * Seconds before each webhook attempt, comma separated (default: the Standard Webhooks
   * schedule of the spec's decisions on webhooks); tests shorten it to seconds.
   */
  WEBHOOK_RETRY_SCHEDULE?: string;
  /** Fraction (0 to 1) by which each webhook retry wait is spread either way (default 0.1). */
  WEBHOOK_RETRY_JITTER?: string;
  /**
   * Where R2's S3 API is reached (default `https://<R2_ACCOUNT_ID>.r2.cloudflarestorage.com`);
   * the local simulators of the production adapters serve their own.
   */
  R2_S3_ENDPOINT?: string;
  /**
   * The platform services simulated locally, comma separated (`ai,media,vectorize,r2`); set
   * only by the simulators' entry and shown by `GET /healthz`. Empty when deployed.
   */
  SIMULATED?: string;
  /**
   * Local only: where the screen reader listens (`http://127.0.0.1:<port>`) and the secret it
   * takes, set by the start scripts for the local adapters (scripts/lib/screen-reader.mjs).
   * Unset, the local engine reads no on-screen text.
   */
  SCREEN_READER_URL?: string;
  SCREEN_READER_SECRET?: string;
  /** Local only: the screen reader's speech detector (`silero-vad@5`); unset, audio is not heard. */
  SCREEN_READER_SPEECH?: string;
  /** Local only: `true` when the screen reader also transcribes the speech it finds (WHISPER_URL). */
  SCREEN_READER_TRANSCRIBES?: string;
}

/** Read only by tests; never set in a deployment. */
export interface TestOnlySecrets {
  /** Stages where work waits, so the crash test can kill it there. */
  WORK_PAUSE_AT?: string;
}

/** The result of one Media Transformations call: only what the edge media adapter reads. */
export interface MediaResultLike {
  response(): Promise<Response>;
}

/** A media input whose output can be chosen; `MediaTransformationGenerator` fits it. */
export interface MediaOutputLike {
  output(options: MediaTransformationOutputOptions): MediaResultLike;
}

/** A media input that can also be resized first; `MediaTransformer` fits it. */
export interface MediaTransformerLike extends MediaOutputLike {
  transform(options: MediaTransformationInputOptions): MediaOutputLike;
}

/** The part of the Media Transformations binding (`MediaBinding`, beta) the edge media adapter uses. */
export interface MediaBindingLike {
  input(media: ReadableStream<Uint8Array>): MediaTransformerLike;
}
