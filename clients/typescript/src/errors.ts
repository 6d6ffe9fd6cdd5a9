import type { components } from "./generated/openapi.js";

export type Problem = components["schemas"]["Problem"];
export type AsyncError = components["schemas"]["AsyncError"];

/** Conditions the client itself detects; the service's own codes come from the document. */
export type ClientProblemCode =
  | "timeout"
  | "network-error"
  | "storage-error"
  | "run-canceled"
  | "invalid-signature";

/**
 * The problem document the service answered, or one the client made in the same shape for a
 * failed video or run (the resource's `error`), a timeout, a network or storage failure.
 */
export type ProblemDocument = Omit<Problem, "code"> & {
  code: Problem["code"] | AsyncError["code"] | ClientProblemCode;
  next_action?: string;
};

/**
 * - `http`: the API answered a problem (status is the HTTP status).
 * - `failed`: a waited-for video or run ended failed or canceled (`resource` holds it).
 * - `timeout`: a wait ran out of time (`resource` holds the last state seen).
 * - `network`: the request never got an answer; `storage`: a presigned PUT was refused.
 * - `signature`: a webhook did not verify.
 */
export type VasErrorKind = "http" | "failed" | "timeout" | "network" | "storage" | "signature";

/** The one error class of the client: every failure carries a problem document. */
export class VasError extends Error {
  override readonly name = "VasError";
  /**
   * The id of the request the service answered (`X-Request-Id`, also the problem's
   * `request_id`); null when no answer came from the service. Name it when reporting a problem.
   */
  readonly requestId: string | null;

  constructor(
    readonly kind: VasErrorKind,
    readonly problem: ProblemDocument,
    readonly resource?: unknown,
    options?: { cause?: unknown; requestId?: string | null },
  ) {
    const { requestId, ...errorOptions } = options ?? {};
    super(problem.detail || problem.title, errorOptions);
    this.requestId = problem.request_id ?? requestId ?? null;
  }

  get status(): number {
    return this.problem.status;
  }

  get code(): ProblemDocument["code"] {
    return this.problem.code;
  }

  /** The fields a 400 names, in order. */
  get fields(): string[] {
    return (this.problem.errors ?? []).map((error) => error.path);
  }
}

function isProblem(value: unknown): value is Problem {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { title?: unknown }).title === "string" &&
    typeof (value as { code?: unknown }).code === "string"
  );
}

/** A VasError for an answer that is not a success, whatever its body held. */
export function httpError(response: Response, body: unknown): VasError {
  const options = { requestId: response.headers.get("x-request-id") };
  if (isProblem(body))
    return new VasError("http", { ...body, status: response.status }, undefined, options);
  return new VasError(
    "http",
    {
      type: "about:blank",
      title: response.statusText || `HTTP ${response.status}`,
      status: response.status,
      detail: `${response.url} answered ${response.status} without a problem document.`,
      code: response.status >= 500 ? "internal-error" : "invalid-request",
    },
    undefined,
    options,
  );
}

/** A VasError for a request that got no answer at all. */
export function networkError(url: string, cause: unknown): VasError {
  return new VasError(
    "network",
    {
      type: "about:blank",
      title: "No answer",
      status: 0,
      detail: `${url} did not answer: ${cause instanceof Error ? cause.message : String(cause)}`,
      code: "network-error",
    },
    undefined,
    { cause },
  );
}

/** A VasError for a video or run that ended in `error` (its AsyncError). */
export function failedError(what: string, error: AsyncError | undefined, resource: unknown) {
  return new VasError(
    "failed",
    {
      type: `/problems/${error?.code ?? "failed"}`,
      title: error?.title ?? `${what} failed`,
      status: 0,
      detail: error?.detail ?? `${what} failed without an error description.`,
      code: error?.code ?? "internal-error",
      ...(error?.next_action ? { next_action: error.next_action } : {}),
    },
    resource,
  );
}
