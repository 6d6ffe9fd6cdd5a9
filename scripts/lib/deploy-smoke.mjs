// The deploy's last step: the smoke check against what it just deployed, with a key minted
// for it through the admin API (an hour long, revoked afterwards) in one workspace kept for
// smoke checks. The generated ADMIN_TOKEN is kept where only the operator reads it.
import { spawn } from "node:child_process";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseVars, ROOT } from "./local.mjs";

const SMOKE_WORKSPACE = "Smoke checks";

/** `.production.vars` beside the configuration: git-ignored, readable by its owner only. */
const varsFile = (configPath) => path.join(path.dirname(configPath), ".production.vars");

/** The ADMIN_TOKEN a deploy from this checkout generated, if any. */
export function savedAdminToken(configPath) {
  const file = varsFile(configPath);
  return existsSync(file) ? parseVars(readFileSync(file, "utf8")).ADMIN_TOKEN : undefined;
}

/** Keeps a generated ADMIN_TOKEN for the admin CLI and later smoke checks. */
export function saveAdminToken(configPath, token) {
  const file = varsFile(configPath);
  writeFileSync(
    file,
    `# The production Worker's ADMIN_TOKEN, written by npm run deploy. Keep it secret.\nADMIN_TOKEN=${token}\n`,
    { mode: 0o600 },
  );
  chmodSync(file, 0o600);
}

async function admin(baseUrl, adminToken, method, route, body) {
  const res = await fetch(`${baseUrl}/admin/v1${route}`, {
    method,
    headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`admin ${method} ${route.split("?")[0]} answered ${res.status}`);
  return text === "" ? null : JSON.parse(text);
}

async function smokeWorkspace(baseUrl, adminToken) {
  let cursor = null;
  do {
    const page = await admin(
      baseUrl,
      adminToken,
      "GET",
      `/workspaces?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
    );
    const found = page.data.find((w) => w.name === SMOKE_WORKSPACE);
    if (found) return found.id;
    cursor = page.has_more ? page.next_cursor : null;
  } while (cursor);
  return (
    await admin(baseUrl, adminToken, "POST", "/workspaces", {
      name: SMOKE_WORKSPACE,
      alpha_opt_in: true,
    })
  ).id;
}

/** Runs `npm run smoke` against `baseUrl` with a fresh key; resolves whether it passed. */
export async function deploySmoke({ baseUrl, adminToken }) {
  const workspace = await smokeWorkspace(baseUrl, adminToken);
  const key = await admin(baseUrl, adminToken, "POST", "/keys", {
    workspace_id: workspace,
    type: "alpha",
    permissions: ["*"],
    expires_at: new Date(Date.now() + 3_600_000).toISOString(),
  });
  try {
    const child = spawn(
      process.execPath,
      [path.join(ROOT, "scripts/smoke.mjs"), "--base-url", baseUrl],
      {
        stdio: "inherit",
        env: { ...process.env, VAS_API_KEY: key.key },
      },
    );
    const code = await new Promise((resolve) => child.once("close", resolve));
    return code === 0;
  } finally {
    await admin(baseUrl, adminToken, "DELETE", `/keys/${key.id}`);
  }
}
