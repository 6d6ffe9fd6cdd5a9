import type { PlatformBindings } from "../../env";
import type { VectorIndex, VectorMatch, VectorQuery, VectorRecord } from "./port";

/** The methods of the Vectorize (V2) binding this adapter uses; `env.VECTORIZE` satisfies it. */
export type VectorizeBinding = NonNullable<PlatformBindings["VECTORIZE"]>;

/** How long to wait for a mutation to become visible, and how to wait (injectable for tests). */
export interface VisibilityOptions {
  /** Give up after this long (default 30 s; the queue consumer retries). */
  timeoutMs?: number;
  /** First pause between `describe()` polls, doubled up to `maxPollMs` (defaults 250 ms, 2 s). */
  pollMs?: number;
  maxPollMs?: number;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

/** A write was accepted but not yet applied within the wait; retrying the message is safe. */
export class VectorizeNotVisibleError extends Error {
  override readonly name = "VectorizeNotVisibleError";
  readonly retryable = true;

  constructor(
    readonly mutationId: string,
    waitedMs: number,
  ) {
    super(`Vectorize mutation ${mutationId} not visible after ${waitedMs} ms; retry later`);
  }
}

/** Vectorize's limits (developers.cloudflare.com/vectorize/platform/limits). */
const MAX_BATCH = 1000;
const MAX_TOP_K = 100;
const MAX_NAME_BYTES = 64;
const MAX_FILTER_BYTES = 2048;

const encoder = new TextEncoder();

/** One mutation of ours and an id it wrote (values) or deleted (null), to read back. */
interface Written {
  mutationId: string;
  id: string;
  values: number[] | null;
}

// Stored vectors are float32: compare with a tolerance, not bit for bit.
function applied(w: Written, stored: number[] | undefined): boolean {
  if (w.values === null) return stored === undefined;
  if (stored === undefined || stored.length !== w.values.length) return false;
  return w.values.every(
    (v, i) => Math.abs(v - (stored[i] ?? Number.NaN)) <= 1e-5 * (1 + Math.abs(v)),
  );
}

/**
 * The production vector index: one Vectorize namespace per workspace, `video_id` as indexed
 * metadata (create the metadata index before the first insert), writes in batches of 1,000
 * that resolve once each of their mutations is readable (see `visible`).
 */
export class VectorizeIndex implements VectorIndex {
  private readonly timeoutMs: number;
  private readonly pollMs: number;
  private readonly maxPollMs: number;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly now: () => number;

  constructor(
    private readonly binding: VectorizeBinding,
    options: VisibilityOptions = {},
  ) {
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.pollMs = options.pollMs ?? 250;
    this.maxPollMs = options.maxPollMs ?? 2_000;
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.now = options.now ?? Date.now;
  }

  async upsert(workspaceId: string, records: VectorRecord[]): Promise<void> {
    checkName("namespace", workspaceId);
    for (const record of records) checkName("vector id", record.id);
    const written: Written[] = [];
    for (let start = 0; start < records.length; start += MAX_BATCH) {
      const batch = records.slice(start, start + MAX_BATCH).map((record) => ({
        id: record.id,
        values: record.values,
        namespace: workspaceId,
        metadata: { video_id: record.metadata.video_id },
      }));
      const { mutationId } = await this.binding.upsert(batch);
      const probe = batch[0];
      if (probe) written.push({ mutationId, id: probe.id, values: Array.from(probe.values) });
    }
    await this.visible(written);
  }

  async query(
    workspaceId: string,
    vector: Float32Array,
    options: VectorQuery,
  ): Promise<VectorMatch[]> {
    checkName("namespace", workspaceId);
    const { topK, videoIds } = options;
    if (!Number.isInteger(topK) || topK < 1 || topK > MAX_TOP_K) {
      throw new RangeError(`topK must be an integer from 1 to ${MAX_TOP_K}`);
    }
    if (videoIds?.length === 0) return [];
    const filters = videoIds === undefined ? [undefined] : videoFilters(videoIds);
    const answers = await Promise.all(
      filters.map((filter) =>
        this.binding.query(vector, {
          topK,
          namespace: workspaceId,
          // "indexed" metadata is free and keeps the 100 limit ("all" would cap topK at 20).
          returnMetadata: "indexed",
          ...(filter === undefined ? {} : { filter }),
        }),
      ),
    );
    const matches = answers
      .flatMap((answer) => answer.matches)
      .sort((a, b) => b.score - a.score)
      .slice(0, topK);
    return this.withVideoIds(matches);
  }

