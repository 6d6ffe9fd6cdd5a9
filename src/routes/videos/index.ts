import type { OpenAPIHono } from "@hono/zod-openapi";
import type { HonoEnv } from "../../middleware/hono-env";
import { registerDeleteVideo } from "./delete-video";
import { registerGetVideo } from "./get-video";
import { registerListVideos } from "./list-videos";

/** Registers the video routes. */
export function registerVideoRoutes(app: OpenAPIHono<HonoEnv>) {
  registerListVideos(app);
  registerGetVideo(app);
  registerDeleteVideo(app);
}
