import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";

/** How the platform runs one queue's consumer (wrangler.toml, `[env.production]`). */
export interface ConsumerSettings {
  maxBatchSize: number;
  maxRetries: number;
  maxConcurrency: number;
}

/** One isolate's consumer: the handler of a batch, as that isolate's modules built it. */
export type IsolateConsumer = (batch: MessageBatch) => Promise<void>;

interface Pending {
  id: string;
  body: unknown;
  attempts: number;
  due: number;
}

/** What the platform did with a queue's messages. */
export interface QueueReport {
  batches: number;
  deliveries: number;
  retries: number;
  /** The delays the consumer asked for its retries, in seconds, added up. */
  retryDelaySeconds: number;
  duplicates: number;
  /** Batches of this queue running at once, at most. */
  mostAtOnce: number;
  /** Batches that ran at once on one isolate, and on more than one, at most. */
  mostInOneIsolate: number;
  isolatesAtOnce: number;
  deadLettered: unknown[];
}

/**
 * A queue as the platform runs it, not as `wrangler dev` does: up to `maxConcurrency` batches
 * of it at once, handed to several isolates in turn; a retried message comes back after its
 * delay (scaled: `msPerSecond` of real time for each second asked), a message past its
 * retries goes to the dead letters, and delivery is at least once (now and then a message is
 * delivered twice, the copies in different batches).
 */
export class PlatformQueue implements Queue<unknown> {
  private readonly pending: Pending[] = [];
  private readonly running = new Map<number, number>();
  private wake: (() => void) | null = null;
  private inFlight = 0;
  private sent = 0;
  readonly report: QueueReport = {
    batches: 0,
    deliveries: 0,
    retries: 0,
    retryDelaySeconds: 0,
    duplicates: 0,
    mostAtOnce: 0,
    mostInOneIsolate: 0,
    isolatesAtOnce: 0,
    deadLettered: [],
  };

  constructor(
    readonly name: string,
    private readonly settings: ConsumerSettings,
    private readonly options: { msPerSecond: number; duplicateEvery: number },
  ) {}

  async metrics(): Promise<QueueMetrics> {
    return { backlogCount: this.pending.length, backlogBytes: 0 };
  }

  async send(body: unknown): Promise<QueueSendResponse> {
    this.enqueue(body);
    return { metadata: { metrics: await this.metrics() } };
  }

  async sendBatch(
    messages: Iterable<MessageSendRequest<unknown>>,
  ): Promise<QueueSendBatchResponse> {
    for (const message of messages) this.enqueue(message.body);
    return { metadata: { metrics: await this.metrics() } };
  }

  private enqueue(body: unknown, attempts = 1, due = Date.now()): void {
    const id = crypto.randomUUID();
    this.pending.push({ id, body, attempts, due });
    // At least once: every `duplicateEvery`-th message sent is delivered twice.
    if (attempts === 1 && ++this.sent % this.options.duplicateEvery === 0) {
      this.report.duplicates++;
      this.pending.push({ id: crypto.randomUUID(), body, attempts, due });
    }
    this.wake?.();
  }

  /**
   * Delivers every message until none is left or waiting: `maxConcurrency` loops, each taking
   * the next due batch and handing it to the next isolate.
   */
  async drain(isolates: readonly IsolateConsumer[]): Promise<QueueReport> {
    let turn = 0;
    const loop = async () => {
      for (;;) {
        const batch = this.nextBatch();
        if (batch === "done") return;
        if (batch === "wait") {
          await new Promise<void>((resolve) => {
            this.wake = resolve;
            setTimeout(resolve, 5);
          });
          continue;
        }
        const isolate = turn++ % isolates.length;
        const consume = isolates[isolate];
        if (consume) await this.run(batch, isolate, consume);
      }
    };
    await Promise.all(Array.from({ length: this.settings.maxConcurrency }, loop));
    return this.report;
  }

  private nextBatch(): Pending[] | "wait" | "done" {
    if (this.pending.length === 0) return this.inFlight === 0 ? "done" : "wait";
    const now = Date.now();
    const due = this.pending.filter((p) => p.due <= now).slice(0, this.settings.maxBatchSize);
    if (due.length === 0) return "wait";
    for (const message of due) this.pending.splice(this.pending.indexOf(message), 1);
    return due;
  }

  private async run(messages: Pending[], isolate: number, consume: IsolateConsumer) {
    this.inFlight++;
    this.running.set(isolate, (this.running.get(isolate) ?? 0) + 1);
    const r = this.report;
    r.batches++;
    r.deliveries += messages.length;
    r.mostAtOnce = Math.max(r.mostAtOnce, this.inFlight);
    r.mostInOneIsolate = Math.max(r.mostInOneIsolate, this.running.get(isolate) ?? 0);
    r.isolatesAtOnce = Math.max(
      r.isolatesAtOnce,
      [...this.running.values()].filter(Boolean).length,
    );
    try {
      const batch = createMessageBatch(
        this.name,
        messages.map((m) => ({
          id: m.id,
          timestamp: new Date(),
          attempts: m.attempts,
          body: m.body,
        })),
      );
      const ctx = createExecutionContext();
      let threw = false;
      await consume(batch).catch(() => {
        threw = true;
      });
      const result = await getQueueResult(batch, ctx);
      const retried = new Map(result.retryMessages.map((m) => [m.msgId, m.delaySeconds ?? 0]));
      for (const message of messages) {
        const acked = result.ackAll || result.explicitAcks.includes(message.id);
        if (acked && !retried.has(message.id)) continue;
        if (!acked && !retried.has(message.id) && !threw && !result.retryBatch.retry) continue;
        r.retries++;
        if (message.attempts > this.settings.maxRetries) {
          r.deadLettered.push(message.body);
          continue;
        }
        const delay = retried.get(message.id) ?? result.retryBatch.delaySeconds ?? 0;
        r.retryDelaySeconds += delay;
        this.enqueue(
          message.body,
          message.attempts + 1,
          Date.now() + delay * this.options.msPerSecond,
        );
      }
    } finally {
      this.inFlight--;
      this.running.set(isolate, (this.running.get(isolate) ?? 1) - 1);
      this.wake?.();
    }
  }
}
