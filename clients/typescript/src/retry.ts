import { type Clock, realClock } from "./clock.js";
import { networkError, VasError } from "./errors.js";
import { bodyEndsOnAbort, type FetchLike } from "./http.js";

export interface RetryOptions {
  /** Attempts after the first (default 4). */
  retries?: number;
  /** First pause (default 500 ms), doubled each time, with up to half of it added at random. */
  retryDelayMs?: number;
  signal?: AbortSignal;
  clock?: Clock;
}

function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === "AbortError";
}

/**
 * One request to storage with retries: a dropped connection, a 5xx and a 429 are tried again
 * (each attempt builds a fresh Request, since a body can be read once); anything else answers.
 */
export async function fetchWithRetry(
  fetchFn: FetchLike,
  makeRequest: () => Request,
  options: RetryOptions = {},
): Promise<Response> {
  const clock = options.clock ?? realClock;
  const retries = options.retries ?? 4;
  const base = options.retryDelayMs ?? 500;
  for (let attempt = 0; ; attempt++) {
    const request = makeRequest();
    let response: Response | undefined;
    let failure: unknown;
    try {
      response = bodyEndsOnAbort(await fetchFn(request), request.signal);
    } catch (error) {
      if (options.signal?.aborted || isAbort(error)) throw options.signal?.reason ?? error;
      failure = error;
    }
    const retriable = response === undefined || response.status >= 500 || response.status === 429;
    if (!retriable && response) return response;
    if (attempt >= retries) {
      if (response) return response;
      throw networkError(`${request.method} ${new URL(request.url).origin}`, failure);
    }
    await response?.body?.cancel();
    const delay = base * 2 ** attempt;
    await clock.sleep(delay + Math.random() * (delay / 2), options.signal);
  }
}

/** A VasError for a storage answer that is not a success (S3 errors are XML, not problems). */
export async function storageError(response: Response, partNumber: number): Promise<VasError> {
  const text = await response.text().catch(() => "");
  const code = text.match(/<Code>([^<]+)<\/Code>/)?.[1] ?? `HTTP ${response.status}`;
  return new VasError("storage", {
    type: "about:blank",
    title: "Storage refused the part",
    status: response.status,
    detail: `Part ${partNumber} was refused by storage: ${code}.`,
    code: "storage-error",
  });
}
