import type { UrlPolicy } from "./url-guard";

/**
 * The Standard Webhooks retry schedule (the spec's decisions on webhooks): seconds before each
 * attempt, the first immediately and the last 24 hours after the one before.
 */
export const DEFAULT_RETRY_SCHEDULE = [0, 5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400];
/** Each wait is spread by up to this fraction either way, so retries do not arrive in herds. */
export const DEFAULT_RETRY_JITTER = 0.1;
/** A request that has not answered within this is a timeout. */
export const DELIVERY_TIMEOUT_MS = 15_000;
/**
 * The fast lane waits this long for an answer; an attempt still waiting is cut off and made
 * again in the slow lane, which waits the full DELIVERY_TIMEOUT_MS. Two seconds, not one: a
 * receiver that answers the cut-off request late gets the event twice, and on a busy host a
 * healthy local receiver passed 1 s in 24 of 200 attempts.
 */
export const FAST_LANE_TIMEOUT_MS = 2_000;
/**
 * A request whose connection was lost before any answer within this long of sending is sent
 * again at once (post.ts). A pooled connection the receiver had closed fails within a round
 * trip (2 to 12 ms locally); a receiver that took the request and dropped it later has had
 * its chance, and that failure is an attempt like any other.
 */
export const RESEND_WINDOW_MS = 500;
/** Attempts failing without a break for this long disable the endpoint (`failing`). */
export const FAILING_DISABLE_MS = 5 * 24 * 3600 * 1000;
/** After a rotation, deliveries are signed with the previous secret too for this long. */
export const ROTATION_OVERLAP_MS = 24 * 3600 * 1000;

/** The webhook settings of a deployment. */
export interface WebhookConfig extends UrlPolicy {
  /** Seconds before attempt 1, 2, ...; its length is the number of attempts. */
  retrySchedule: number[];
  retryJitter: number;
}

/** The configuration variables webhooks read. */
export interface WebhookVars {
  WEBHOOK_ALLOW_LOOPBACK_HTTP?: string | undefined;
  WEBHOOK_RETRY_SCHEDULE?: string | undefined;
  WEBHOOK_RETRY_JITTER?: string | undefined;
}

function schedule(raw: string | undefined): number[] {
  if (raw === undefined || raw.trim() === "") return DEFAULT_RETRY_SCHEDULE;
  const values = raw.split(",").map((part) => Number(part.trim()));
  const valid = values.length > 0 && values.every((v) => Number.isFinite(v) && v >= 0);
  if (!valid) throw new Error(`WEBHOOK_RETRY_SCHEDULE is not a list of seconds: ${raw}`);
  return values;
}

/**
 * Reads the webhook settings; unset variables take the defaults of the spec's decisions on
 * webhooks.
 */
export function webhookConfig(vars: WebhookVars): WebhookConfig {
  const jitter =
    vars.WEBHOOK_RETRY_JITTER === undefined ? Number.NaN : Number(vars.WEBHOOK_RETRY_JITTER);
  return {
    allowLoopbackHttp: vars.WEBHOOK_ALLOW_LOOPBACK_HTTP === "true",
    retrySchedule: schedule(vars.WEBHOOK_RETRY_SCHEDULE),
    retryJitter: jitter >= 0 && jitter < 1 ? jitter : DEFAULT_RETRY_JITTER,
  };
}

/** Milliseconds to wait before attempt `next` (1-based), jittered; null when none is left. */
export function retryDelayMs(
  config: WebhookConfig,
  next: number,
  random = Math.random,
): number | null {
  const seconds = config.retrySchedule[next - 1];
  if (seconds === undefined) return null;
  const spread = 1 + config.retryJitter * (2 * random() - 1);
  return Math.round(seconds * 1000 * spread);
}