  async delete(workspaceId: string, ids: string[]): Promise<void> {
    checkName("namespace", workspaceId);
    // Segment ids are unique across workspaces, so deleting by id cannot reach another one.
    const written: Written[] = [];
    for (let start = 0; start < ids.length; start += MAX_BATCH) {
      const batch = ids.slice(start, start + MAX_BATCH);
      const { mutationId } = await this.binding.deleteByIds(batch);
      const probe = batch[0];
      if (probe !== undefined) written.push({ mutationId, id: probe, values: null });
    }
    await this.visible(written);
  }

  /**
   * Polls until every mutation of ours has been applied. All workspaces share the index and
   * Vectorize applies writes in batches, so `processedUpToMutation` may already name a later
   * writer's mutation: it only settles the wait when it names our last one. Otherwise each
   * mutation (applied whole) is checked by reading back one of its ids with `getByIds`: present
   * with our values after an upsert, absent after a delete.
   */
  private async visible(written: Written[]): Promise<void> {
    const last = written.at(-1);
    if (last === undefined) return;
    const started = this.now();
    let pause = this.pollMs;
    let waiting = written;
    for (;;) {
      const info = await this.binding.describe();
      // Typed as a number, but it is the UUID string that `upsert` returned.
      if (String(info.processedUpToMutation) === last.mutationId) return;
      const found = await this.binding.getByIds(waiting.map((w) => w.id));
      const byId = new Map(found.map((v) => [v.id, Array.from(v.values)]));
      waiting = waiting.filter((w) => !applied(w, byId.get(w.id)));
      if (waiting.length === 0) return;
      const waited = this.now() - started;
      if (waited >= this.timeoutMs) {
        throw new VectorizeNotVisibleError(waiting[0]?.mutationId ?? last.mutationId, waited);
      }
      await this.sleep(Math.min(pause, this.timeoutMs - waited));
      pause = Math.min(pause * 2, this.maxPollMs);
    }
  }

  /** Maps matches to the port's shape; vectors whose metadata did not come back are fetched. */
  private async withVideoIds(matches: VectorizeMatch[]): Promise<VectorMatch[]> {
    const missing = matches.filter((match) => typeof match.metadata?.video_id !== "string");
    const fetched = new Map<string, string>();
    if (missing.length > 0) {
      for (const vector of await this.binding.getByIds(missing.map((match) => match.id))) {
        const videoId = vector.metadata?.video_id;
        if (typeof videoId === "string") fetched.set(vector.id, videoId);
      }
    }
    return matches.map((match) => {
      const videoId = match.metadata?.video_id;
      const resolved = typeof videoId === "string" ? videoId : fetched.get(match.id);
      if (resolved === undefined) throw new Error(`Vectorize vector ${match.id} has no video_id`);
      return { id: match.id, score: match.score, metadata: { video_id: resolved } };
    });
  }
}

function checkName(what: string, name: string): void {
  const bytes = encoder.encode(name).length;
  if (bytes === 0 || bytes > MAX_NAME_BYTES) {
    throw new RangeError(`${what} must be 1 to ${MAX_NAME_BYTES} bytes: ${name}`);
  }
}

/** `$eq` for one video, else `$in` lists split so each filter stays under 2 KB of JSON. */
function videoFilters(videoIds: string[]): VectorizeVectorMetadataFilter[] {
  const filter = (ids: string[]): VectorizeVectorMetadataFilter =>
    ids.length === 1 ? { video_id: { $eq: ids[0] ?? "" } } : { video_id: { $in: ids } };
  const size = (ids: string[]) => encoder.encode(JSON.stringify(filter(ids))).length;
  const groups: string[][] = [];
  let current: string[] = [];
  for (const videoId of new Set(videoIds)) {
    if (current.length > 0 && size([...current, videoId]) >= MAX_FILTER_BYTES) {
      groups.push(current);
      current = [];
    }
    current.push(videoId);
  }
  if (current.length > 0) groups.push(current);
  return groups.map(filter);
}
