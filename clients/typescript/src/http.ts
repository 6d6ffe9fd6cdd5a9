import { type Clock, realClock } from "./clock.js";
import { httpError, networkError } from "./errors.js";
import { type RateLimitOptions, retryAfterMs } from "./rate-limit.js";

export const API_PREFIX = "/api/v1alpha1";

export type FetchLike = (request: Request) => Promise<Response>;

const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/**
 * `response` with a body that errors with `signal`'s reason once it aborts. Node's fetch can
 * leave a body read pending for good when the request's signal aborts while the body is
 * being read (seen here: an upload aborted halfway hung in the JSON of a part's receipt), so
 * the body is piped through a stream the signal always ends, read or not.
 */
export function bodyEndsOnAbort(response: Response, signal: AbortSignal): Response {
  if (!response.body || NULL_BODY_STATUSES.has(response.status)) return response;
  const body = response.body.pipeThrough(new TransformStream(), { signal });
  const wrapped = new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
  // A constructed Response has no URL; problems without a document name the one answered.
  Object.defineProperty(wrapped, "url", { value: response.url });
  return wrapped;
}

/**
 * The fetch for API calls: a POST or DELETE gets an Idempotency-Key unless it has one, which
 * makes a request lost with its connection (a stale keep-alive socket, a blip) safe to send
 * again; such a request is tried twice more. A 429 is waited out for its `Retry-After` and
 * sent again (3 times by default): the service counted nothing but the refusal.
 */
export function retryingFetch(
  fetchFn: FetchLike,
  options: RateLimitOptions & { clock?: Clock } = {},
): FetchLike {
  const clock = options.clock ?? realClock;
  const rateLimitRetries = options.rateLimitRetries ?? 3;
  const maxWaitMs = options.maxRateLimitWaitMs ?? 120_000;
  return async (request) => {
    // A retried DELETE /videos/{id} that already succeeded would answer 404 without the key.
    if (["POST", "DELETE"].includes(request.method) && !request.headers.has("idempotency-key"))
      request.headers.set("idempotency-key", crypto.randomUUID());
    let dropped = 0;
    let limited = 0;
    for (;;) {
      // Each attempt sends a copy: a body can be read once, and the next attempt needs it.
      let response: Response;
      try {
        response = await fetchFn(request.clone());
      } catch (error) {
        if (dropped >= 2 || request.signal.aborted || !(error instanceof TypeError)) throw error;
        dropped++;
        continue;
      }
      if (response.status === 429 && limited < rateLimitRetries) {
        const waitMs = retryAfterMs(response.headers.get("retry-after"), clock.now(), limited);
        if (waitMs <= maxWaitMs) {
          limited++;
          await response.body?.cancel();
          options.onRateLimited?.({
            method: request.method,
            url: request.url,
            waitMs,
            attempt: limited,
            rateLimit: response.headers.get("ratelimit"),
          });
          await clock.sleep(waitMs, request.signal);
          continue;
        }
      }
      return bodyEndsOnAbort(response, request.signal);
    }
  };
}

/** The API root for a base URL given with or without the version prefix. */
export function apiRoot(baseUrl: string): string {
  const trimmed = baseUrl.replace(/\/+$/, "");
  return trimmed.endsWith(API_PREFIX) ? trimmed : `${trimmed}${API_PREFIX}`;
}

interface Answered<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/**
 * The success body of an openapi-fetch call, or the VasError its problem describes. A call
 * made with `signal` that fails once it has aborted rejects with the signal's reason.
 */
export async function unwrap<T>(
  call: Promise<Answered<T>>,
  what: string,
  signal?: AbortSignal,
): Promise<T> {
  const answered = await answer(call, what, signal);
  if (answered.error !== undefined || answered.data === undefined)
    throw httpError(answered.response, answered.error);
  return answered.data;
}

/** Like `unwrap`, for an operation whose success is 204 with no body. */
export async function unwrapEmpty(call: Promise<Answered<unknown>>, what: string): Promise<void> {
  const answered = await answer(call, what);
  if (answered.error !== undefined || answered.response.status !== 204)
    throw httpError(answered.response, answered.error);
}

async function answer<T>(
  call: Promise<Answered<T>>,
  what: string,
  signal?: AbortSignal,
): Promise<Answered<T>> {
  try {
    return await call;
  } catch (error) {
    if (signal?.aborted) throw signal.reason ?? error;
    if (error instanceof DOMException && error.name === "AbortError") throw error;
    throw networkError(what, error);
  }
}
