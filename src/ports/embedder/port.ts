/** Whether a text is indexed content or a search query (some models embed them differently). */
export type EmbeddingKind = "document" | "query";

/** Turns text into vectors; one adapter per deployment (Workers AI, or the local hashed embedder). */
export interface Embedder {
  /** Model identity, recorded with the vectors, e.g. `@cf/baai/bge-m3` or `local-hash@1`. */
  readonly model: string;
  /** Length of every vector it returns. */
  readonly dimensions: number;
  /**
   * Lets the embedder learn corpus statistics (IDF) from a workspace's documents before they
   * are embedded. `key` identifies the contribution (a video id): learning the same key again
   * replaces it, so redelivered queue messages do not count twice. No-op for pretrained models.
   */
  learn(workspaceId: string, key: string, documents: string[]): Promise<void>;
  /** Forgets a contribution made by `learn` (the video was deleted). */
  forget(workspaceId: string, key: string): Promise<void>;
  /** Embeds texts, in order; vectors are L2-normalised. */
  embed(workspaceId: string, texts: string[], kind: EmbeddingKind): Promise<Float32Array[]>;
  /**
   * The model calls `embed` makes for these texts when it succeeds (usage counts them under
   * `model`); embedders that call no model leave it out.
   */
  modelCalls?(texts: readonly string[]): number;
}
