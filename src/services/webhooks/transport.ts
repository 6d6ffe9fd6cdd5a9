/** What an attempt learns from the receiver: never more than the status and two headers. */
export interface TransportResult {
  status: number;
  retryAfter: string | null;
}

/**
 * Sends one signed POST, given up when `signal` aborts (the lane's timeout). Throws
 * `TransportError` for timeouts and network failures.
 */
export type WebhookTransport = (request: {
  url: string;
  headers: Record<string, string>;
  body: string;
  signal: AbortSignal;
}) => Promise<TransportResult>;

/** A failed send that never produced a response. */
export class TransportError extends Error {
  constructor(readonly errorClass: "timeout" | "network") {
    super(errorClass);
  }
}

/** The receiver's answer is read at most this far, then dropped: it is never stored. */
const RESPONSE_READ_LIMIT = 4096;

async function drain(body: ReadableStream<Uint8Array> | null): Promise<void> {
  if (!body) return;
  const reader = body.getReader();
  let read = 0;
  try {
    while (read < RESPONSE_READ_LIMIT) {
      const chunk = await reader.read();
      if (chunk.done) return;
      read += chunk.value.byteLength;
    }
    await reader.cancel();
  } catch {
    // The answer's status is all that counts; a broken body does not change it.
  }
}

/**
 * The production transport: global `fetch` (looked up per call, so tests can observe it),
 * redirects not followed (a 3xx is a failed attempt), aborted with the lane's signal.
 */
export const fetchTransport: WebhookTransport = async ({ url, headers, body, signal }) => {
  let response: Response;
  try {
    response = await fetch(url, { method: "POST", headers, body, redirect: "manual", signal });
  } catch (error) {
    const name = error instanceof Error ? error.name : "";
    throw new TransportError(
      name === "TimeoutError" || name === "AbortError" ? "timeout" : "network",
    );
  }
  await drain(response.body);
  return { status: response.status, retryAfter: response.headers.get("retry-after") };
};
