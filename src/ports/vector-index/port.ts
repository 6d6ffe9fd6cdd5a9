/** What is stored with each vector (and filterable by `video_id`). */
export interface VectorMetadata {
  video_id: string;
}

/** One vector to store; `id` is the segment id (stable, at most 64 bytes). */
export interface VectorRecord {
  id: string;
  values: Float32Array;
  metadata: VectorMetadata;
}

/** One nearest neighbour: cosine similarity in [-1, 1], highest first. */
export interface VectorMatch {
  id: string;
  score: number;
  metadata: VectorMetadata;
}

/** Options of a nearest-neighbour query. */
export interface VectorQuery {
  /** How many matches, at most 100. */
  topK: number;
  /** Only vectors of these videos (absent: all of the workspace). */
  videoIds?: string[];
}

/**
 * Per-workspace vector storage for search: Vectorize (one namespace per workspace) in
 * production, an embedded index locally. Workspaces never see each other's vectors.
 */
export interface VectorIndex {
  /** Inserts or replaces vectors; resolves once they are visible to `query`. */
  upsert(workspaceId: string, records: VectorRecord[]): Promise<void>;
  /** Nearest neighbours by cosine similarity, highest first. */
  query(workspaceId: string, vector: Float32Array, options: VectorQuery): Promise<VectorMatch[]>;
  /** Deletes vectors by id (the segments of a deleted video). */
  delete(workspaceId: string, ids: string[]): Promise<void>;
}
