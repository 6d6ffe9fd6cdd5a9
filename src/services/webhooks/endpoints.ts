import {
  type EndpointRow,
  insertEndpoint,
  rotateEndpointSecrets,
  updateEndpoint,
} from "../../db/repos/webhook-endpoints";
import type { AuditedBy } from "../../domain/audit";
import { invalidRequest } from "../../errors/api-error";
import { nowIso } from "../../lib/clock";
import { newId } from "../../lib/ids";
import type { Deps } from "../deps";
import { ROTATION_OVERLAP_MS, webhookConfig } from "./config";
import { newEndpointSecret } from "./secret-format";
import { openSecret, sealSecret, UnreadableSecretError } from "./secrets";
import { canonicalWebhookUrl } from "./url-guard";

/** What a user sets on an endpoint. */
export interface EndpointInput {
  url: string;
  event_types: string[];
  description?: string | null | undefined;
}

/** The canonical form of a URL the deployment may deliver to; otherwise 400 naming `url`. */
export function deliverableUrl(deps: Pick<Deps, "config">, url: string): string {
  const verdict = canonicalWebhookUrl(url, webhookConfig(deps.config));
  if (!verdict.ok) throw invalidRequest([{ path: "url", message: verdict.reason }]);
  return verdict.url;
}

/** Creates an endpoint; the secret is returned here once and stored only encrypted. */
export async function createEndpoint(
  deps: Deps,
  workspaceId: string,
  input: EndpointInput,
  by: AuditedBy,
): Promise<{ row: EndpointRow; secret: string }> {
  const url = deliverableUrl(deps, input.url);
  const now = nowIso(deps.clock.now());
  const secret = newEndpointSecret();
  const row: EndpointRow = {
    id: newId("wh"),
    workspaceId,
    url,
    description: input.description ?? null,
    eventTypes: input.event_types,
    enabled: true,
    disabledReason: null,
    secret: await sealSecret(deps.secrets.signing(), secret),
    previousSecret: null,
    previousSecretExpiresAt: null,
    failingSince: null,
    slowSince: null,
    lastDeliveryId: null,
    lastAttemptAt: null,
    lastAttemptOutcome: null,
    lastResponseStatus: null,
    createdAt: now,
    updatedAt: now,
  };
  await insertEndpoint(deps.db, row, by);
  return { row, secret };
}

/** A change to an endpoint (PATCH). */
export interface EndpointPatch {
  url?: string | undefined;
  event_types?: string[] | undefined;
  description?: string | null | undefined;
  enabled?: boolean | undefined;
}

/** Applies a PATCH; enabling clears why it was disabled and its failure streak. */
export async function patchEndpoint(
  deps: Deps,
  row: EndpointRow,
  patch: EndpointPatch,
  by: AuditedBy,
): Promise<EndpointRow> {
  const change: Partial<EndpointRow> = { updatedAt: nowIso(deps.clock.now()) };
  if (patch.url !== undefined) {
    change.url = deliverableUrl(deps, patch.url);
    // Another receiver: how fast it answers is not known yet, so it starts in the fast lane.
    change.slowSince = null;
  }
  if (patch.event_types !== undefined) change.eventTypes = patch.event_types;
  if (patch.description !== undefined) change.description = patch.description;
  if (patch.enabled === true && !row.enabled) {
    Object.assign(change, { enabled: true, disabledReason: null, failingSince: null });
  }
  if (patch.enabled === false && row.enabled) {
    Object.assign(change, { enabled: false, disabledReason: "manual" });
  }
  await updateEndpoint(deps.db, row, change, by);
  return { ...row, ...change };
}

/** Replaces the secret; the old one keeps signing (beside the new) for 24 hours. */
export async function rotateEndpointSecret(
  deps: Deps,
  row: EndpointRow,
  by: AuditedBy,
): Promise<{ row: EndpointRow; secret: string }> {
  const now = deps.clock.now();
  const secret = newEndpointSecret();
  const change = {
    secret: await sealSecret(deps.secrets.signing(), secret),
    previousSecret: row.secret,
    previousSecretExpiresAt: nowIso(now + ROTATION_OVERLAP_MS),
    updatedAt: nowIso(now),
  };
  await rotateEndpointSecrets(deps.db, row, change, by);
  return { row: { ...row, ...change }, secret };
}

/**
 * The secrets a delivery is signed with now: the current one, and the previous while it
 * lives. Throws `UnreadableSecretError` when the current one cannot be opened; a previous
 * one that cannot is left out, so rotating mends an endpoint whose secret was lost.
 */
export async function signingSecrets(deps: Deps, row: EndpointRow): Promise<string[]> {
  const service = deps.secrets.signing();
  const secrets = [await openSecret(service, row.secret)];
  const overlap = row.previousSecretExpiresAt;
  if (row.previousSecret && overlap && overlap > nowIso(deps.clock.now())) {
    const previous = await openSecret(service, row.previousSecret).catch((error: unknown) => {
      if (error instanceof UnreadableSecretError) return null;
      throw error;
    });
    if (previous !== null) secrets.push(previous);
  }
  return secrets;
}
