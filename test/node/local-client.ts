import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { expect } from "vitest";

// The one client of the node tests: admin calls, JSON requests to the alpha API, uploads,
// waits and the project's scripts, against a process a test started (local-process.ts). It
// holds the process, not its URL, since a restart may move it to another port.
const ROOT = path.resolve(import.meta.dirname, "../..");

/** Where a client sends: a LocalProcess, or any origin. */
export interface Origin {
  readonly baseUrl: string;
}

/** Polls `read` every `everyMs` until `done` holds or `ms` pass; returns the last value read. */
export async function poll<T>(
  read: () => Promise<T> | T,
  done: (value: T) => boolean,
  { ms, everyMs = 250 }: { ms: number; everyMs?: number },
): Promise<T> {
  const deadline = Date.now() + ms;
  let value = await read();
  while (!done(value) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, everyMs));
    value = await read();
  }
  return value;
}

/** A caller of one API of a process: the admin API with its token, or the alpha API with a key. */
export class Client {
  constructor(
    readonly origin: Origin,
    /** `/admin/v1` or `/api/v1alpha1`. */
    private readonly prefix: string,
    readonly token: string,
  ) {}

  /** The API's root, e.g. http://127.0.0.1:8787/api/v1alpha1. */
  get root(): string {
    return `${this.origin.baseUrl}${this.prefix}`;
  }

  /** The bearer token and JSON content type every call sends. */
  get headers(): Record<string, string> {
    return { authorization: `Bearer ${this.token}`, "content-type": "application/json" };
  }

  /** Sends `body` as JSON to a route of the API (or to a full URL). */
  fetch(method: string, route: string, body?: unknown): Promise<Response> {
    return fetch(route.startsWith("http") ? route : `${this.root}${route}`, {
      method,
      headers: this.headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  }

  /** Sends a JSON request; its status and its parsed body (null when empty). */
  async call(method: string, route: string, body?: unknown) {
    const res = await this.fetch(method, route, body);
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  }

  /** Sends a JSON request and asserts its status (the body in the message); returns the body. */
  async expect(status: number, method: string, route: string, body?: unknown) {
    const res = await this.fetch(method, route, body);
    const text = await res.text();
    expect(res.status, `${method} ${route}: ${text}`).toBe(status);
    return text ? JSON.parse(text) : null;
  }

  /** GET, asserting 200; returns the body. */
  get(route: string) {
    return this.expect(200, "GET", route);
  }
}

/** The admin API of a process, with its admin token. */
export function adminClient(origin: Origin, adminToken: string): Client {
  return new Client(origin, "/admin/v1", adminToken);
}

/** The alpha API of a process, with an API key. */
export function apiClient(origin: Origin, key: string): Client {
  return new Client(origin, "/api/v1alpha1", key);
}

/** A workspace opted into the alpha and a key holding every permission, through the admin API. */
export async function newTenant(admin: Client, name: string) {
  const workspace = await admin.expect(201, "POST", "/workspaces", { name, alpha_opt_in: true });
  const { key } = await admin.expect(201, "POST", "/keys", {
    workspace_id: workspace.id,
    type: "alpha",
    permissions: ["*"],
  });
  return {
    workspaceId: workspace.id as string,
    key: key as string,
    api: apiClient(admin.origin, key),
  };
}

/** A media fixture's bytes (test/fixtures/media). */
export function fixture(name: string): Buffer<ArrayBuffer> {
  return readFileSync(path.join(ROOT, "test/fixtures/media", name));
}

/**
 * Opens an upload (201), PUTs the bytes to its presigned target (200) and completes it (200);
 * the session, for a test that asserts on its target.
 */
export async function upload(
  api: Client,
  filename: string,
  bytes: Buffer<ArrayBuffer> = fixture(filename),
) {
  const session = await api.expect(201, "POST", "/videos", {
    filename,
    file_size: bytes.byteLength,
  });
  const put = await fetch(session.target.url, {
    method: "PUT",
    headers: session.target.headers,
    body: bytes,
  });
  expect(put.status, await put.clone().text()).toBe(200);
  await api.expect(200, "POST", `/videos/${session.video_id}/upload/complete`, {});
  return { videoId: session.video_id as string, targetUrl: session.target.url as string };
}

/** Final states of a video (completed, failed) and of a run (and canceled). */
const FINAL = ["completed", "failed", "canceled"];

/** Polls GET `route` until its status is final or `ms` pass; returns the last body read. */
export function waitForFinal(api: Client, route: string, ms: number, everyMs = 200) {
  return poll(
    () => api.get(route),
    (item) => FINAL.includes(item.status),
    { ms, everyMs },
  );
}

/** What a script printed and how it exited. */
export interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `node <args>` in the project root; resolves with the exit code, never rejects. */
export function runNode(
  args: string[],
  { env = {}, timeout }: { env?: Record<string, string>; timeout: number },
): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      args,
      { cwd: ROOT, env: { ...process.env, ...env }, timeout },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const run = promisify(execFile);

/** The admin CLI (scripts/admin.mjs) against a process; rejects on a non-zero exit. */
export function adminCli(origin: Origin, adminToken: string) {
  return (args: string[]) =>
    run(
      "node",
      ["scripts/admin.mjs", "--base-url", origin.baseUrl, "--admin-token", adminToken, ...args],
      { cwd: ROOT },
    );
}
