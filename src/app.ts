import { OpenAPIHono } from "@hono/zod-openapi";
import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { API_PREFIX } from "./api-prefix";
import { CSV_IMPORT_LIMITS } from "./domain/rulebooks";
import { ApiError, type FieldError } from "./errors/api-error";
import { ERROR_CODES, type ErrorCode } from "./errors/codes";
import { problemFromError, problemResponse } from "./errors/problem";
import { MAX_REQUEST_ID_LENGTH, REQUEST_ID_HEADER, REQUEST_ID_PATTERN } from "./lib/request-id";
import { authenticate } from "./middleware/authenticate";
import { limitBody } from "./middleware/body-limit";
import { emptyJsonBody } from "./middleware/empty-json-body";
import type { HonoEnv } from "./middleware/hono-env";
import { boundJsonDepth } from "./middleware/json-depth";
import { objectLimiter, rateLimit, type WorkspaceLimiter } from "./middleware/rate-limit";
import { requestId } from "./middleware/request-id";
import { strictInput } from "./middleware/strict-input";
import { rejectTenantFields } from "./middleware/tenant-params";
import type { Ports } from "./ports";
import { createAdminApp } from "./routes/admin";
import { registerDocsRoutes } from "./routes/docs";
import { registerFindingRoutes } from "./routes/findings";
import {
  withoutOptionalDiscriminators,
  withRequestDefaultsDescribed,
  withRequestIdHeaders,
} from "./routes/openapi-document";
import { registerPlaygroundRoutes } from "./routes/playground";
import { registerProblemRoutes } from "./routes/problems";
import { registerProfileRoutes } from "./routes/profiles";
import { registerRateLimitHeaders } from "./routes/rate-limit-headers";
import { registerReportTemplateRoutes } from "./routes/report-templates";
import { registerReportRoutes } from "./routes/reports";
import { registerRulebookRoutes } from "./routes/rulebooks";
import { CSV_PREVIEW_PATH } from "./routes/rulebooks/preview-csv-import";
import { registerRunRoutes } from "./routes/runs";
import { registerSearch } from "./routes/search/search";
import { registerUploadRoutes } from "./routes/uploads";
import { registerUsageRoutes } from "./routes/usage";
import { validationHook } from "./routes/validation-hook";
import { registerVideoRoutes } from "./routes/videos";
import { registerWebhookRoutes } from "./routes/webhooks";
import { registerWorkflowRoutes } from "./routes/workflows";
import { createDeps } from "./services/deps";
import { describeAbilities } from "./services/media/abilities";

/** JSON bodies beyond this answer 413. */
export const MAX_JSON_BODY_BYTES = 1024 * 1024;

function fromHttpException(error: HTTPException): ApiError {
  if (error.status === 413) return new ApiError("payload-too-large");
  if (error.status === 415) return new ApiError("unsupported-media-type");
  if (error.status === 400) {
    const errors: FieldError[] = [{ path: "body", message: "is not valid JSON" }];
    return new ApiError("invalid-request", "The request body is not valid JSON.", { errors });
  }
  const code = (Object.keys(ERROR_CODES) as ErrorCode[]).find(
    (c) => ERROR_CODES[c].status === error.status,
  );
  return new ApiError(code ?? "internal-error");
}

/** Options of createApp, fixed when the app is built. */
export interface AppOptions {
  /** The adapters behind every port, built once for the deployment. */
  ports: Ports;
  /** Registers further alpha routes after the built-in ones (used by tests). */
  extendAlpha?: (api: OpenAPIHono<HonoEnv>) => void;
  /** Counts each workspace's requests (default: its `WorkspaceRateLimiter` object). */
  rateLimiter?: WorkspaceLimiter;
}

/** The tags of the alpha surface, in reading order. */
const TAGS = [
  { name: "Videos", description: "Upload videos and follow their processing." },
  { name: "Search", description: "Find moments across videos in plain language." },
  { name: "Profiles", description: "Stored, versioned analysis instructions and answer specs." },
  { name: "Report templates", description: "Stored, versioned report layouts." },
  { name: "Runs", description: "Analyses of videos with a profile, and their answers." },
  { name: "Reports", description: "JSON and Markdown reports rendered from runs." },
  { name: "Rulebooks", description: "Versioned rule sets, written or imported from CSV." },
  {
    name: "Workflows",
    description: "A rulebook applied to chosen videos; each run of it makes findings.",
  },
  {
    name: "Findings",
    description: "What a workflow run found per rule and video, with evidence, for review.",
  },
  { name: "Webhooks", description: "Signed event deliveries to your endpoints, with retries." },
  {
    name: "Usage",
    description: "What a workspace used per day or month: storage, media, model calls.",
  },
];

/** The top matter of the alpha OpenAPI document; servers point at the origin serving it. */
function documentConfig(origin: string) {
  return {
    openapi: "3.1.0",
    info: {
      title: "Video Analysis Service API",
      version: "v1alpha1",
      description:
        "Upload videos, search them in plain language, run typed analyses and read evidence-backed answers and reports.",
    },
    servers: [{ url: `${origin}${API_PREFIX}` }],
    security: [{ bearerAuth: [] }],
    tags: TAGS,
  };
}

