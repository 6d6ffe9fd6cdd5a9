import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { PERMISSIONS, type Permission } from "../../src/domain/caller";
import { hashSecret } from "../../src/services/access/keys";
import { admin, client, createKey, createWorkspace, expectProblem } from "./harness";

/** One alpha operation, as the OpenAPI document describes it. */
export interface Operation {
  method: string;
  path: string;
  permission: Permission;
}

/** Fills path parameters with well-formed ids that exist nowhere. */
export function concretePath(path: string): string {
  return path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const prefix = name === "video_id" ? "vid" : name.replace(/_id$/, "");
    return `${prefix}_00000000000000000000000000`;
  });
}

/** The operations of the alpha surface, read from its OpenAPI document. */
export async function alphaOperations(): Promise<Operation[]> {
  const doc = (await (await client(null).get("/openapi.json")).json()) as {
    paths: Record<string, Record<string, { "x-required-permission"?: Permission }>>;
  };
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const permission = operation["x-required-permission"];
      if (permission === undefined) throw new Error(`${method} ${path} declares no permission`);
      operations.push({ method: method.toUpperCase(), path, permission });
    }
  }
  return operations;
}

/** Keys in every state the auth matrix needs, made once per test file. */
export async function keyMatrix() {
  const workspace = await createWorkspace();
  const closed = await createWorkspace({ alphaOptIn: false });
  const revoked = await createKey(workspace.id);
  expect((await admin("DELETE", `/keys/${revoked.id}`)).status).toBe(204);
  const expired = await createKey(workspace.id);
  await env.DB.prepare("UPDATE api_keys SET expires_at = ? WHERE id = ?")
    .bind(new Date(Date.now() - 1000).toISOString(), expired.id)
    .run();
  const standard = await createKey(workspace.id, { type: "standard" });
  const notOptedIn = await createKey(closed.id);
  const byPermission = new Map<Permission, string>();
  const allBut = new Map<Permission, string>();
  for (const permission of PERMISSIONS) {
    byPermission.set(
      permission,
      (await createKey(workspace.id, { permissions: [permission] })).key,
    );
    allBut.set(
      permission,
      (await createKey(workspace.id, { permissions: PERMISSIONS.filter((p) => p !== permission) }))
        .key,
    );
  }
  return {
    revoked: revoked.key,
    expired: expired.key,
    standard: standard.key,
    notOptedIn: notOptedIn.key,
    byPermission,
    allBut,
  };
}

/** Sends an operation with a key (null: no Authorization header at all). */
export function send(operation: Operation, key: string | null, rawAuthorization?: string) {
  const headers: Record<string, string> = {};
  if (rawAuthorization !== undefined) headers.authorization = rawAuthorization;
  const options =
    operation.method === "GET" || operation.method === "DELETE"
      ? { headers }
      : { headers, body: {} };
  return client(key).request(operation.method, concretePath(operation.path), options);
}

/** A syntactically valid key that was never issued. */
export async function unknownKey(): Promise<string> {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  const key = `vas_${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`;
  expect(
    await env.DB.prepare("SELECT 1 FROM api_keys WHERE secret_hash = ?")
      .bind(await hashSecret(key))
      .first(),
  ).toBeNull();
  return key;
}

/** Asserts the answer of a request the auth layer must refuse. */
export async function expectRefused(res: Response, status: 401 | 403 | 404) {
  const code = { 401: "unauthorized", 403: "forbidden", 404: "resource-not-found" }[status];
  await expectProblem(res, status, code);
}
