import path from "node:path";
import { describe, expect, it } from "vitest";
import { layeringBreaches, readWorkerSources } from "./layering";

const ROOT = path.resolve(import.meta.dirname, "../..");

describe("the layering of the Worker's sources", () => {
  it("has no import from a layer above and no file outside the layers", () => {
    expect(layeringBreaches(readWorkerSources(ROOT))).toEqual([]);
  });

  it("catches upward imports of every form, and only those", () => {
    const sources = new Map([
      ["src/domain/video.ts", 'import type { X } from "./evidence";\nimport { z } from "zod";'],
      ["src/domain/evidence.ts", 'import type { Env } from "../env";'],
      ["src/env.ts", 'import type { RunCoordinator } from "./durable-objects/run";'],
      ["src/durable-objects/run.ts", 'import { database } from "../db/client";'],
      ["src/db/client.ts", 'import type {\n  Ports,\n} from "../ports";'],
      ["src/ports/index.ts", 'export { signingSecret } from "../services/secrets";'],
      ["src/services/secrets.ts", 'const m = await import("../routes/x");'],
      ["src/routes/x.ts", 'import { m } from "../queues/messages";\nimport { a } from "../app";'],
      ["src/queues/messages.ts", 'import { v } from "../db/client";'],
      ["src/queues/analysis.ts", 'import { present } from "../routes/runs/schemas";'],
      ["src/ports/storage/r2.ts", 'import { videos } from "../../db/repos/videos";'],
      ["src/media/probe.ts", 'import { fake } from "../../simulators/media";'],
      ["src/lib/log.ts", 'import { row } from "../../bench/report";'],
      ["src/lib/clock.ts", 'import { ROOT } from "../../scripts/lib/local.mjs";'],
      ["simulators/worker.ts", 'import worker from "../src/index";'],
      ["simulators/routes.ts", 'import { r } from "../src/routes/x";'],
      ["src/app.ts", 'import { register } from "./routes/runs";'],
      ["src/stray.ts", 'import { v } from "./nowhere";'],
    ]);
    expect(layeringBreaches(sources)).toEqual([
      "src/domain/video.ts imports the package zod",
      "src/domain/evidence.ts imports src/env.ts from outside the domain",
      "src/env.ts imports src/durable-objects/run.ts from a layer above",
      "src/db/client.ts imports src/ports/index.ts from a layer above",
      "src/ports/index.ts imports src/services/secrets.ts from a layer above",
      "src/services/secrets.ts imports src/routes/x.ts from a layer above",
      "src/routes/x.ts imports src/app.ts from a layer above",
      "src/queues/analysis.ts imports src/routes/runs/schemas.ts from the routes",
      "src/ports/storage/r2.ts imports src/db/repos/videos.ts: ports never reach the database",
      "src/media/probe.ts imports simulators/media.ts from a layer above",
      "src/lib/log.ts imports bench/report.ts: the Worker never imports the bench or the scripts",
      "src/lib/clock.ts imports scripts/lib/local.mjs: the Worker never imports the bench or the scripts",
      "simulators/routes.ts imports src/routes/x.ts from the routes",
      "src/stray.ts belongs to no layer",
      "src/stray.ts imports src/nowhere.ts, which belongs to no layer",
    ]);
  });
});