/** The alpha API: every route authenticated, validated and documented. */
function createAlphaApi(
  options: Pick<AppOptions, "extendAlpha" | "rateLimiter">,
): OpenAPIHono<HonoEnv> {
  const api = new OpenAPIHono<HonoEnv>({ defaultHook: validationHook });
  api.openAPIRegistry.registerComponent("securitySchemes", "bearerAuth", {
    type: "http",
    scheme: "bearer",
    description: "A Public API Alpha key: Authorization: Bearer vas_…",
  });
  registerRateLimitHeaders(api);
  // Served before authentication is installed: the document is public.
  api.get("/openapi.json", (c) => c.json(alphaDocumentOf(api, new URL(c.req.url).origin)));
  // Counted right after authentication, so every later refusal carries the RateLimit fields.
  api.use(
    "*",
    authenticate,
    rateLimit(options.rateLimiter ?? objectLimiter),
    emptyJsonBody,
    boundJsonDepth,
    rejectTenantFields,
    strictInput,
  );
  registerVideoRoutes(api);
  registerUploadRoutes(api);
  registerSearch(api);
  registerProfileRoutes(api);
  registerReportTemplateRoutes(api);
  registerRunRoutes(api);
  registerReportRoutes(api);
  registerRulebookRoutes(api);
  registerWorkflowRoutes(api);
  registerFindingRoutes(api);

  registerWebhookRoutes(api);
  registerUsageRoutes(api);
  options.extendAlpha?.(api);
  return api;
}

function alphaDocumentOf(api: OpenAPIHono<HonoEnv>, origin: string) {
  const document = api.getOpenAPI31Document(documentConfig(origin));
  return withRequestIdHeaders(
    withRequestDefaultsDescribed(withoutOptionalDiscriminators(document)),
    {
      pattern: REQUEST_ID_PATTERN.source,
      maxLength: MAX_REQUEST_ID_LENGTH,
    },
  );
}

/** The document GET /api/v1alpha1/openapi.json serves, built without a request or bindings. */
export function alphaOpenApiDocument(origin: string) {
  return alphaDocumentOf(createAlphaApi({}), origin);
}

function methodNotAllowed(app: Hono<HonoEnv>, method: string, path: string): string[] {
  const allowed = new Set<string>();
  for (const route of app.routes) {
    if (route.method === "ALL" || route.method === method) continue;
    const pattern = new RegExp(`^${route.path.replace(/:[^/]+/g, "[^/]+")}/?$`);
    if (pattern.test(path)) allowed.add(route.method);
  }
  return [...allowed];
}

/** Builds the whole Worker app: admin API, alpha API, docs and the error contract. */
export function createApp(options: AppOptions): Hono<HonoEnv> {
  const app = new Hono<HonoEnv>();
  app.use("*", requestId);
  app.use("*", async (c, next) => {
    c.set("ports", options.ports);
    c.set("deps", createDeps(c.env, options.ports, c.var.log));
    await next();
  });
  options.ports.storageGateway?.mount(app);
  const limit = limitBody(MAX_JSON_BODY_BYTES);
  // A CSV import preview carries a file of up to 5 MiB; every other body stays at 1 MiB.
  const csvLimit = limitBody(CSV_IMPORT_LIMITS.requestBytes);
  app.use("/api/*", (c, next) =>
    c.req.path === `${API_PREFIX}${CSV_PREVIEW_PATH}` ? csvLimit(c, next) : limit(c, next),
  );
  app.use("/admin/*", limit);

  app.get("/", (c) => c.redirect("/docs"));
  // What runs here: the adapters behind the ports, which platform services are simulated
  // locally (none when deployed), and what the media engine hears, sees and reads, so an
  // operator, the start banner and the smoke check can tell.
  const understanding = describeAbilities(options.ports.mediaAbilities);
  app.get("/healthz", (c) =>
    c.json({
      status: "ok",
      adapters: c.env.DEPLOYMENT,
      simulated: (c.env.SIMULATED ?? "").split(",").filter((name) => name !== ""),
      understanding,
    }),
  );
  registerDocsRoutes(app);
  registerPlaygroundRoutes(app);
  registerProblemRoutes(app);
  app.route("/admin/v1", createAdminApp());
  app.route(API_PREFIX, createAlphaApi(options));

  app.notFound((c) => {
    const allowed = methodNotAllowed(app, c.req.method, c.req.path);
    if (allowed.length > 0) {
      throw new ApiError(
        "method-not-allowed",
        `${c.req.method} is not allowed here; use ${allowed.join(", ")}.`,
        {
          headers: { Allow: allowed.join(", ") },
        },
      );
    }
    throw new ApiError("resource-not-found", `No route matches ${c.req.method} ${c.req.path}.`);
  });

  app.onError((error, c) => {
    let apiError: ApiError;
    if (error instanceof ApiError) apiError = error;
    else if (error instanceof HTTPException) apiError = fromHttpException(error);
    else {
      c.var.log.error({ error: error.stack ?? String(error) });
      apiError = new ApiError("internal-error", "Something went wrong on our side; retry later.");
    }
    const problem = problemFromError(apiError, {
      instance: c.req.path,
      requestId: c.var.requestId,
    });
    // Also here: an error thrown before the request-id middleware's `next` returns would
    // otherwise leave the problem without the header its body names.
    return problemResponse(problem, { ...apiError.headers, [REQUEST_ID_HEADER]: c.var.requestId });
  });
  return app;
}
