import type { OpenAPIHono } from "@hono/zod-openapi";
import type { HonoEnv } from "../../middleware/hono-env";
import { pageSchema } from "../../schemas/page";
import { searchSegments } from "../../services/search/search";
import { countSearch } from "../../services/usage/count";
import { alphaRoute } from "../define";
import { ExplanationSchema, ScopeSchema, SearchBodySchema, SearchResultSchema } from "./schemas";

const route = alphaRoute(
  { permission: "SEARCH_CONTENT" },
  {
    method: "post",
    operationId: "searchVideos",
    path: "/search",
    tags: ["Search"],
    summary: "Search videos in plain language",
    description:
      "Ranks segments of the workspace's completed videos by how well they match the query, combining meaning (vector similarity) with the query's words and exact phrases, and returns those scoring at least `threshold`. A video none of whose moments made it is found by its filename's words too, at its start and below the same words inside a video (a filename is never evidence). The first page carries `scope`: how many videos were searched, how many were not (still uploading or processing, or failed) and in how many nothing was heard or seen, and which kinds of text this deployment reads. An empty first page also carries `explanation`: why nothing came back (no video, nothing understood in the videos, no match, or matches below the threshold, with the threshold that would show them).",
    request: {
      body: { required: true, content: { "application/json": { schema: SearchBodySchema } } },
    },
    responses: {
      200: {
        description: "Matches ranked by score",
        content: {
          "application/json": {
            schema: pageSchema(SearchResultSchema, "SearchResultPage", {
              scope: ScopeSchema.optional(),
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
