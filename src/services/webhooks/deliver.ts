import { runBatch } from "../../db/client";
import { countStatements } from "../../db/repos/usage";
import {
  type AttemptOutcome,
  claimDelivery,
  type DeliveryRow,
  deliveryById,
  eventById,
  failWithoutAttempt,
  lostRequestStatement,
  recordAttemptStatements,
} from "../../db/repos/webhook-deliveries";
import {
  type EndpointRow,
  endpointById,
  updateEndpointStatement,
} from "../../db/repos/webhook-endpoints";
import { dayOf, type UsageCount } from "../../domain/usage";
import { nowIso } from "../../lib/clock";
import type { DeliverWebhookMessage } from "../../lib/queue-messages";
import { WEBHOOK_REQUEST_ID_HEADER } from "../../lib/request-id";
import { type Deps, withRequest } from "../deps";
import {
  DELIVERY_TIMEOUT_MS,
  FAILING_DISABLE_MS,
  RESEND_WINDOW_MS,
  retryDelayMs,
  webhookConfig,
} from "./config";
import { inSlowLane, type Lane, laneAfter, moveToSlowLane, sendToSlowLane } from "./delivery-lanes";
import { signingSecrets } from "./endpoints";
import { enqueueAttempts } from "./enqueue-attempts";
import { type Posted, postAttempt } from "./post";
import { UnreadableSecretError } from "./secrets";
import { webhookHeaders } from "./signature";
import type { TransportResult, WebhookTransport } from "./transport";
import { checkWebhookUrl } from "./url-guard";

/** Names the sender to receivers and their logs. */
export const WEBHOOK_USER_AGENT = "VideoAnalysisService-Webhooks/1";
/**
 * An attempt holds its delivery this long: a lost request, the request's timeout, and room
 * to record it.
 */
const CLAIM_MS = RESEND_WINDOW_MS + DELIVERY_TIMEOUT_MS + 30_000;
/** A Retry-After is honoured up to the longest wait of the schedule. */
const MAX_RETRY_AFTER_MS = 24 * 3600 * 1000;

/**
 * Why an attempt failed (the attempt log's error class). `connection_lost` marks only the log
 * line of a request sent again at once (post.ts): it is not an attempt.
 */
export type AttemptError =
  | NonNullable<Posted["errorClass"]>
  | "connection_lost"
  | "url_refused"
  | "event_missing"
  | "secret_unreadable";
/** Failures no retry can mend: the delivery ends with the attempt. */
const FINAL_ERRORS: ReadonlySet<AttemptError> = new Set(["url_refused", "event_missing"]);
/** Failures on our side: they say nothing about the receiver, so they leave its streak alone. */
const OWN_ERRORS: ReadonlySet<AttemptError> = new Set(["event_missing", "secret_unreadable"]);

/** What one message did (`slowed`: sent on to the slow lane, nothing recorded). */
export type AttemptResult = "stale" | "deferred" | "ended" | "slowed" | DeliveryRow["status"];

/** Milliseconds a Retry-After header asks for (seconds or an HTTP date); null when absent. */
export function retryAfterMs(header: string | null, now: number): number | null {
  if (header === null) return null;
  const seconds = /^\d+$/.test(header.trim()) ? Number(header.trim()) * 1000 : Number.NaN;
  const ms = Number.isNaN(seconds) ? Date.parse(header) - now : seconds;
  return Number.isFinite(ms) && ms > 0 ? Math.min(ms, MAX_RETRY_AFTER_MS) : null;
}

interface Sent {
  /** Whether a request went out (it may still have failed); false when refused before. */
  requested: boolean;
  result: TransportResult | null;
  errorClass: AttemptError | null;
  durationMs: number;
  /** The request lost on its connection before this one, sent again (not an attempt). */
  lost: Posted | null;
}

/** An attempt that ended before any request: nothing was sent. */
function unsent(errorClass: AttemptError): Sent {
  return { requested: false, result: null, errorClass, durationMs: 0, lost: null };
}

async function send(
  deps: Deps,
  transport: WebhookTransport,
  endpoint: EndpointRow,
  delivery: DeliveryRow,
  lane: Lane,
): Promise<Sent> {
  const verdict = checkWebhookUrl(endpoint.url, webhookConfig(deps.config));
  if (!verdict.ok) return unsent("url_refused");
  const event = await eventById(deps.db, delivery.eventId);
  if (!event) return unsent("event_missing");
  const body = JSON.stringify({
    id: event.id,
    type: event.type,
    created_at: event.createdAt,
    data: event.data,
  });
  let secrets: string[];
  try {
    secrets = await signingSecrets(deps, endpoint);
  } catch (error) {
    if (!(error instanceof UnreadableSecretError)) throw error;
    // SIGNING_SECRET changed under a stored secret: the operator must learn it, the
    // receiver must not get an unsigned request. Rotating the endpoint's secret mends it.
    withRequest(deps, delivery.requestId).log.error({
      webhook_endpoint: endpoint.id,
      delivery: delivery.id,
      error: error.message,
    });
    return unsent("secret_unreadable");
  }
  const timestamp = Math.floor(deps.clock.now() / 1000);
  const signed = await webhookHeaders(secrets, event.id, timestamp, body);
  const headers: Record<string, string> = {
    ...signed,
    "content-type": "application/json",
    "user-agent": WEBHOOK_USER_AGENT,
  };
  // Outside the signed body, whose shape the contract fixes: the request a customer traces.
  if (event.requestId !== null) headers[WEBHOOK_REQUEST_ID_HEADER] = event.requestId;
  const { sent, lost } = await postAttempt(transport, { url: endpoint.url, headers, body }, lane);
  return { requested: true, ...sent, lost };
}

