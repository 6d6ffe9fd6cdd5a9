/** What an attempt learns from the receiver: never more than the status and two headers. */
export interface TransportResult {
  status: number;
  retryAfter: string | null;
}

/**
 * The receiver's answer as soon as its status and headers are in; `drained` settles once its
 * body has been read away (bounded in size and time), which the answer's outcome never waits
 * for but the attempt does, so the connection can be used again.
 */
export interface TransportAnswer extends TransportResult {
  drained?: Promise<void>;
}

/**
 * Sends one signed POST, given up when `signal` aborts (the lane's cut-off), and resolves at
 * the answer's status and headers. Throws `TransportError` for timeouts and network failures.
 */
export type WebhookTransport = (request: {
  url: string;
  headers: Record<string, string>;
  body: string;
  signal: AbortSignal;
}) => Promise<TransportAnswer>;

/**
 * A failed send that never produced a response. `connectionLost`: the runtime reported the
 * connection refused, reset or closed before an answer (workerd's `Network connection lost.`,
 * what a reused keep-alive connection the receiver had closed fails with).
 */
export class TransportError extends Error {
  constructor(
    readonly errorClass: "timeout" | "network",
    readonly connectionLost = false,
  ) {
    super(connectionLost ? "connection lost" : errorClass);
  }
}

/** The receiver's answer is read at most this far, then dropped: it is never stored. */
const RESPONSE_READ_LIMIT = 4096;
/** Reading that much may take this long; a slower body is cancelled, the answer stands. */
const RESPONSE_READ_MS = 1_000;
/** workerd's message for a connection that failed before an answer (kj's DISCONNECTED). */
const CONNECTION_LOST = "Network connection lost.";

async function drain(body: ReadableStream<Uint8Array> | null): Promise<void> {
  if (!body) return;
  const reader = body.getReader();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<"late">((resolve) => {
    timer = setTimeout(() => resolve("late"), RESPONSE_READ_MS);
  });
  try {
    let read = 0;
    while (read < RESPONSE_READ_LIMIT) {
      const chunk = await Promise.race([reader.read(), late]);
      if (chunk === "late") break;
      if (chunk.done) return;
      read += chunk.value.byteLength;
    }
    reader.cancel().catch(() => undefined);
  } catch {
    // The answer's status is all that counts; a broken body does not change it.
  } finally {
    clearTimeout(timer);
  }
}

/** Whether a rejected fetch is the runtime's report of a connection lost before an answer. */
function lostConnection(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return error.message === CONNECTION_LOST || ("retryable" in error && error.retryable === true);
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
    if (name === "TimeoutError" || name === "AbortError") throw new TransportError("timeout");
    throw new TransportError("network", lostConnection(error));
  }
  return {
    status: response.status,
    retryAfter: response.headers.get("retry-after"),
    drained: drain(response.body),
  };
};
