import { existingVideoIds, type SegmentWithVideo, searchRows } from "../../db/repos/search";
import { type SearchScopeCounts, scopeCountsOf } from "../../db/repos/search-scope";
import { notFound } from "../../errors/api-error";
import { sha256Hex } from "../../lib/crypto";
import { decodeCursor, encodeCursor } from "../../lib/cursor";
import type { Page } from "../../lib/pagination";
import { keywordLevels, parseQuery } from "../../lib/text/search-scoring";
import type { Deps } from "../deps";
import { EvidenceLinker } from "../media/evidence-urls";
import { explainEmptySearch, type SearchExplanation, type WeakerMatches } from "./explain";
import { filenameExpression, rankFilenames, resultsAt } from "./filenames";
import type { SearchMatch } from "./matches";
import { isMatch, rankCandidates, type Scored } from "./rank";
import { describeScope, type SearchScope } from "./scope";

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
  page: Page<SearchResult> & { scope?: SearchScope; explanation?: SearchExplanation };
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

/** What a search ranks: its moments scored, its filename hits, and the videos it covered. */
interface Ranked {
  moments: Scored[];
  filenames: Scored[];
  counts: SearchScopeCounts | null;
}

/**
 * Embeds the query and searches the index, then reads in one D1 batch the candidates (keyword
 * hits and the index's matches), the filename hits and, on a first page, the counts; scores
 * the moments and the filenames.
 */
async function ranked(
  deps: Pick<Deps, "db" | "ports">,
  request: SearchRequest,
  first: boolean,
  lap: (name: string) => void,
): Promise<Ranked> {
  const { db, ports } = deps;
  const { workspaceId } = request;
  const query = parseQuery(request.query);
  // An empty filter selects no video: nothing matches, and no video is counted.
  if (request.videoIds?.length === 0)
    return { moments: [], filenames: [], counts: first ? scopeCountsOf([]) : null };
  const options =
    request.videoIds === undefined
      ? { topK: CANDIDATES }
      : { topK: CANDIDATES, videoIds: request.videoIds };
  // The query is embedded and the index searched first; then one batch finds the keyword
  // hits and reads every candidate's row, the index's matches included, beside the filename
  // hits and the counts. One round trip after the index, not several beside it: a
  // statement's fixed cost is more than the full-text search it holds
  // (docs/decisions/one-statement-after-the-index.md).
  const [queryVector] = await ports.embedder.embed(workspaceId, [request.query], "query");
  lap("embed");
  const matches = queryVector
    ? await ports.vectorIndex.query(workspaceId, queryVector, options)
    : [];
  lap("vector");
  const rows = await searchRows(db, workspaceId, {
    keyword: {
      levels: keywordLevels(request.query),
      videoIds: request.videoIds,
      limit: CANDIDATES,
    },
    vectorIds: matches.map((match) => match.id),
    filenames: filenameExpression(request.query),
    counts: first,
  });
  lap("candidates");
  const cosines = new Map(matches.map((match) => [match.id, match.score]));
  const moments = rankCandidates(query, rows.candidates, (id) => {
    const cosine = cosines.get(id);
    return cosine === undefined ? undefined : { model: ports.embedder.model, cosine };
  });
  return { moments, filenames: rankFilenames(query, rows.filenames), counts: rows.counts };
}

/** What a lower threshold would show, when anything but noise scored below `threshold`. */
function weakerMatches(
  moments: Scored[],
  filenames: Scored[],
  threshold: number,
): WeakerMatches | null {
  const below = [...moments, ...filenames].filter(
    (entry) => entry.score > 0 && entry.score < threshold && isMatch(entry),
  );
  if (below.length === 0) return null;
  const best = Math.max(...below.map((entry) => entry.score));
  const lower = Math.floor(best * 100) / 100;
  return { best, threshold: lower, count: resultsAt(moments, filenames, lower).length };
}

/**
 * Hybrid search over a workspace's completed videos: nearest segment vectors and full-text
 * keyword hits are merged, each scored by calibrated vector similarity fused with how many
 * of the query's words (or its exact phrase) the segment holds, then cut at the threshold.
 * Filenames holding the query's words add their videos, below the same words inside one. The
 * first page says what was searched (`scope`), and, when empty, why (`explanation`).
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
  }
  lap("check");

  const { moments, filenames, counts } = await ranked(deps, request, offset === 0, lap);
  const results = resultsAt(moments, filenames, request.threshold);

  lap("rank");
  const page = results.slice(offset, offset + request.limit);
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
  const hasMore = offset + request.limit < results.length;
  const next = hasMore ? await encodeCursor(secret, scope, [offset + request.limit]) : null;
  const answer: SearchOutcome["page"] = { data, has_more: hasMore, next_cursor: next };
  if (counts !== null) {
    answer.scope = describeScope(counts, ports.mediaAbilities);
    if (data.length === 0) {
      const weaker = weakerMatches(moments, filenames, request.threshold);
      answer.explanation = explainEmptySearch(
        counts,
        ports.mediaAbilities,
        request.threshold,
        weaker,
      );
    }
  }
  // An empty filter embeds nothing (`ranked`).
  const embedded = request.videoIds?.length === 0 ? [] : [request.query];
  return { page: answer, timings, embedded };
}
