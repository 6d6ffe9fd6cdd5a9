import { z } from "@hono/zod-openapi";
import { type SameShape, TimestampSchema } from "../../schemas/common";
import type { AttemptDto, DeliveryDto, EndpointDto } from "../../services/presenters/webhook";
import { WEBHOOK_EVENT_TYPES } from "../../services/webhooks/event-types";

const EVENT_TYPE_LIST = ["*", ...WEBHOOK_EVENT_TYPES].join(", ");

/** The `url` of an endpoint; the URL guard runs in the service (it depends on the deployment). */
export const EndpointUrlSchema = z.string().min(1).max(2048).openapi({
  description:
    "Where events are POSTed: https (http to a loopback address only where the deployment allows it, as in local development). Credentials, whitespace, control characters and private, loopback, link-local, metadata or other special-purpose addresses (in any spelling) are refused; the URL is stored and answered in its canonical form.",
  example: "https://hooks.example.com/video-analysis",
});

/** The `event_types` of an endpoint: `["*"]` for all, else names from the catalogue. */
export const EventTypesSchema = z
  .array(z.enum(["*", ...WEBHOOK_EVENT_TYPES]))
  .min(1)
  .max(WEBHOOK_EVENT_TYPES.length + 1)
  .refine((types) => !types.includes("*") || types.length === 1, {
    message: 'must be ["*"] alone or a list of event types',
  })
  .refine((types) => new Set(types).size === types.length, { message: "must not repeat a type" })
  .openapi({
    description: `Events this endpoint receives: \`["*"]\` for all, or any of ${EVENT_TYPE_LIST}.`,
    example: ["video.indexed", "run.completed"],
  });

const DescriptionSchema = z.string().max(500).nullable().openapi({
  description: "A note for people: what receives these events",
  example: "Production ingest listener",
});

/** POST /webhooks */
export const CreateEndpointBodySchema = z
  .strictObject({
    url: EndpointUrlSchema,
    event_types: EventTypesSchema,
    description: DescriptionSchema.optional(),
  })
  .openapi("CreateWebhookEndpoint");

/** PATCH /webhooks/{webhook_id} */
export const PatchEndpointBodySchema = z
  .strictObject({
    url: EndpointUrlSchema.optional(),
    event_types: EventTypesSchema.optional(),
    description: DescriptionSchema.optional(),
    enabled: z.boolean().optional().openapi({
      description: "false stops deliveries (`disabled_reason` `manual`); true resumes them",
    }),
  })
  .refine((body) => Object.keys(body).length > 0, {
    message: "must change at least one field",
  })
  .openapi("UpdateWebhookEndpoint");

const LastDeliverySchema = z
  .object({
    delivery_id: z.string().openapi({ example: "delivery_01jd3m6t8y0c7x4k2n9q5r1s3v" }),
    outcome: z.enum(["succeeded", "failed"]).openapi({ description: "The last attempt's outcome" }),
    response_status: z.number().int().nullable().openapi({
      description: "HTTP status the endpoint answered; null when no answer came (timeout, network)",
      example: 200,
    }),
    attempted_at: TimestampSchema,
  })
  .openapi("WebhookLastDelivery");

/** A webhook endpoint. */
export const EndpointSchema = z
  .object({
    id: z.string().openapi({ example: "wh_01jd3m6t8y0c7x4k2n9q5r1s3v" }),
    url: z.string().openapi({ example: "https://hooks.example.com/video-analysis" }),
    description: z.string().nullable(),
    event_types: z.array(z.string()).openapi({ example: ["*"] }),
    enabled: z.boolean(),
    disabled_reason: z.enum(["manual", "gone", "failing"]).nullable().openapi({
      description:
        "Why it receives nothing: `manual` (turned off), `gone` (it answered 410), `failing` (every attempt failed for 5 days)",
    }),
    last_delivery: LastDeliverySchema.nullable(),
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
  })
  .openapi("WebhookEndpoint");

/** An endpoint with its signing secret: answered only on create and rotation. */
export const EndpointWithSecretSchema = EndpointSchema.extend({
  secret: z.string().openapi({
    description:
      "The signing secret (Standard Webhooks `whsec_` form), shown only in this answer: store it now.",
    example: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
  }),
}).openapi("WebhookEndpointWithSecret");

/** A webhook delivery (the spec's Webhook delivery section). */
export const DeliverySchema = z
  .object({
    id: z.string().openapi({ example: "delivery_01jd3m6t8y0c7x4k2n9q5r1s3v" }),
    endpoint_id: z.string().openapi({ example: "wh_01jd3m6t8y0c7x4k2n9q5r1s3v" }),
    event_id: z.string().openapi({ example: "evt_01jd3m6t8y0c7x4k2n9q5r1s3v" }),
    event_type: z.string().openapi({ example: "video.indexed" }),
    request_id: z.string().nullable().openapi({
      description:
        "The request whose work the event announces (sent as the `vas-request-id` header of each attempt); null when no request caused it",
      example: "4bf92f35-77b3-4da6-a3ce-929d0e0e4736",
    }),
    status: z.enum(["pending", "delivered", "failed"]).openapi({
      description: "`pending` (attempts remain), `delivered` (a 2xx answer), `failed` (final)",
      example: "delivered",
    }),
    attempts: z.number().int().openapi({ example: 1 }),
    response_status: z.number().int().nullable().openapi({
      description: "HTTP status of the last attempt; null before any answer",
      example: 200,
    }),
    next_attempt_at: TimestampSchema.openapi({
      description: "When the next attempt is due (pending), or when the last one ran (final)",
    }),
    created_at: TimestampSchema,
  })
  .openapi("WebhookDelivery");

const AttemptSchema = z
  .object({
    attempted_at: TimestampSchema,
    response_status: z.number().int().nullable().openapi({
      description: "HTTP status the endpoint answered; null when none came",
      example: 500,
    }),
    duration_ms: z.number().int().openapi({ example: 184 }),
    error: z
      .enum([
        "http_status",
        "timeout",
        "network",
        "connection_lost",
        "url_refused",
        "event_missing",
        "secret_unreadable",
      ])
      .nullable()
      .openapi({
        description:
          "Why the attempt failed; null when it succeeded. `connection_lost`: a request whose connection was lost before any answer, within 500 ms, and sent again at once; that line is not an attempt (not counted in `attempts`), the next line is",
        example: "http_status",
      }),
  })
  .openapi("WebhookAttempt");

/** A delivery with its attempt log (every attempt, across redeliveries, oldest first). */
export const DeliveryDetailSchema = DeliverySchema.extend({
  attempt_log: z.array(AttemptSchema),
}).openapi("WebhookDeliveryDetail");

/** Fails to compile when the schema of an endpoint and its presenter's type drift apart. */
export const ENDPOINT_SCHEMA_MATCHES_PRESENTER: SameShape<
  z.infer<typeof EndpointSchema>,
  EndpointDto
> = true;
/** Fails to compile when the schema of a delivery and its presenter's type drift apart. */
export const DELIVERY_SCHEMA_MATCHES_PRESENTER: SameShape<
  z.infer<typeof DeliverySchema>,
  DeliveryDto
> = true;
/** Fails to compile when the schema of an attempt and its presenter's type drift apart. */
export const ATTEMPT_SCHEMA_MATCHES_PRESENTER: SameShape<
  z.infer<typeof AttemptSchema>,
  AttemptDto
> = true;
