import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { createApp } from "../../../src/app";
import { database, runBatch } from "../../../src/db/client";
import { insertEventStatement } from "../../../src/db/repos/events";
import type { Env } from "../../../src/env";
import type { DeliverWebhookMessage } from "../../../src/lib/queue-messages";
import { createPorts } from "../../../src/ports";
import { createDeps, type Deps } from "../../../src/services/deps";
import type { TransportResult, WebhookTransport } from "../../../src/services/webhooks/transport";
import { API, type Client, expectJson } from "../../helpers/harness";

const EMPTY_METRICS = { backlogCount: 0, backlogBytes: 0 };

/** A webhook queue that keeps each message with its delay, so a test delivers them itself. */
export class WebhookQueueRecorder implements Queue<DeliverWebhookMessage> {
  sent: { body: DeliverWebhookMessage; delaySeconds: number }[] = [];
  failNext = 0;
  async metrics(): Promise<QueueMetrics> {
    return EMPTY_METRICS;
  }
  async send(body: DeliverWebhookMessage, options?: QueueSendOptions): Promise<QueueSendResponse> {
    return this.sendBatch([{ body, ...(options ?? {}) }]);
  }
  async sendBatch(
    messages: Iterable<MessageSendRequest<DeliverWebhookMessage>>,
  ): Promise<QueueSendBatchResponse> {
    if (this.failNext > 0) {
      this.failNext--;
      throw new Error("queue unavailable");
    }
    for (const m of messages) this.sent.push({ body: m.body, delaySeconds: m.delaySeconds ?? 0 });
    return { metadata: { metrics: EMPTY_METRICS } };
  }
  /** Takes every recorded message out. */
  take(): DeliverWebhookMessage[] {
    const bodies = this.sent.map((m) => m.body);
    this.sent = [];
    return bodies;
  }
}

/** One request a receiver got. */
export interface Received {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** A transport that records requests and answers from a script (last answer repeats). */
export function scriptedTransport(answers: (TransportResult | Error)[]) {
  const received: Received[] = [];
  const transport: WebhookTransport = async (request) => {
    received.push(request);
    const answer = answers[Math.min(received.length - 1, answers.length - 1)];
    if (answer === undefined) throw new Error("no scripted answer");
    if (answer instanceof Error) throw answer;
    return answer;
  };
  return { transport, received };
}

/** A world for webhook tests: recording queues (both lanes), controllable clock, short retry schedule. */
export function webhookWorld(options: { schedule?: string; now?: number } = {}) {
  const queue = new WebhookQueueRecorder();
  const slowQueue = new WebhookQueueRecorder();
  const target: Env = {
    ...env,
    WEBHOOK_QUEUE: queue,
    WEBHOOK_SLOW_QUEUE: slowQueue,
    WEBHOOK_RETRY_SCHEDULE: options.schedule ?? "0,5,300",
    WEBHOOK_RETRY_JITTER: "0",
  };
  const clock = { at: options.now ?? Date.now() };
  const base = createDeps(target, createPorts(target));
  const deps: Deps = { ...base, clock: { now: () => clock.at } };
  const app = createApp({ ports: createPorts(target) });
  /** Sends an API request through the app bound to the recording queue. */
  async function call(
    key: string,
    method: string,
    path: string,
    body?: unknown,
    extraHeaders: Record<string, string> = {},
  ) {
    const ctx = createExecutionContext();
    const headers: Record<string, string> = { ...extraHeaders, authorization: `Bearer ${key}` };
    if (body !== undefined) headers["content-type"] = "application/json";
    const request = new Request(`${API}${path}`, {
      method,
      headers,
      body: body === undefined ? null : JSON.stringify(body),
    });
    const res = await app.fetch(request, target, ctx);
    await waitOnExecutionContext(ctx);
    return res;
  }
  return { queue, slowQueue, deps, clock, env: target, call };
}

/** Registers an endpoint through the API; returns it with its secret. */
export async function registerEndpoint(
  api: Client,
  body: { url?: string; event_types?: string[]; description?: string } = {},
) {
  const res = await api.post("/webhooks", {
    url: body.url ?? "https://receiver.example.com/hooks",
    event_types: body.event_types ?? ["*"],
    ...(body.description === undefined ? {} : { description: body.description }),
  });
  return expectJson<{ id: string; secret: string; enabled: boolean; url: string }>(res, 201);
}

/** Appends an outbox event the way services do (one batch), returning its id. */
export async function emitEvent(
  workspaceId: string,
  type: string,
  data: Record<string, unknown> = { video: { id: "vid_x" } },
  requestId: string | null = null,
): Promise<string> {
  const db = database(env.DB);
  const statement = insertEventStatement(db, { workspaceId, type, data, requestId });
  await runBatch(db, [statement]);
  const row = await env.DB.prepare(
    "SELECT id FROM events WHERE workspace_id = ? AND type = ? ORDER BY id DESC LIMIT 1",
  )
    .bind(workspaceId, type)
    .first<{ id: string }>();
  expect(row).not.toBeNull();
  return row?.id ?? "";
}

/** The stored deliveries of an endpoint, oldest first. */
export async function storedDeliveries(endpointId: string) {
  const { results } = await env.DB.prepare(
    "SELECT * FROM webhook_deliveries WHERE endpoint_id = ? ORDER BY id",
  )
    .bind(endpointId)
    .all<{
      id: string;
      event_id: string;
      status: string;
      attempts: number;
      response_status: number | null;
      next_attempt_at: string;
    }>();
  return results;
}

/**
 * A receiver on loopback (test/node/webhook-receivers.ts), reached with the runtime's own
 * fetch: its URL (with `options` as the receiver's settings) and what it received.
 */
export function loopbackReceiver(options: { idle?: number; drop?: number; delay?: number } = {}) {
  const path = `/${crypto.randomUUID()}`;
  const query = new URLSearchParams(
    Object.entries(options).map(([name, value]) => [name, String(value)]),
  ).toString();
  return {
    url: `${env.WEBHOOK_RECEIVERS}${path}${query ? `?${query}` : ""}`,
    /** The `webhook-id` of each request it got, and the idle connections it closed. */
    async log(): Promise<{ requests: string[]; idleClosed: number }> {
      return (await fetch(`${env.WEBHOOK_RECEIVERS}${path}`)).json();
    },
  };
}

/** Blocks the event loop, as a stalled service does: nothing else runs meanwhile. */
export function busyWait(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // Spinning on purpose: timers, answers and connection closes wait for it.
  }
}

/** The endpoint's stored failure streak and lane mark. */
export async function endpointHealth(endpointId: string) {
  return env.DB.prepare("SELECT failing_since, slow_since FROM webhook_endpoints WHERE id = ?")
    .bind(endpointId)
    .first<{ failing_since: string | null; slow_since: string | null }>();
}
