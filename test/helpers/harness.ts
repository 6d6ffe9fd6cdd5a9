import { env, exports } from "cloudflare:workers";
import { expect } from "vitest";
import type { Permission } from "../../src/domain/caller";

/** The origin tests address the Worker with. */
export const ORIGIN = "https://vas.test";
/** The alpha prefix. */
export const API = `${ORIGIN}/api/v1alpha1`;

type Fetcher = (input: string, init?: RequestInit) => Promise<Response>;

/** Sends a request to the Worker's default export, like a client would. */
export const workerFetch: Fetcher = (input, init) =>
  exports.default.fetch(new Request(input, init));

/** Calls the admin API with the test admin token. */
export async function admin(method: string, path: string, body?: unknown): Promise<Response> {
  return workerFetch(`${ORIGIN}/admin/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${env.ADMIN_TOKEN}`, "content-type": "application/json" },
    body: body === undefined ? null : JSON.stringify(body),
  });
}

async function json<T>(res: Response, status: number): Promise<T> {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  return JSON.parse(text) as T;
}

/** Creates a workspace through the admin API. */
export async function createWorkspace(options: { alphaOptIn?: boolean; name?: string } = {}) {
  const res = await admin("POST", "/workspaces", {
    name: options.name ?? "Test workspace",
    alpha_opt_in: options.alphaOptIn ?? true,
  });
  return json<{ id: string; name: string; alpha_opt_in: boolean; created_at: string }>(res, 201);
}

/** Creates an API key through the admin API and returns its id and secret. */
export async function createKey(
  workspaceId: string,
  options: {
    type?: "alpha" | "standard";
    permissions?: (Permission | "*")[];
    expiresAt?: string;
  } = {},
) {
  const res = await admin("POST", "/keys", {
    workspace_id: workspaceId,
    type: options.type ?? "alpha",
    permissions: options.permissions ?? ["*"],
    ...(options.expiresAt === undefined ? {} : { expires_at: options.expiresAt }),
  });
  return json<{ id: string; key: string; workspace_id: string; permissions: string[] }>(res, 201);
}

/** A client for the alpha API holding one key. */
export interface Client {
  key: string;
  request(
    method: string,
    path: string,
    options?: { body?: unknown; headers?: Record<string, string> },
  ): Promise<Response>;
  get(path: string, headers?: Record<string, string>): Promise<Response>;
  post(path: string, body?: unknown, headers?: Record<string, string>): Promise<Response>;
}

/** A client that sends `Authorization: Bearer <key>` (or nothing, for null). */
export function client(key: string | null): Client {
  const request: Client["request"] = (method, path, options = {}) => {
    const headers: Record<string, string> = { ...options.headers };
    if (key !== null) headers.authorization = `Bearer ${key}`;
    let body: string | null = null;
    if (options.body !== undefined) {
      body = typeof options.body === "string" ? options.body : JSON.stringify(options.body);
      headers["content-type"] ??= "application/json";
    }
    return workerFetch(`${API}${path}`, { method, headers, body });
  };
  return {
    key: key ?? "",
    request,
    get: (path, headers) => request("GET", path, { headers: headers ?? {} }),
    post: (path, body, headers) => request("POST", path, { body, headers: headers ?? {} }),
  };
}

/** A fresh opted-in workspace with one alpha key holding the given permissions. */
export async function newTenant(permissions: (Permission | "*")[] = ["*"]) {
  const workspace = await createWorkspace();
  const key = await createKey(workspace.id, { permissions });
  return { workspaceId: workspace.id, keyId: key.id, api: client(key.key) };
}

/** Reads a response's JSON body, asserting its status (the body is in the message). */
export async function expectJson<T = Record<string, unknown>>(
  res: Response,
  status: number,
): Promise<T> {
  return json<T>(res, status);
}

/** Asserts a problem+json answer with this status and code; returns the document. */
export async function expectProblem(res: Response, status: number, code: string) {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  expect(res.headers.get("content-type"), text).toMatch(/^application\/problem\+json/);
  const problem = JSON.parse(text) as {
    type: string;
    title: string;
    status: number;
    detail: string;
    code: string;
    instance?: string;
    request_id?: string;
    errors?: { path: string; message: string }[];
  };
  expect(problem.code, text).toBe(code);
  expect(problem.status, text).toBe(status);
  expect(typeof problem.title, text).toBe("string");
  expect(typeof problem.type, text).toBe("string");
  expect(typeof problem.detail, text).toBe("string");
  return problem;
}
