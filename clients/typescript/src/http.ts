import { httpError, networkError } from "./errors.js";

export const API_PREFIX = "/api/v1alpha1";

export type FetchLike = (request: Request) => Promise<Response>;

/**
 * The fetch for API calls: a POST gets an Idempotency-Key unless it has one, which makes
 * a request lost with its connection (a stale keep-alive socket, a blip) safe to send
 * again; such a request is tried twice more.
 */
export function retryingFetch(fetchFn: FetchLike): FetchLike {
  return async (request) => {
    if (request.method === "POST" && !request.headers.has("idempotency-key"))
      request.headers.set("idempotency-key", crypto.randomUUID());
    for (let attempt = 0; ; attempt++) {
      const copy = attempt < 2 ? request.clone() : request;
      try {
        return await fetchFn(copy);
      } catch (error) {
        if (attempt >= 2 || request.signal.aborted || !(error instanceof TypeError)) throw error;
      }
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

/** The success body of an openapi-fetch call, or the VasError its problem describes. */
export async function unwrap<T>(call: Promise<Answered<T>>, what: string): Promise<T> {
  let answered: Answered<T>;
  try {
    answered = await call;
  } catch (error) {
    if (error instanceof DOMException && error.name === "AbortError") throw error;
    throw networkError(what, error);
  }
  if (answered.error !== undefined || answered.data === undefined)
    throw httpError(answered.response, answered.error);
  return answered.data;
}
