import type { Env } from "../src/env";
import * as service from "../src/index";
import { brokenFrom } from "./broken";
import { faultsFrom } from "./faults";
import { SimulatedMedia } from "./media";
import {
  beginInvocation,
  endInvocation,
  invocationPeaks,
  metered,
  meteredNamespace,
} from "./meter";
import { handleS3Request } from "./r2-s3";
import { ErrorScripts, scriptedErrorsFrom } from "./scripted-errors";
import {
  type SimulatedIndexBackend,
  VectorizeSimulator,
  type VectorizeSimulatorIndex,
} from "./vectorize";
import { SimulatedAi, type VisionMode } from "./workers-ai";
import { answerSettingsFrom } from "./workers-ai/answer-errors";
import { listAnswerErrors } from "./workers-ai/answer-ledger";
import { ACCOUNT, callsStarted } from "./workers-ai/rate-window";

export { VectorizeSimulatorIndex } from "./vectorize";

/** Where the simulated R2 S3 API is served, on the service's own origin. */
const R2_PATH = "/__r2";
/** The index `npm run deploy` creates: BGE-M3's 1,024 dimensions, cosine, filtered by video. */
const INDEX = { dimensions: 1024, metric: "cosine", metadataIndexes: ["video_id"] } as const;

/** What the simulators read besides the service's own bindings (the README's table). */
export interface SimulatorEnv extends Env {
  VECTORIZE_SIMULATOR: DurableObjectNamespace<VectorizeSimulatorIndex>;
  /** The service's base URL, where presigned storage targets point (set by `npm run dev`). */
  SIMULATOR_ORIGIN?: string;
  SIMULATE_MODEL_LATENCY_MS?: string;
  SIMULATE_FAULT_RATE?: string;
  /** `refuse` (default) or `describe`: what the simulated vision model does with a frame. */
  SIMULATE_VISION?: string;
  /** Simulated services that refuse every call for good: `speech,vision,media[:quota]`. */
  SIMULATE_BROKEN?: string;
  /** Models that throw a given error: `speech=3040x2,answers=unknown` (docs/simulators.md). */
  SIMULATE_ERRORS?: string;
  /** Milliseconds before a Vectorize write is visible (default 1,000). */
  SIMULATE_VECTORIZE_DELAY_MS?: string;
  /** `honest` (default) or `adversarial`: how the simulated answer model answers. */
  SIMULATE_ANSWERS?: string;
  /** The adversarial model's seed (an integer, default 1). */
  SIMULATE_ANSWERS_SEED?: string;
  /** A factor on every default error rate, or `kind=rate` pairs (docs/simulators.md). */
  SIMULATE_ANSWERS_RATES?: string;
}

function visionMode(raw: string | undefined): VisionMode {
  if (raw === undefined || raw === "" || raw === "refuse") return "refuse";
  if (raw === "describe") return "describe";
  throw new Error(`SIMULATE_VISION must be "refuse" or "describe", not ${raw}`);
}

function delayMs(raw: string | undefined): number {
  if (raw === undefined || raw === "") return 1000;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0)
    throw new Error(`SIMULATE_VECTORIZE_DELAY_MS must be a number of milliseconds, not ${raw}`);
  return value;
}

/**
 * The simulated index's object, reached anew on every call: the service keeps its adapters for
 * the isolate's life, and a stub made during one request cannot be used by another.
 */
function indexObject(
  namespace: DurableObjectNamespace<VectorizeSimulatorIndex>,
): SimulatedIndexBackend {
  const stub = () => namespace.getByName("video-segments");
  return {
    mutate: (config, mutation) => stub().mutate(config, mutation),
    query: (config, vector, options) => stub().query(config, vector, options),
    getByIds: (config, ids) => stub().getByIds(config, ids),
    describe: (config) => stub().describe(config),
  };
}

/** The simulated R2 API token: derived from the signing secret, so it lives as long as it. */
function r2Credentials(env: SimulatorEnv) {
  const secret = env.SIGNING_SECRET ?? "";
  return { accessKeyId: "SIMULATEDR2ACCESSKEY", secretAccessKey: `${secret}:r2-simulator` };
}

/**
 * The service's env with every production platform binding replaced by its local simulator:
 * the production adapters then run unchanged, with nothing remote.
 */
