import { type OpenAPIHono, z } from "@hono/zod-openapi";
import type { HonoEnv } from "../../middleware/hono-env";
import { pageSchema } from "../../schemas/page";
import { searchSegments } from "../../services/search";
import { countSearch } from "../../services/usage/count";
import { alphaRoute } from "../define";

const SearchBodySchema = z
  .strictObject({
    query: z.string().trim().min(1).max(1000).openapi({
      description:
        'Natural language; put words in double quotes to require them as written, e.g. "loading dock"',
      example: "who must wear high visibility vests",
    }),
    video_ids: z
      .array(z.string().max(1000))
      .max(100)
      .optional()
      .openapi({
        description:
          "Only these videos (at most 100); if any is not visible to the workspace the request " +
          "answers 404. An empty array selects no video and answers an empty page.",
      }),
    limit: z
      .number()
      .int()
      .min(1)
      .max(100)
      .default(25)
      .openapi({ description: "Results per page, 1-100", example: 25 }),
    threshold: z.number().min(0).max(1).default(0.7).openapi({
      description:
        "Minimum score, 0-1, default 0.7: moments scoring less are left out. 0.7 keeps moments holding the query as written (0.97), all its words (0.85), or most of them with a close meaning; lower it (e.g. 0.3) to see moments holding only some of the words. An empty answer's `explanation.best_score` says what the best moment scored.",
      example: 0.7,
    }),
    cursor: z
      .string()
      .min(1)
      .optional()
      .openapi({ description: "next_cursor of the previous page, with the same body otherwise" }),
  })
  .openapi("SearchRequest");

const MatchSchema = z
  .object({
    kind: z.enum(["transcript", "scene", "ocr", "metadata", "tags"]).openapi({
      description:
        "transcript (a caption cue or recognised speech), scene or ocr (a described frame), metadata (a container tag), tags",
    }),
    source: z.string().openapi({
      description:
        "Where the text comes from: `text-track:<index>[:<language>]`, `captions-uploaded:<language>`, `whisper[:<language>]`, …",
      example: "text-track:0:eng",
    }),
    text: z.string().openapi({ example: "Forklift operators must wear high visibility vests." }),
    start: z.number().openapi({ description: "Seconds from the start", example: 5 }),
    end: z.number().openapi({ description: "Seconds from the start", example: 8.5 }),
  })
  .openapi("SearchMatch");

const ExplanationSchema = z
  .object({
    reason: z.enum(["no_videos", "nothing_understood", "no_match", "below_threshold"]).openapi({
      description:
        "no_videos: no completed video to search; nothing_understood: nothing was heard or seen in the videos searched; no_match: no moment holds a word of the query or comes near its meaning; below_threshold: moments matched but scored below `threshold`",
      example: "below_threshold",
    }),
    detail: z.string().openapi({
      description: "The reason in plain words, with what to do",
      example:
        "No moment scored at least the threshold 0.7; the best scored 0.3778. Lower threshold to see weaker matches …",
    }),
    threshold: z.number().openapi({ description: "The threshold used", example: 0.7 }),
    best_score: z.number().nullable().openapi({
      description: "The best score any moment reached; null when none matched at all",
      example: 0.3778,
    }),
    videos_searched: z
      .number()
      .int()
      .openapi({ description: "Completed videos searched (counted up to 10,000)", example: 3 }),
    videos_without_understanding: z.number().int().openapi({
      description:
        "Of them, those in which nothing was heard or seen (see `media.understood` on the video)",
      example: 1,
    }),
  })
  .openapi("SearchExplanation", {
    description: "Why a search answered no result; present only on an empty first page",
  });

const SearchResultSchema = z
  .object({
    id: z.string().openapi({
      description: "Stable id of the matching segment",
      example: "seg_01jd3m6t8y0c7x4k2n9q5r1s3v_00001",
    }),
    video_id: z.string().openapi({ example: "vid_01jd3m6t8y0c7x4k2n9q5r1s3v" }),
    title: z.string().openapi({
      description: "The video's title, or its filename",
      example: "Warehouse safety briefing",
    }),
    score: z.number().min(0).max(1).openapi({
      description:
        "0-1, the same scale for every deployment: 0.97 the query's words as written; 0.85 all its words; meaning-only matches up to 0.9 by calibrated vector similarity; both combine.",
      example: 0.97,
    }),
    scene_description: z.string(),
    tags: z.array(z.string()),
    time_position: z.number().openapi({
      description: "Seconds from the start: where the matching span begins, inside the segment",
      example: 5,
    }),
    text: z.string().openapi({
      description:
        "The text that matched, one shown text per line: the cues, on-screen text, container tags or tags holding the query's words (for a match by meaning alone, what was said). A quoted phrase is always inside one of these lines.",
      example: "Forklift operators must wear high visibility vests.",
    }),
    matches: z.array(MatchSchema).openapi({
      description:
        "The texts that matched, in time order, each with its kind, source and times; a match whose words are spread over this moment and the next lists texts of both",
    }),
    image: z
      .string()
      .optional()
      .openapi({ description: "Signed thumbnail URL (valid at least 1 hour)" }),
    video_url: z.string().optional().openapi({
      description: "Signed video URL (valid at least 1 hour) that plays from time_position (#t=)",
    }),
  })
  .openapi("SearchResult");

const route = alphaRoute(
  { permission: "SEARCH_CONTENT" },
  {
    method: "post",
    operationId: "searchVideos",
    path: "/search",
    tags: ["Search"],
    summary: "Search videos in plain language",
    description:
      "Ranks segments of the workspace's completed videos by how well they match the query, combining meaning (vector similarity) with the query's words and exact phrases, and returns those scoring at least `threshold`. An empty first page carries `explanation`: why nothing came back (no video, nothing understood in the videos, no match, or the best score below the threshold).",
    request: {
      body: { required: true, content: { "application/json": { schema: SearchBodySchema } } },
    },
    responses: {
      200: {
        description: "Matches ranked by score",
        content: {
          "application/json": {
            schema: pageSchema(SearchResultSchema, "SearchResultPage", {
              explanation: ExplanationSchema.optional(),
            }),
          },
        },
      },
    },
  },
);

/** POST /search */
export function registerSearch(app: OpenAPIHono<HonoEnv>) {
  app.openapi(route, async (c) => {
    const body = c.req.valid("json");
    const { page, timings, embedded } = await searchSegments(c.var.deps, {
      query: body.query,
      videoIds: body.video_ids === undefined ? undefined : [...new Set(body.video_ids)],
      limit: body.limit,
      threshold: body.threshold,
      cursor: body.cursor,
      workspaceId: c.var.auth.workspaceId,
      origin: new URL(c.req.url).origin,
    });
    await countSearch(c.var.deps, c.var.auth.workspaceId, embedded);
    // Where the time went, for clients' and operators' tools (Server-Timing).
    c.header(
      "Server-Timing",
      Object.entries(timings)
        .map(([name, ms]) => `${name};dur=${ms.toFixed(1)}`)
        .join(", "),
    );
    return c.json(page, 200);
  });
}
