import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { vi } from "vitest";
import { SimulatedMedia } from "../../../simulators/media";
import { SimulatedAi } from "../../../simulators/workers-ai";
import { RateWindow } from "../../../simulators/workers-ai/rate-window";
import { createApp } from "../../../src/app";
import type { Env } from "../../../src/env";
import { createPorts, type Ports } from "../../../src/ports";
import { pacedAi } from "../../../src/ports/ai/model-calls";
import { WorkersAiAnswerEngine } from "../../../src/ports/answer-engine/workers-ai";
import { WorkersAiEmbedder } from "../../../src/ports/embedder/workers-ai";
import { R2FrameStore } from "../../../src/ports/media-understanding/frame-store";
import { WorkersAiMediaUnderstanding } from "../../../src/ports/media-understanding/workers-ai";
import { VectorizeIndex } from "../../../src/ports/vector-index/vectorize";
import { API, newTenant } from "../../helpers/harness";
import { createProfile } from "../../helpers/runs";
import { CALM, ONE_ATTEMPT } from "../processing/simulated-engine";
import { type Clock, simulator } from "../simulators/vectorize/world";
import { type Gate, GatedEmbedder, GatedVectorIndex, gatedBucket } from "./gated-env";
import { LANES, type Lane, WorkQueue } from "./lanes";

/** Which adapters run behind the ports. */
export type Mode = "local" | "production";

/** Everything a schedule runs against: one workspace, the app, the queues a test delivers. */
export interface World {
  mode: Mode;
  workspaceId: string;
  key: string;
  profileId: string;
  /** The bindings, with queues that keep what is sent until the test delivers it. */
  env: Env;
  queues: Record<Lane, WorkQueue>;
  /** The adapters for one operation, its storage calls behind `gate`. */
  ports(gate: Gate): Ports;
  /** The adapters as the test reads through them (nothing gated). */
  readPorts: Ports;
  /** Sends a request to the API as the workspace's key, over `bindings` (a string body as is). */
  request(
    bindings: Env,
    method: string,
    path: string,
    body?: unknown,
    contentType?: string,
  ): Promise<Response>;
}

const GENEROUS = new RateWindow({
  "text-generation": 1_000_000,
  "speech-recognition": 1_000_000,
  "text-embeddings": 1_000_000,
});

function productionPorts(): (bucket: R2Bucket, gate: Gate) => Ports {
  const simulated = new SimulatedAi({
    bucket: env.MEDIA_BUCKET,
    faults: CALM,
    vision: "describe",
    rates: GENEROUS,
  });
  const ai = pacedAi(simulated, ONE_ATTEMPT);
  const media = new SimulatedMedia(CALM);
  // The simulated index's own clock, moved by the adapter's polls: writes show after 2 s.
  const clock: Clock = { now: 0 };
  const vectorize = simulator(clock, { dimensions: 1024 });
  const index = new VectorizeIndex(vectorize, {
    sleep: async (ms) => {
      clock.now += ms;
    },
    now: () => clock.now,
  });
  return (bucket, gate) => ({
    ...createPorts({ ...env, MEDIA_BUCKET: bucket }),
    understanding: new WorkersAiMediaUnderstanding({
      ai,
      media,
      frames: new R2FrameStore(bucket),
      mediaRetries: ONE_ATTEMPT,
    }),
    embedder: new GatedEmbedder(new WorkersAiEmbedder(ai), gate),
    vectorIndex: new GatedVectorIndex(index, gate),
    answerEngine: new WorkersAiAnswerEngine({ ai, aiForTenant: () => ai }),
  });
}

function localPorts(): (bucket: R2Bucket, gate: Gate) => Ports {
  return (bucket, gate) => {
    const ports = createPorts({ ...env, MEDIA_BUCKET: bucket });
    return {
      ...ports,
      embedder: new GatedEmbedder(ports.embedder, gate),
      vectorIndex: new GatedVectorIndex(ports.vectorIndex, gate),
    };
  };
}

/**
 * Builds the world of one adapter mode. The Durable Objects send with the real bindings (they
 * build their own dependencies), so those sends are caught into the same queues: no message
 * reaches a background consumer, and the test decides every delivery.
 */
export async function buildWorld(mode: Mode): Promise<World> {
  const tenant = await newTenant(["*"]);
  const profileId = await createProfile(tenant.api);
  const queues = {
    processing: new WorkQueue(),
    windows: new WorkQueue(),
    frames: new WorkQueue(),
    indexing: new WorkQueue(),
    analysis: new WorkQueue(),
  } satisfies Record<Lane, WorkQueue>;
  const bindings: Env = { ...env };
  for (const lane of Object.keys(LANES) as Lane[]) {
    const name = LANES[lane].binding;
    bindings[name] = queues[lane];
    vi.spyOn(env[name], "send").mockImplementation((body) => queues[lane].send(body));
    vi.spyOn(env[name], "sendBatch").mockImplementation((batch) => queues[lane].sendBatch(batch));
  }
  const portsOver = mode === "production" ? productionPorts() : localPorts();
  const open: Gate = async () => undefined;
  const readPorts = portsOver(env.MEDIA_BUCKET, open);
  const app = createApp({ ports: readPorts });
  return {
    mode,
    workspaceId: tenant.workspaceId,
    key: tenant.api.key,
    profileId,
    env: bindings,
    queues,
    ports: (gate) => portsOver(gatedBucket(env.MEDIA_BUCKET, gate), gate),
    readPorts,
    async request(over, method, path, body, contentType = "application/json") {
      const ctx = createExecutionContext();
      const headers: Record<string, string> = { authorization: `Bearer ${tenant.api.key}` };
      if (body !== undefined) headers["content-type"] = contentType;
      const text = typeof body === "string" ? body : JSON.stringify(body);
      const init = { method, headers, body: body === undefined ? null : text };
      const res = await app.fetch(new Request(`${API}${path}`, init), over, ctx);
      await waitOnExecutionContext(ctx);
      return res;
    },
  };
}