function simulated(env: SimulatorEnv): Env {
  const faults = faultsFrom(env);
  const broken = brokenFrom(env.SIMULATE_BROKEN);
  const errors = new ErrorScripts(scriptedErrorsFrom(env.SIMULATE_ERRORS));
  const credentials = r2Credentials(env);
  const origin = env.SIMULATOR_ORIGIN ?? "http://127.0.0.1:8787";
  return {
    ...env,
    // Every binding counts the subrequests made through it (GET /__simulator/stats).
    DB: metered(env.DB),
    MEDIA_BUCKET: metered(env.MEDIA_BUCKET),
    PROCESSING_QUEUE: metered(env.PROCESSING_QUEUE),
    WINDOWS_QUEUE: metered(env.WINDOWS_QUEUE),
    FRAMES_QUEUE: metered(env.FRAMES_QUEUE),
    INDEXING_QUEUE: metered(env.INDEXING_QUEUE),
    ANALYSIS_QUEUE: metered(env.ANALYSIS_QUEUE),
    WEBHOOK_QUEUE: metered(env.WEBHOOK_QUEUE),
    WEBHOOK_SLOW_QUEUE: metered(env.WEBHOOK_SLOW_QUEUE),
    IDEMPOTENCY_KEYS: meteredNamespace(env.IDEMPOTENCY_KEYS),
    UPLOAD_SESSIONS: meteredNamespace(env.UPLOAD_SESSIONS),
    RUNS: meteredNamespace(env.RUNS),
    LOCAL_INDEX: meteredNamespace(env.LOCAL_INDEX),
    MODEL_LIMITER: meteredNamespace(env.MODEL_LIMITER),
    RATE_LIMITER: meteredNamespace(env.RATE_LIMITER),
    DEPLOYMENT: "production",
    SIMULATED: "ai,media,vectorize,r2",
    AI: metered(
      new SimulatedAi({
        bucket: env.MEDIA_BUCKET,
        faults,
        vision: visionMode(env.SIMULATE_VISION),
        answers: answerSettingsFrom(env),
        broken,
        errors,
      }),
    ),
    MEDIA: metered(new SimulatedMedia(faults, broken)),
    VECTORIZE: metered(
      new VectorizeSimulator(indexObject(env.VECTORIZE_SIMULATOR), {
        ...INDEX,
        metadataIndexes: [...INDEX.metadataIndexes],
        visibilityDelayMs: delayMs(env.SIMULATE_VECTORIZE_DELAY_MS),
      }),
    ),
    R2_ACCOUNT_ID: "simulated",
    R2_S3_ENDPOINT: `${origin}${R2_PATH}`,
    R2_ACCESS_KEY_ID: credentials.accessKeyId,
    R2_SECRET_ACCESS_KEY: credentials.secretAccessKey,
  };
}

/** Serves R2's S3 API for the bucket, as R2 would with the deploy's CORS rule. */
function serveR2(request: Request, env: SimulatorEnv): Promise<Response> {
  const origin = env.SIMULATOR_ORIGIN ?? new URL(request.url).origin;
  return handleS3Request(request, env.MEDIA_BUCKET, {
    credentials: r2Credentials(env),
    bucketName: env.R2_BUCKET_NAME ?? "video-analysis-media",
    basePath: R2_PATH,
    cors: [
      {
        AllowedOrigins: [origin],
        AllowedMethods: ["GET", "PUT", "HEAD"],
        AllowedHeaders: ["content-type"],
        ExposeHeaders: ["ETag"],
        MaxAgeSeconds: 3600,
      },
    ],
  });
}

/**
 * What the simulators saw: each invocation kind's peak subrequests, model calls a minute, and
 * model calls started (admitted or not) per task since the process started.
 */
function stats(): Response {
  return Response.json({
    invocation_peaks: invocationPeaks(),
    model_calls_last_minute: ACCOUNT.lastMinute(Date.now()),
    model_calls_started: Object.fromEntries(callsStarted),
  });
}

/**
 * The simulators' own routes beside the service's (`/__simulator/…`), or null for a path that
 * is not one: what they saw (stats) and the errors the adversarial answer model made.
 */
export async function simulatorRoute(pathname: string, bucket: R2Bucket): Promise<Response | null> {
  if (pathname === "/__simulator/stats") return stats();
  if (pathname === "/__simulator/answer-errors")
    return Response.json({ errors: await listAnswerErrors(bucket) });
  return null;
}

/** Runs one invocation of `kind` while counting its subrequests. */
async function counted<T>(kind: string, work: () => Promise<T>): Promise<T> {
  const meter = beginInvocation(kind);
  try {
    return await work();
  } finally {
    endInvocation(meter);
  }
}

export default {
  fetch: async (request, env, ctx) => {
    const { pathname } = new URL(request.url);
    if (pathname.startsWith(`${R2_PATH}/`)) return serveR2(request, env);
    const own = pathname.startsWith("/__simulator/")
      ? await simulatorRoute(pathname, env.MEDIA_BUCKET)
      : null;
    if (own) return own;
    return counted("fetch", async () => service.default.fetch(request, simulated(env), ctx));
  },
  queue: (batch, env) =>
    counted(`queue:${batch.queue}`, () => service.default.queue(batch, simulated(env))),
  scheduled: (controller, env) =>
    counted("scheduled", () => service.default.scheduled(controller, simulated(env))),
} satisfies ExportedHandler<SimulatorEnv>;

// The service's Durable Objects, each given the simulated env (they build ports from it).
export class IdempotencyKey extends service.IdempotencyKey {
  constructor(ctx: DurableObjectState, env: SimulatorEnv) {
    super(ctx, simulated(env));
  }
}
export class LocalVectorIndex extends service.LocalVectorIndex {
  constructor(ctx: DurableObjectState, env: SimulatorEnv) {
    super(ctx, simulated(env));
  }
}
export class ModelRateLimiter extends service.ModelRateLimiter {
  constructor(ctx: DurableObjectState, env: SimulatorEnv) {
    super(ctx, simulated(env));
  }
}
export class RunCoordinator extends service.RunCoordinator {
  constructor(ctx: DurableObjectState, env: SimulatorEnv) {
    super(ctx, simulated(env));
  }
}
export class UploadSession extends service.UploadSession {
  constructor(ctx: DurableObjectState, env: SimulatorEnv) {
    super(ctx, simulated(env));
  }
}
export class WorkspaceRateLimiter extends service.WorkspaceRateLimiter {
  constructor(ctx: DurableObjectState, env: SimulatorEnv) {
    super(ctx, simulated(env));
  }
}
