import type { OpenAPIHono } from "@hono/zod-openapi";
import type { HonoEnv } from "../../middleware/hono-env";
import { registerDeleteVideo } from "./delete-video";
import { registerGetCaptions } from "./get-captions";
import { registerGetVideo } from "./get-video";
import { registerListCaptions } from "./list-captions";
import { registerListVideos } from "./list-videos";
import { registerPutCaptions } from "./put-captions";

/** Registers the video routes. */
export function registerVideoRoutes(app: OpenAPIHono<HonoEnv>) {
  registerListVideos(app);
  registerGetVideo(app);
  registerDeleteVideo(app);
  registerListCaptions(app);
  registerGetCaptions(app);
  registerPutCaptions(app);
}
