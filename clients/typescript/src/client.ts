import createClient, { type Client } from "openapi-fetch";
import { type CaptionFormat, getCaptions, listCaptions, putCaptions } from "./captions.js";
import type { Clock } from "./clock.js";
import { failedError, VasError } from "./errors.js";
import type { paths } from "./generated/openapi.js";
import { apiRoot, type FetchLike, retryingFetch, unwrap, unwrapEmpty } from "./http.js";
import { paginate } from "./paginate.js";
import type { RateLimitOptions } from "./rate-limit.js";
import type { CreateRunRequest, QueryOf, Run, SearchRequest, Video } from "./types.js";
import { type UploadOptions, uploadFile } from "./upload.js";
import { pollUntil, type WaitOptions } from "./wait.js";

export interface VasClientOptions extends RateLimitOptions {
  /** The service's origin (`http://127.0.0.1:8787`) or its API root (…`/api/v1alpha1`). */
  baseUrl: string;
  /** A `vas_…` API key; sent as a bearer token, never logged. */
  apiKey: string;
  /** A fetch to use instead of the global one (tests, proxies). */
  fetch?: FetchLike;
  /** Time for the waits after a 429 (tests pass a fake one). */
  clock?: Clock;
}

/**
 * The typed API client: `api` is the openapi-fetch client over every operation of the
 * document; the methods below unwrap answers into data or throw a VasError.
 */
export class VasClient {
  readonly api: Client<paths>;
  /** The fetch used for presigned storage PUTs, which carry no API key. */
  readonly rawFetch: FetchLike;
  readonly root: string;

  constructor(options: VasClientOptions) {
    this.root = apiRoot(options.baseUrl);
    this.rawFetch = options.fetch ?? ((request) => fetch(request));
    this.api = createClient<paths>({
      baseUrl: this.root,
      fetch: retryingFetch(this.rawFetch, options),
      headers: { authorization: `Bearer ${options.apiKey}` },
    });
  }

  listVideos(query: QueryOf<"listVideos"> = {}) {
    return unwrap(this.api.GET("/videos", { params: { query } }), "GET /videos");
  }

  /** Every video, newest first, across pages. */
  videos(query: Omit<QueryOf<"listVideos">, "cursor"> = {}) {
    return paginate((cursor) => this.listVideos({ ...query, ...(cursor ? { cursor } : {}) }));
  }

  getVideo(videoId: string, options: { signal?: AbortSignal } = {}) {
    return unwrap(
      this.api.GET("/videos/{video_id}", {
        params: { path: { video_id: videoId } },
        signal: options.signal,
      }),
      "GET /videos/{video_id}",
      options.signal,
    );
  }

  /**
   * Deletes a video: from the answer on no API path reads it; its bytes, rows and vectors are
   * erased in the background and `video.deleted` is sent once that is complete.
   */
  deleteVideo(videoId: string) {
    return unwrapEmpty(
      this.api.DELETE("/videos/{video_id}", { params: { path: { video_id: videoId } } }),
      "DELETE /videos/{video_id}",
    );
  }

  /** The languages heard in a video (uploaded captions, the file's own, recognised speech). */
  listCaptions(videoId: string) {
    return listCaptions(this.api, videoId);
  }

  /** What was heard in a language, as WebVTT (or SRT) text. */
  getCaptions(videoId: string, language: string, format?: CaptionFormat) {
    return getCaptions(this.api, videoId, language, format);
  }

  /** Uploads a WebVTT or SRT file for a completed video, which is then re-indexed with it. */
  putCaptions(videoId: string, language: string, file: string, format: CaptionFormat) {
    return putCaptions(this.api, videoId, language, file, format);
  }

  search(request: SearchRequest) {
    return unwrap(this.api.POST("/search", { body: request }), "POST /search");
  }

  /** Every result of a search across pages (the cursor goes in the body). */
  searchAll(request: Omit<SearchRequest, "cursor">) {
    return paginate((cursor) => this.search({ ...request, ...(cursor ? { cursor } : {}) }));
  }

