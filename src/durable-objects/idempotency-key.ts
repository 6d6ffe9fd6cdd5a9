import { DurableObject } from "cloudflare:workers";
import type { Env } from "../env";
import { serializer } from "../lib/serial";

/** What the first request with a key answered, replayed to every later one. */
export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  /** The body as the middleware sealed it; this object never reads it. */
  body: string;
}

/** The answer to `begin`: run the request, replay, or refuse. */
export type BeginResult =
  | { state: "proceed"; token: string }
  | { state: "replay"; response: StoredResponse }
  | { state: "mismatch" }
  | { state: "in-flight" };

/** A kept response without its body, which lives in `body:<n>` values beside the record. */
interface StoredHead {
  status: number;
  headers: Record<string, string>;
  chunks: number;
}

interface IdempotencyRecord {
  fingerprint: string;
  createdAt: number;
  token: string;
  leaseUntil: number;
  /** A head with its body in chunks; a whole response in records kept by earlier versions. */
  response: StoredHead | StoredResponse | null;
}

/** Keys are kept this long after their first request (the spec's Limits section). */
export const RETENTION_MS = 24 * 60 * 60 * 1000;
/** A request that neither completes nor releases within this is presumed dead. */
const LEASE_MS = 2 * 60 * 1000;
/** How long a duplicate waits for the first request before answering 409. */
const WAIT_MS = 10_000;
const RECORD = "record";
/**
 * UTF-16 units per stored body chunk: a Durable Object value holds at most 2 MB, and a
 * replayed body (a CSV import's rulebooks) can be several MB.
 */
export const BODY_CHUNK_CHARS = 500_000;
/** Keys one `put` may write at once. */
const PUT_KEYS = 128;

const chunkKey = (n: number) => `body:${n}`;

/** The body in pieces of at most `BODY_CHUNK_CHARS`, never splitting a surrogate pair. */
export function bodyChunks(body: string): string[] {
  const chunks: string[] = [];
  let start = 0;
  while (start < body.length) {
    let end = Math.min(start + BODY_CHUNK_CHARS, body.length);
    const last = body.charCodeAt(end - 1);
    if (end < body.length && last >= 0xd800 && last <= 0xdbff) end--;
    chunks.push(body.slice(start, end));
    start = end;
  }
  return chunks;
}

/**
 * One object per (workspace, Idempotency-Key). It serializes requests that share a key:
 * the first runs, duplicates wait for its response and replay it, a different request
 * with the same key is refused.
 */
export class IdempotencyKey extends DurableObject<Env> {
  private waiters: Array<() => void> = [];
  /** Each read-decide-write step runs alone, so two calls never both claim the key. */
  private readonly serial = serializer();

  /** Claims the key for a request with this fingerprint, or says why not. */
  async begin(fingerprint: string): Promise<BeginResult> {
    const deadline = Date.now() + WAIT_MS;
    for (;;) {
      const decided = await this.serial(() => this.decide(fingerprint, deadline));
      if (decided !== "wait") return decided;
      await this.waitForChange(deadline - Date.now());
    }
  }

  /** Stores the response of the request holding `token`; later duplicates replay it. */
  async complete(token: string, response: StoredResponse): Promise<void> {
    await this.serial(async () => {
      const record = await this.ctx.storage.get<IdempotencyRecord>(RECORD);
      if (!record || record.token !== token) return;
      const chunks = bodyChunks(response.body);
      for (let first = 0; first < chunks.length; first += PUT_KEYS) {
        const entries: Record<string, string> = {};
        chunks.slice(first, first + PUT_KEYS).forEach((chunk, i) => {
          entries[chunkKey(first + i)] = chunk;
        });
        await this.ctx.storage.put(entries);
      }
      // The record names the chunks last: a response is replayed only once it is whole.
      const head: StoredHead = {
        status: response.status,
        headers: response.headers,
        chunks: chunks.length,
      };
      await this.ctx.storage.put(RECORD, { ...record, response: head });
    });
    this.wake();
  }

  /** Gives the key up after a request that changed nothing, so it can be retried. */
  async release(token: string): Promise<void> {
    await this.serial(async () => {
      const record = await this.ctx.storage.get<IdempotencyRecord>(RECORD);
      if (!record || record.token !== token) return;
      await this.ctx.storage.delete(RECORD);
    });
    this.wake();
  }

  private async decide(fingerprint: string, deadline: number): Promise<BeginResult | "wait"> {
    const now = Date.now();
    const record = await this.current(now);
    if (!record) return this.claim(fingerprint, now, now);
    if (record.fingerprint !== fingerprint) return { state: "mismatch" };
    if (record.response) return { state: "replay", response: await this.whole(record.response) };
    if (record.leaseUntil <= now) return this.claim(fingerprint, record.createdAt, now);
    if (now >= deadline) return { state: "in-flight" };
    return "wait";
  }

  /** The kept response with its body put back together. */
  private async whole(kept: StoredHead | StoredResponse): Promise<StoredResponse> {
    if (!("chunks" in kept)) return kept;
    const keys = Array.from({ length: kept.chunks }, (_, n) => chunkKey(n));
    const pieces: string[] = [];
    for (let first = 0; first < keys.length; first += PUT_KEYS) {
      const got = await this.ctx.storage.get<string>(keys.slice(first, first + PUT_KEYS));
      for (const key of keys.slice(first, first + PUT_KEYS)) pieces.push(got.get(key) ?? "");
    }
    return { status: kept.status, headers: kept.headers, body: pieces.join("") };
  }

  /** Deletes the record once its retention has passed. */
  override async alarm(): Promise<void> {
    await this.serial(async () => {
      const record = await this.ctx.storage.get<IdempotencyRecord>(RECORD);
      if (!record) return;
      const expiresAt = record.createdAt + RETENTION_MS;
      if (expiresAt <= Date.now()) await this.ctx.storage.deleteAll();
      else await this.ctx.storage.setAlarm(expiresAt);
    });
  }

  private async current(now: number): Promise<IdempotencyRecord | null> {
    const record = await this.ctx.storage.get<IdempotencyRecord>(RECORD);
    if (!record) return null;
    if (record.createdAt + RETENTION_MS > now) return record;
    await this.ctx.storage.deleteAll();
    return null;
  }

  private async claim(fingerprint: string, createdAt: number, now: number): Promise<BeginResult> {
    const token = crypto.randomUUID();
    await this.ctx.storage.put(RECORD, {
      fingerprint,
      createdAt,
      token,
      leaseUntil: now + LEASE_MS,
      response: null,
    } satisfies IdempotencyRecord);
    await this.ctx.storage.setAlarm(createdAt + RETENTION_MS);
    return { state: "proceed", token };
  }

  private waitForChange(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.waiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}
