import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { expectJson, ORIGIN, workerFetch } from "../../helpers/harness";

/** An audit entry as the admin API shows it. */
export interface AuditEntry {
  id: string;
  workspace_id: string;
  actor: string;
  action: string;
  target_type: string;
  target_id: string;
  changes: Record<string, { before?: unknown; after?: unknown }> | null;
  request_id: string | null;
  created_at: string;
}

/** A page of entries. */
export interface AuditPage {
  data: AuditEntry[];
  has_more: boolean;
  next_cursor: string | null;
}

/** Calls the admin API with the test admin token, sending `requestId` as X-Request-Id. */
export function adminAs(
  requestId: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<Response> {
  return workerFetch(`${ORIGIN}/admin/v1${path}`, {
    method,
    headers: {
      authorization: `Bearer ${env.ADMIN_TOKEN}`,
      "content-type": "application/json",
      "x-request-id": requestId,
    },
    body: body === undefined ? null : JSON.stringify(body),
  });
}

/** GET /admin/v1/workspaces/{id}/audit-log with a query string. */
export function auditLog(workspaceId: string, query = ""): Promise<Response> {
  return adminAs("audit-read", "GET", `/workspaces/${workspaceId}/audit-log${query}`);
}

/** Every entry of a workspace's trail (filtered by `query`), newest first, following cursors. */
export async function auditTrail(workspaceId: string, query = ""): Promise<AuditEntry[]> {
  const entries: AuditEntry[] = [];
  let cursor: string | null = null;
  do {
    const sep = query === "" ? "?" : "&";
    const next: string = cursor === null ? "" : `${sep}cursor=${encodeURIComponent(cursor)}`;
    const page: AuditPage = await expectJson(await auditLog(workspaceId, `${query}${next}`), 200);
    expect(page.has_more).toBe(page.next_cursor !== null);
    entries.push(...page.data);
    cursor = page.next_cursor;
  } while (cursor !== null);
  return entries;
}