/**
 * Makes the attempt a message names, at most once: a stale or duplicate message does
 * nothing, one that arrives early (a wait longer than a queue delay) is sent on again.
 * In the fast lane, an endpoint marked slow gets the message sent on to the slow lane
 * unattempted, and an attempt cut off by the fast lane's timeout is made again there; a
 * request lost on its connection before any answer is sent again at once (post.ts).
 * 2xx delivers; 410 ends the delivery and disables the endpoint (`gone`); a refused URL or
 * a vanished event ends it at once; anything else (an unreadable secret included) is
 * retried on the schedule (Retry-After honoured on 429/503) until it runs out (`failed`).
 */
export async function attemptDelivery(
  deps: Deps,
  transport: WebhookTransport,
  message: DeliverWebhookMessage,
  lane: Lane = "fast",
  random: () => number = Math.random,
): Promise<AttemptResult> {
  const delivery = await deliveryById(deps.db, message.delivery_id);
  const current =
    delivery?.status === "pending" &&
    delivery.attempts === message.attempts &&
    delivery.nextAttemptAt === message.due;
  if (!delivery || !current) return "stale";
  const now = deps.clock.now();
  if (Date.parse(delivery.nextAttemptAt) > now + 1000) {
    await enqueueAttempts(deps, [delivery]);
    return "deferred";
  }
  const endpoint = await endpointById(deps.db, delivery.endpointId);
  if (lane === "fast" && endpoint?.enabled && inSlowLane(endpoint)) {
    await sendToSlowLane(deps, delivery);
    return "slowed";
  }
  const claim = { id: delivery.id, attempts: delivery.attempts, due: delivery.nextAttemptAt };
  const claimed = await claimDelivery(deps.db, {
    ...claim,
    now: nowIso(now),
    until: nowIso(now + CLAIM_MS),
  });
  if (!claimed) return "stale";
  if (!endpoint?.enabled) {
    // Disabled endpoints receive nothing; their deliveries end here and can be recovered. So
    // does an endpoint of a workspace being deleted, which `endpointById` no longer finds.
    await failWithoutAttempt(deps.db, delivery.id, nowIso(now));
    return "ended";
  }
  const sent = await send(deps, transport, endpoint, delivery, lane);
  if (lane === "fast" && sent.errorClass === "timeout") {
    await moveToSlowLane(deps, endpoint, delivery, lostLine(deps, delivery, sent));
    return "slowed";
  }
  return record(deps, endpoint, delivery, sent, random);
}

async function record(
  deps: Deps,
  endpoint: EndpointRow,
  delivery: DeliveryRow,
  sent: Sent,
  random: () => number,
): Promise<AttemptResult> {
  const now = deps.clock.now();
  const status = sent.result?.status ?? null;
  let next: string | null = null;
  if (sent.errorClass !== null && status !== 410 && !FINAL_ERRORS.has(sent.errorClass)) {
    const scheduled = retryDelayMs(webhookConfig(deps.config), delivery.attempts + 2, random);
    const asked =
      status === 429 || status === 503 ? retryAfterMs(sent.result?.retryAfter ?? null, now) : null;
    if (scheduled !== null) next = nowIso(now + Math.max(scheduled, asked ?? 0));
  }
  const outcome: AttemptOutcome = {
    delivery,
    status: sent.errorClass === null ? "delivered" : next === null ? "failed" : "pending",
    responseStatus: status,
    nextAttemptAt: next ?? nowIso(now),
    attemptedAt: nowIso(now),
    durationMs: sent.durationMs,
    errorClass: sent.errorClass,
  };
  // Counted with the attempt's row in the log: every attempt, and one accepted as a delivery.
  const counts: UsageCount[] = [{ metric: "webhook_attempts", key: "", value: 1 }];
  if (outcome.status === "delivered")
    counts.push({ metric: "webhook_deliveries", key: "", value: 1 });
  const target = { workspaceId: delivery.workspaceId };
  await runBatch(deps.db, [
    ...lostLine(deps, delivery, sent),
    ...countStatements(deps.db, target, dayOf(outcome.attemptedAt), counts),
    ...recordAttemptStatements(deps.db, outcome),
    updateEndpointStatement(deps.db, endpoint.id, {
      ...health(endpoint, sent, status, now),
      ...(sent.requested ? laneAfter(endpoint, sent.durationMs, now) : {}),
    }),
  ]);
  if (next !== null) {
    await enqueueAttempts(deps, [
      {
        id: delivery.id,
        attempts: delivery.attempts + 1,
        nextAttemptAt: next,
        requestId: delivery.requestId,
      },
    ]);
  }
  return outcome.status;
}

/** The attempt log's line for a request lost before the attempt's own, if there was one. */
function lostLine(deps: Deps, delivery: DeliveryRow, sent: Sent) {
  if (!sent.lost) return [];
  return [
    lostRequestStatement(deps.db, {
      deliveryId: delivery.id,
      attemptedAt: nowIso(deps.clock.now()),
      durationMs: sent.lost.durationMs,
    }),
  ];
}

/** The endpoint's failure streak after an attempt, and whether it must stop receiving. */
function health(
  endpoint: EndpointRow,
  sent: Sent,
  status: number | null,
  now: number,
): Partial<EndpointRow> {
  if (sent.errorClass === null) return { failingSince: null };
  if (OWN_ERRORS.has(sent.errorClass)) return { failingSince: endpoint.failingSince };
  if (status === 410) return { enabled: false, disabledReason: "gone" };
  const since = endpoint.failingSince ?? nowIso(now);
  if (Date.parse(since) <= now - FAILING_DISABLE_MS) {
    return { failingSince: since, enabled: false, disabledReason: "failing" };
  }
  return { failingSince: since };
}
