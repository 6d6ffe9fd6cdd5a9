import { type OpenAPIHono, z } from "@hono/zod-openapi";
import type { HonoEnv } from "../../middleware/hono-env";
import { pageSchema } from "../../schemas/page";
import { searchSegments } from "../../services/search";
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
      description: "Minimum score, 0-1 (see the score's meaning in the result)",
      example: 0.7,
    }),
    cursor: z
      .string()
      .min(1)
      .optional()
      .openapi({ description: "next_cursor of the previous page, with the same body otherwise" }),
  })
  .openapi("SearchRequest");

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
      "Ranks segments of the workspace's completed videos by how well they match the query, combining meaning (vector similarity) with the query's words and exact phrases, and returns those scoring at least `threshold`.",
    request: {
      body: { required: true, content: { "application/json": { schema: SearchBodySchema } } },
    },
    responses: {
      200: {
        description: "Matches ranked by score",
        content: {
          "application/json": { schema: pageSchema(SearchResultSchema, "SearchResultPage") },
        },
      },
    },
  },
);

/** POST /search */
export function registerSearch(app: OpenAPIHono<HonoEnv>) {
  app.openapi(route, async (c) => {
    const body = c.req.valid("json");
    const { page, timings } = await searchSegments(c.var.deps, {
      query: body.query,
      videoIds: body.video_ids === undefined ? undefined : [...new Set(body.video_ids)],
      limit: body.limit,
      threshold: body.threshold,
      cursor: body.cursor,
      workspaceId: c.var.auth.workspaceId,
      origin: new URL(c.req.url).origin,
    });
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
