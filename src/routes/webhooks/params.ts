import { z } from "@hono/zod-openapi";
import { type DeliveryRow, findDelivery } from "../../db/repos/webhook-deliveries";
import { type EndpointRow, findEndpoint } from "../../db/repos/webhook-endpoints";
import { notFound } from "../../errors/api-error";
import { idParam } from "../../schemas/common";
import type { Deps } from "../../services/deps";

/** The `{webhook_id}` path parameter. */
export const EndpointParamsSchema = z.object({
  webhook_id: idParam("webhook_id", "wh_01jd3m6t8y0c7x4k2n9q5r1s3v"),
});

/** The `{webhook_id}` and `{delivery_id}` path parameters. */
export const DeliveryParamsSchema = EndpointParamsSchema.extend({
  delivery_id: idParam("delivery_id", "delivery_01jd3m6t8y0c7x4k2n9q5r1s3v"),
});

/** The caller's endpoint, or 404 (absent or in another workspace). */
export async function requireEndpoint(
  deps: Deps,
  workspaceId: string,
  id: string,
): Promise<EndpointRow> {
  const row = await findEndpoint(deps.db, workspaceId, id);
  if (!row) throw notFound("Webhook endpoint", id);
  return row;
}

/** The caller's endpoint and one of its deliveries, or 404 for either. */
export async function requireDelivery(
  deps: Deps,
  workspaceId: string,
  params: { webhook_id: string; delivery_id: string },
): Promise<{ endpoint: EndpointRow; delivery: DeliveryRow }> {
  const endpoint = await requireEndpoint(deps, workspaceId, params.webhook_id);
  const delivery = await findDelivery(deps.db, workspaceId, endpoint.id, params.delivery_id);
  if (!delivery) throw notFound("Delivery", params.delivery_id);
  return { endpoint, delivery };
}
