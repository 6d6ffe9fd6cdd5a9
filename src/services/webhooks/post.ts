import { withinAnswerTime } from "./answer-timer";
import { RESEND_WINDOW_MS } from "./config";
import { type Lane, laneTimeoutMs } from "./delivery-lanes";
import { TransportError, type TransportResult, type WebhookTransport } from "./transport";

/** One signed request of an attempt, ready to send. */
export interface SignedRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** How one request ended. */
export interface Posted {
  result: TransportResult | null;
  /** `http_status` for an answer that is not 2xx; the transport's class when none came. */
  errorClass: "http_status" | TransportError["errorClass"] | null;
  /** From sending to the answer's status, less the service's own stalls (answer-timer.ts). */
  durationMs: number;
  connectionLost: boolean;
}

/** An attempt's request, and the one lost before it when it had to be sent again. */
export interface PostedAttempt {
  sent: Posted;
  lost: Posted | null;
}

async function postOnce(
  transport: WebhookTransport,
  request: SignedRequest,
  lane: Lane,
): Promise<Posted> {
  const timed = await withinAnswerTime(
    (signal) => transport({ ...request, signal }),
    laneTimeoutMs(lane),
  );
  if (timed.outcome.status === "fulfilled") {
    const { drained, ...result } = timed.outcome.value;
    // The outcome is known at the answer's status; reading its body is not the receiver's time.
    await drained;
    const ok = result.status >= 200 && result.status < 300;
    return {
      result,
      errorClass: ok ? null : "http_status",
      durationMs: timed.ms,
      connectionLost: false,
    };
  }
  const error = timed.outcome.reason;
  if (!(error instanceof TransportError)) throw error;
  return {
    result: null,
    errorClass: error.errorClass,
    durationMs: timed.ms,
    connectionLost: error.connectionLost,
  };
}

/**
 * Posts an attempt's request within the lane's time. A request whose connection was lost
 * before any answer, within RESEND_WINDOW_MS of sending, is sent again at once, unchanged,
 * once: the runtime had reused a pooled connection the receiver had closed, and the new
 * request goes on another. The second request's outcome is the attempt's.
 */
export async function postAttempt(
  transport: WebhookTransport,
  request: SignedRequest,
  lane: Lane,
): Promise<PostedAttempt> {
  const first = await postOnce(transport, request, lane);
  if (!first.connectionLost || first.durationMs > RESEND_WINDOW_MS) {
    return { sent: first, lost: null };
  }
  return { sent: await postOnce(transport, request, lane), lost: first };
}
