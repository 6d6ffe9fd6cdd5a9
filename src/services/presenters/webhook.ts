import type { AttemptRow, DeliveryRow } from "../../db/repos/webhook-deliveries";
import type { EndpointRow } from "../../db/repos/webhook-endpoints";

/** A webhook endpoint as the API shows it (the spec's Webhook endpoint section). */
export interface EndpointDto {
  id: string;
  url: string;
  description: string | null;
  event_types: string[];
  enabled: boolean;
  disabled_reason: "manual" | "gone" | "failing" | null;
  last_delivery: {
    delivery_id: string;
    outcome: "succeeded" | "failed";
    response_status: number | null;
    attempted_at: string;
  } | null;
  created_at: string;
  updated_at: string;
}

/** A webhook delivery as the API shows it (the spec's Webhook delivery section). */
export interface DeliveryDto {
  id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  /** The request whose work the event announces; null when no request caused it. */
  request_id: string | null;
  status: "pending" | "delivered" | "failed";
  attempts: number;
  response_status: number | null;
  next_attempt_at: string;
  created_at: string;
}

/** One attempt of a delivery's log. */
export interface AttemptDto {
  attempted_at: string;
  response_status: number | null;
  duration_ms: number;
  error:
    | "http_status"
    | "timeout"
    | "network"
    | "connection_lost"
    | "url_refused"
    | "event_missing"
    | "secret_unreadable"
    | null;
}

/** The wire form of an endpoint. */
export function presentEndpoint(row: EndpointRow): EndpointDto {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    event_types: row.eventTypes,
    enabled: row.enabled,
    disabled_reason: row.disabledReason,
    last_delivery:
      row.lastDeliveryId && row.lastAttemptAt && row.lastAttemptOutcome
        ? {
            delivery_id: row.lastDeliveryId,
            outcome: row.lastAttemptOutcome,
            response_status: row.lastResponseStatus,
            attempted_at: row.lastAttemptAt,
          }
        : null,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}

/** The wire form of a delivery. */
export function presentDelivery(row: DeliveryRow): DeliveryDto {
  return {
    id: row.id,
    endpoint_id: row.endpointId,
    event_id: row.eventId,
    event_type: row.eventType,
    request_id: row.requestId,
    status: row.status,
    attempts: row.attempts,
    response_status: row.responseStatus,
    next_attempt_at: row.nextAttemptAt,
    created_at: row.createdAt,
  };
}

/** The wire form of one logged attempt. */
export function presentAttempt(row: AttemptRow): AttemptDto {
  return {
    attempted_at: row.attemptedAt,
    response_status: row.responseStatus,
    duration_ms: row.durationMs,
    error: row.errorClass as AttemptDto["error"],
  };
}