  /**
   * The workspace's usage per day (or month) from `from` to `to` (UTC days, both included;
   * defaults: the last 30 days), with totals. Needs VIEW_USAGE.
   */
  usage(query: QueryOf<"getUsage"> = {}) {
    return unwrap(this.api.GET("/usage", { params: { query } }), "GET /usage");
  }

  listProfiles(query: QueryOf<"listProfiles"> = {}) {
    return unwrap(this.api.GET("/profiles", { params: { query } }), "GET /profiles");
  }

  profiles(query: Omit<QueryOf<"listProfiles">, "cursor"> = {}) {
    return paginate((cursor) => this.listProfiles({ ...query, ...(cursor ? { cursor } : {}) }));
  }

  createRun(request: CreateRunRequest, idempotencyKey?: string) {
    return unwrap(
      this.api.POST("/runs", {
        body: request,
        params: { header: idempotencyKey ? { "Idempotency-Key": idempotencyKey } : {} },
      }),
      "POST /runs",
    );
  }

  getRun(runId: string, options: { signal?: AbortSignal } = {}) {
    return unwrap(
      this.api.GET("/runs/{run_id}", {
        params: { path: { run_id: runId } },
        signal: options.signal,
      }),
      "GET /runs/{run_id}",
      options.signal,
    );
  }

  listRunAnswers(runId: string, query: QueryOf<"listRunAnswers"> = {}) {
    return unwrap(
      this.api.GET("/runs/{run_id}/answers", { params: { path: { run_id: runId }, query } }),
      "GET /runs/{run_id}/answers",
    );
  }

  listReports(query: QueryOf<"listReports">) {
    return unwrap(this.api.GET("/reports", { params: { query } }), "GET /reports");
  }

  reports(query: Omit<QueryOf<"listReports">, "cursor">) {
    return paginate((cursor) => this.listReports({ ...query, ...(cursor ? { cursor } : {}) }));
  }

  /** A report with its rendered content (`expand[]=content`). */
  getReport(reportId: string) {
    return unwrap(
      this.api.GET("/reports/{report_id}", {
        params: { path: { report_id: reportId }, query: { "expand[]": ["content"] } },
      }),
      "GET /reports/{report_id}",
    );
  }

  /** Uploads a Blob or File (see `uploadFile`); in Node, `@video-analysis/client/node` takes paths. */
  uploadFile(blob: Blob, options?: UploadOptions) {
    return uploadFile(this, blob, options);
  }

  /** Polls the video until `completed` (returned) or `failed` (a VasError of kind `failed`). */
  waitForVideo(videoId: string, options?: WaitOptions<Video>) {
    return pollUntil(
      `Video ${videoId}`,
      (signal) => this.getVideo(videoId, { signal }),
      (video) =>
        video.status === "completed"
          ? "done"
          : video.status === "failed"
            ? { failed: failedError(`Video ${videoId}`, video.error, video) }
            : "pending",
      options,
    );
  }

  /** Polls the run until `completed` (returned); `failed` and `canceled` throw kind `failed`. */
  waitForRun(runId: string, options?: WaitOptions<Run>) {
    return pollUntil(
      `Run ${runId}`,
      (signal) => this.getRun(runId, { signal }),
      (run) => {
        if (run.status === "completed") return "done";
        if (run.status === "failed")
          return {
            failed: failedError(
              `Run ${runId}`,
              run.analysis?.error ?? run.workflow?.error ?? undefined,
              run,
            ),
          };
        if (run.status === "canceled") return { failed: canceledError(run) };
        return "pending";
      },
      options,
    );
  }
}

function canceledError(run: Run): VasError {
  return new VasError(
    "failed",
    {
      type: "about:blank",
      title: "Run canceled",
      status: 0,
      detail: `Run ${run.id} was canceled.`,
      code: "run-canceled",
    },
    run,
  );
}
