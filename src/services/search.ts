import { candidateSegments, existingVideoIds, type SegmentWithVideo } from "../db/repos/search";
import { notFound } from "../errors/api-error";
import { sha256Hex } from "../lib/crypto";
import { decodeCursor, encodeCursor } from "../lib/cursor";
import type { Page } from "../lib/pagination";
import { keywordLevels, parseQuery } from "../lib/text/search-scoring";
import type { Deps } from "./deps";
import { EvidenceLinker } from "./evidence-urls";
import { explainEmptySearch, type SearchExplanation } from "./search-explain";
import type { SearchMatch } from "./search-matches";
import { rankCandidates, type Scored } from "./search-rank";

/** Candidates taken from each retriever before fusion. */
const CANDIDATES = 100;

/** A search as the route validated it. */
export interface SearchRequest {
  query: string;
  videoIds: string[] | undefined;
  limit: number;
  threshold: number;
  cursor: string | undefined;
  workspaceId: string;
  /** The API's origin, which signed media URLs point at. */
  origin: string;
}

/**
 * A page of matches, where the time went (milliseconds per stage, for Server-Timing) and the
 * texts the embedder was asked to embed (for usage).
 */
export interface SearchOutcome {
  page: Page<SearchResult> & { explanation?: SearchExplanation };
  timings: Record<string, number>;
  embedded: string[];
}

/** One ranked match (the spec's Search result section). */
export interface SearchResult {
  id: string;
  video_id: string;
  title: string;
  score: number;
  scene_description: string;
  tags: string[];
  time_position: number;
  /** The text that matched, one shown text per line. */
  text: string;
  /** The texts that matched, each with its kind, source and times. */
  matches: SearchMatch[];
  image?: string;
  video_url?: string;
}

function title(hit: SegmentWithVideo): string {
  return hit.video.title ? hit.video.title : hit.video.filename;
}

async function scopeOf(workspaceId: string, request: SearchRequest): Promise<string> {
  const videos = request.videoIds === undefined ? "*" : [...request.videoIds].sort().join(",");
  return `search|${workspaceId}|${await sha256Hex(request.query)}|${videos}|${request.threshold}`;
}

/**
 * Hybrid search over a workspace's completed videos: nearest segment vectors and full-text
 * keyword hits are merged, each scored by calibrated vector similarity fused with how many
 * of the query's words (or its exact phrase) the segment holds, then cut at the threshold.
 */
export async function searchSegments(
  deps: Pick<Deps, "db" | "ports" | "secrets">,
  request: SearchRequest,
): Promise<SearchOutcome> {
  const { db, ports } = deps;
  const { workspaceId, origin } = request;
  const timings: Record<string, number> = {};
  let mark = performance.now();
  const lap = (name: string) => {
    const now = performance.now();
    timings[name] = now - mark;
    mark = now;
  };
  const secret = deps.secrets.signing();
  const scope = await scopeOf(workspaceId, request);
  const offset =
    request.cursor === undefined
      ? 0
      : Number((await decodeCursor(secret, scope, request.cursor))[0]);
  if (request.videoIds !== undefined) {
    const found = await existingVideoIds(db, workspaceId, request.videoIds);
    const missing = request.videoIds.find((id) => !found.has(id));
    if (missing !== undefined) throw notFound("Video", missing);
    // An empty filter selects no video, so nothing can match.
    if (request.videoIds.length === 0) {
      const explanation = await explainEmptySearch(deps, request, null);
      const page = { data: [], has_more: false, next_cursor: null, explanation };
      return { page, timings, embedded: [] };
    }
  }

  lap("check");
  const options =
    request.videoIds === undefined
      ? { topK: CANDIDATES }
      : { topK: CANDIDATES, videoIds: request.videoIds };
  // The query is embedded and the index searched first; then one statement finds the
  // keyword hits and reads every candidate's row, the index's matches included. One
  // statement after the index, not two beside it: a statement's fixed cost is more than
  // the full-text search it holds (docs/decisions.md, "One statement after the index").
  const [queryVector] = await ports.embedder.embed(workspaceId, [request.query], "query");
  lap("embed");
  const matches = queryVector
    ? await ports.vectorIndex.query(workspaceId, queryVector, options)
    : [];
  lap("vector");
  const keyword = {
    levels: keywordLevels(request.query),
    videoIds: request.videoIds,
    limit: CANDIDATES,
  };
  const candidates = await candidateSegments(
    db,
    workspaceId,
    keyword,
    matches.map((match) => match.id),
  );
  lap("candidates");
  const cosines = new Map(matches.map((match) => [match.id, match.score]));
  const scored = rankCandidates(parseQuery(request.query), candidates, (id) => {
    const cosine = cosines.get(id);
    return cosine === undefined ? undefined : { model: ports.embedder.model, cosine };
  });
  const ranked: Scored[] = scored.filter((entry) => entry.score >= request.threshold);

  lap("rank");
  const page = ranked.slice(offset, offset + request.limit);
  const linker = new EvidenceLinker(ports, origin);
  const data = await Promise.all(
    page.map(async ({ hit, score, shown, position }): Promise<SearchResult> => {
      const result: SearchResult = {
        id: hit.segment.id,
        video_id: hit.video.id,
        title: title(hit),
        score,
        scene_description: hit.segment.sceneDescription,
        tags: hit.segment.tags,
        time_position: position,
        text: shown.map((match) => match.text).join("\n"),
        matches: shown,
      };
      const thumbnail = hit.video.thumbnailKey;
      if (thumbnail) result.image = await linker.signedUrl(thumbnail);
      result.video_url = `${await linker.sourceUrl(hit.video.id)}#t=${position}`;
      return result;
    }),
  );
  lap("urls");
  const hasMore = offset + request.limit < ranked.length;
  const next = hasMore ? await encodeCursor(secret, scope, [offset + request.limit]) : null;
  if (data.length === 0 && offset === 0) {
    // A score of 0 is a vector neighbour with nothing in common: not a match to report.
    const top = scored[0]?.score ?? 0;
    const best = top > 0 ? top : null;
    const explanation = await explainEmptySearch(deps, request, best);
    lap("explain");
    const empty = { data, has_more: false, next_cursor: null, explanation };
    return { page: empty, timings, embedded: [request.query] };
  }
  return {
    page: { data, has_more: hasMore, next_cursor: next },
    timings,
    embedded: [request.query],
  };
}
