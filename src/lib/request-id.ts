/** The header a request's id travels in, both ways. */
export const REQUEST_ID_HEADER = "X-Request-Id";

/**
 * The header that names, on a webhook attempt, the request that caused the event. Not
 * `X-Request-Id`: a receiver's own stack reads that one as the id of the request it is serving
 * (Heroku's router, Rails, many proxies keep it), and every attempt of every delivery a request
 * caused would then share one id at the receiver.
 */
export const WEBHOOK_REQUEST_ID_HEADER = "vas-request-id";

/** The longest request id a client may choose. */
export const MAX_REQUEST_ID_LENGTH = 128;

/**
 * The request ids a client may choose: 1-128 letters, digits and `.` `_` `:` `-`. Enough for
 * UUIDs, ULIDs, prefixed ids and trace ids; nothing that reads as another field in a log line,
 * a header or a URL.
 */
export const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

/** Whether a client's request id is used as sent. */
export function isAcceptedRequestId(value: string): boolean {
  return REQUEST_ID_PATTERN.test(value);
}

/** The request's id: the client's `X-Request-Id` when it is accepted, else a fresh UUID. */
export function requestIdFor(sent: string | undefined): string {
  return sent !== undefined && isAcceptedRequestId(sent) ? sent : crypto.randomUUID();
}
