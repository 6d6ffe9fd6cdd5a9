import type { MediaAbilities } from "../domain/media-abilities";
import type { Env } from "../env";
import { signingSecret } from "../lib/secrets";
import { DurableObjectRateLimiter } from "./ai/limiter";
import { pacedAi } from "./ai/model-calls";
import { LocalAnswerEngine } from "./answer-engine/local";
import type { AnswerEngine } from "./answer-engine/port";
import { WorkersAiAnswerEngine } from "./answer-engine/workers-ai";
import { LocalHashEmbedder } from "./embedder/local-hash";
import type { Embedder } from "./embedder/port";
import { WorkersAiEmbedder } from "./embedder/workers-ai";
import { R2FrameStore } from "./media-understanding/frame-store";
import { LocalMediaUnderstanding } from "./media-understanding/local";
import type { MediaUnderstanding } from "./media-understanding/port";
import { WorkersAiMediaUnderstanding } from "./media-understanding/workers-ai";
import { SidecarScreenReader, SidecarSpeechSpans } from "./screen-reader/sidecar";
import { gatewayCredentials, LocalGatewayStorage } from "./storage/local-gateway/adapter";
import { type StorageGateway, storageGateway } from "./storage/local-gateway/http";
import type { UploadStorage } from "./storage/port";
import { R2S3Storage } from "./storage/r2-s3";
import { LocalIndexFeatureStats, LocalVectorIndexAdapter } from "./vector-index/local-do";
import type { VectorIndex } from "./vector-index/port";
import { VectorizeIndex } from "./vector-index/vectorize";

/** The adapters behind every port, chosen once from the deployment's configuration. */
export interface Ports {
  storage: UploadStorage;
  /** Turns a probed video into index segments. */
  understanding: MediaUnderstanding;
  /** What `understanding` hears and sees, as GET /healthz and search say it. */
  mediaAbilities: MediaAbilities;
  /** Embeds segment text and queries. */
  embedder: Embedder;
  /** Per-workspace nearest-neighbour search over segment vectors. */
  vectorIndex: VectorIndex;
  /** Answers a profile's answer specs over indexed videos. */
  answerEngine: AnswerEngine;
  /** The local storage gateway's HTTP half, which this Worker serves; null in production. */
  storageGateway: StorageGateway | null;
}

function required(env: Env, name: keyof Env): string {
  const value = env[name];
  if (typeof value !== "string" || value === "")
    throw new Error(`${name} must be configured for DEPLOYMENT=production`);
  return value;
}

function requiredBinding<T>(binding: T | undefined, name: string): T {
  if (binding === undefined)
    throw new Error(`the ${name} binding must be configured for DEPLOYMENT=production`);
  return binding;
}

/** Builds the adapters for `env.DEPLOYMENT` ("local" or "production"). */
export function createPorts(env: Env): Ports {
  if (env.DEPLOYMENT === "production") {
    // One limiter for the whole account: every model call of every adapter takes its slot.
    const binding = requiredBinding(env.AI, "AI");
    const limiter = new DurableObjectRateLimiter(env.MODEL_LIMITER);
    const ai = pacedAi(binding, { limiter });
    const understanding = new WorkersAiMediaUnderstanding({
      ai,
      media: requiredBinding(env.MEDIA, "MEDIA"),
      frames: new R2FrameStore(env.MEDIA_BUCKET),
    });
    return {
      storage: new R2S3Storage(
        {
          accountId: required(env, "R2_ACCOUNT_ID"),
          bucket: required(env, "R2_BUCKET_NAME"),
          ...(env.R2_S3_ENDPOINT ? { endpoint: env.R2_S3_ENDPOINT } : {}),
        },
        {
          accessKeyId: required(env, "R2_ACCESS_KEY_ID"),
          secretAccessKey: required(env, "R2_SECRET_ACCESS_KEY"),
        },
      ),
      understanding,
      // Whisper hears speech; the vision model describes sampled frames and reads their text.
      mediaAbilities: {
        engine: understanding.engine,
        speech: true,
        pictures: true,
        onScreenText: true,
      },
      embedder: new WorkersAiEmbedder(ai),
      vectorIndex: new VectorizeIndex(requiredBinding(env.VECTORIZE, "VECTORIZE")),
      // A run's calls carry its workspace, so the limiter shares the rate between tenants.
      answerEngine: new WorkersAiAnswerEngine({
        ai,
        aiForTenant: (tenant) => pacedAi(binding, { limiter, tenant }),
      }),
      storageGateway: null,
    };
  }
  if (env.DEPLOYMENT !== "local")
    throw new Error(`DEPLOYMENT must be "local" or "production", not ${env.DEPLOYMENT}`);
  const credentials = gatewayCredentials(signingSecret(env));
  const understanding = localUnderstanding(env);
  return {
    storage: new LocalGatewayStorage(env.MEDIA_BUCKET, credentials),
    understanding,
    // The local engine reads the file's text tracks and tags, on-screen text when a screen
    // reader runs, and speech when that reader transcribes it (its `limitations` say what it
    // leaves out).
    mediaAbilities: {
      engine: understanding.engine,
      speech: understanding.transcribes,
      pictures: false,
      onScreenText: understanding.readsScreen,
    },
    embedder: new LocalHashEmbedder(new LocalIndexFeatureStats(env.LOCAL_INDEX)),
    vectorIndex: new LocalVectorIndexAdapter(env.LOCAL_INDEX),
    answerEngine: new LocalAnswerEngine(),
    storageGateway: storageGateway(env.MEDIA_BUCKET, credentials),
  };
}

/** The local engine, reading on-screen text when the start scripts started a screen reader. */
function localUnderstanding(env: Env): LocalMediaUnderstanding {
  const url = env.SCREEN_READER_URL;
  const secret = env.SCREEN_READER_SECRET;
  if (!url || !secret) return new LocalMediaUnderstanding();
  const speech = env.SCREEN_READER_SPEECH;
  return new LocalMediaUnderstanding({
    reader: new SidecarScreenReader({ url, secret }),
    frames: new R2FrameStore(env.MEDIA_BUCKET),
    ...(speech
      ? {
          speech: new SidecarSpeechSpans(
            { url, secret },
            speech,
            env.SCREEN_READER_TRANSCRIBES === "true",
          ),
        }
      : {}),
  });
}
