import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, LocalProcess } from "./local-process";

// `npm run smoke` against the real local process (one start per adapter mode, the two side by
// side), as an operator runs it against a deployment; and the deploy's own smoke step, which
// mints its key.
const ROOT = path.resolve(import.meta.dirname, "../..");
const ADMIN_TOKEN = "smoke-admin-token-0123456789";

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

function node(args: string[], env: Record<string, string> = {}): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      args,
      { cwd: ROOT, env: { ...process.env, ...env }, timeout: 170_000 },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

async function admin(service: LocalProcess, method: string, route: string, body?: unknown) {
  const res = await fetch(`${service.baseUrl}/admin/v1${route}`, {
    method,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  expect(res.ok, `${method} ${route}: ${res.status}`).toBe(true);
  return res.json();
}

// Both adapters: the local ones, and the production ones over the local simulators. The two
// modes run at the same time; the tests of one mode run one after the other on its process.
describe.concurrent.each(["local", "production"])("npm run smoke (%s adapters)", (adapters) => {
  let service: LocalProcess;
  let stateDir: string;

  beforeAll(async () => {
    stateDir = mkdtempSync(path.join(tmpdir(), "vas-smoke-"));
    service = new LocalProcess(await freePort(), {
      STATE_DIR: stateDir,
      ADMIN_TOKEN,
      ADAPTERS: adapters,
    });
    await service.start();
  });

  afterAll(async () => {
    await service?.stop("SIGTERM");
    if (stateDir) rmSync(stateDir, { recursive: true, force: true });
  });

  it.sequential("passes every step against the local service, one line each, never showing the key", async () => {
    const workspace = await admin(service, "POST", "/workspaces", {
      name: "Smoke",
      alpha_opt_in: true,
    });
    const { key } = await admin(service, "POST", "/keys", {
      workspace_id: workspace.id,
      type: "alpha",
      permissions: ["*"],
    });
    const ran = await node([
      "scripts/smoke.mjs",
      "--base-url",
      service.baseUrl,
      "--key",
      key,
      "--webhook-receiver",
      "local",
      "--timeout",
      "60",
    ]);
    const output = `${ran.stdout}${ran.stderr}`;
    expect(ran.code, output).toBe(0);
    const lines = ran.stdout.trimEnd().split("\n");
    expect(lines.map((line) => line.split(/\s+/).slice(0, 2).join(" "))).toEqual([
      "health ok",
      "webhook ok",
      "upload ok",
      "indexed ok",
      "search ok",
      "run ok",
      "report ok",
      "webhook ok",
    ]);
    expect(lines[0]).toContain(
      `{"status":"ok","adapters":"${adapters === "local" ? "local" : "production"}"`,
    );
    // Where the phrase ranks first depends on the index: the captioned moment (local) or the
    // title's metadata at the start, which the embeddings weigh too (production).
    expect(lines[4]).toMatch(/"loading dock" found vid_\w+ at \d+(\.\d+)? s/);
    expect(lines[7]).toMatch(/^webhook\s+ok\s+run\.completed evt_\w+ verified/);
    expect(output).not.toContain(key);
    expect(output).not.toMatch(/X-Amz-|\/storage\//);
    // The smoke check leaves no endpoint behind to send later events to.
    const hooks = await fetch(`${service.baseUrl}/api/v1alpha1/webhooks`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect((await hooks.json()).data).toEqual([]);
  });

  it.sequential("stops at the first failure with a non-zero exit and a line naming it", async () => {
    const ran = await node(["scripts/smoke.mjs", "--base-url", service.baseUrl], {
      VAS_API_KEY: "vas_not_a_key",
    });
    expect(ran.code).toBe(1);
    const lines = ran.stdout.trimEnd().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/^upload\s+FAILED\s+POST \/videos answered 401: /);
    expect(ran.stdout).not.toContain("vas_not_a_key");
  });

  it.sequential("runs as the deploy's last step with a key it mints and then revokes", async () => {
    const script = [
      'import { deploySmoke } from "./scripts/lib/deploy-smoke.mjs";',
      "const [baseUrl, adminToken] = process.argv.slice(1);",
      "process.exit((await deploySmoke({ baseUrl, adminToken })) ? 0 : 3);",
    ].join("\n");
    const ran = await node(["--input-type=module", "-e", script, service.baseUrl, ADMIN_TOKEN], {});
    expect(ran.code, `${ran.stdout}${ran.stderr}`).toBe(0);
    expect(ran.stdout).toMatch(/^report\s+ok/m);
    const workspaces = await admin(service, "GET", "/workspaces?limit=100");
    const smoke = workspaces.data.filter((w: { name: string }) => w.name === "Smoke checks");
    expect(smoke).toHaveLength(1);
    const keys = await admin(service, "GET", `/keys?workspace_id=${smoke[0].id}`);
    expect(keys.data).toHaveLength(1);
    expect(keys.data[0].revoked_at).toEqual(expect.any(String));
  });
});
