// The operator CLI for the admin API (decisions section 2), local or deployed.
//   npm run admin -- workspaces create --name "Acme" [--alpha-opt-in]
//   npm run admin -- workspaces update <ws_id> [--alpha-opt-in true|false] [--name N]
//   npm run admin -- keys create --workspace <ws_id> [--type alpha|standard]
//                      [--permissions READ_VIDEOS,UPLOAD_VIDEOS|*] [--expires-at ISO]
//   npm run admin -- keys revoke <key_id>
// Base URL: --base-url, else VAS_BASE_URL, else http://127.0.0.1:$PORT (8787).
// Token: --admin-token, else ADMIN_TOKEN, else .dev.vars (local only).
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { parseVars, ROOT } from "./lib/local.mjs";

const USAGE = `usage: npm run admin -- [--base-url URL] [--admin-token TOKEN] <command>
  workspaces create --name NAME [--alpha-opt-in]
  workspaces update WORKSPACE_ID [--alpha-opt-in true|false] [--name NAME]
  keys create --workspace WORKSPACE_ID [--type alpha|standard] [--permissions P1,P2|*] [--expires-at ISO]
  keys revoke KEY_ID`;

function fail(message) {
  process.stderr.write(`${message}\n`);
  process.exit(2);
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    "base-url": { type: "string" },
    "admin-token": { type: "string" },
    name: { type: "string" },
    "alpha-opt-in": { type: "string" },
    workspace: { type: "string" },
    type: { type: "string", default: "alpha" },
    permissions: { type: "string", default: "*" },
    "expires-at": { type: "string" },
    help: { type: "boolean", short: "h" },
  },
  // `--alpha-opt-in` alone means true.
  args: process.argv
    .slice(2)
    .flatMap((arg, i, all) =>
      arg === "--alpha-opt-in" && (all[i + 1] === undefined || all[i + 1].startsWith("--"))
        ? [arg, "true"]
        : [arg],
    ),
});
if (values.help || positionals.length < 2) fail(USAGE);

const baseUrl = (
  values["base-url"] ??
  process.env.VAS_BASE_URL ??
  `http://127.0.0.1:${process.env.PORT ?? 8787}`
).replace(/\/+$/, "");
function adminToken() {
  if (values["admin-token"]) return values["admin-token"];
  if (process.env.ADMIN_TOKEN) return process.env.ADMIN_TOKEN;
  const devVars = path.join(ROOT, ".dev.vars");
  const host = new URL(baseUrl).hostname;
  if (["127.0.0.1", "localhost", "::1"].includes(host) && existsSync(devVars)) {
    const token = parseVars(readFileSync(devVars, "utf8")).ADMIN_TOKEN;
    if (token) return token;
  }
  return fail("no admin token: pass --admin-token or set ADMIN_TOKEN");
}

function optInFlag() {
  const raw = values["alpha-opt-in"];
  if (raw === undefined) return undefined;
  if (raw !== "true" && raw !== "false") fail("--alpha-opt-in takes true or false");
  return raw === "true";
}

async function call(method, route, body) {
  const res = await fetch(`${baseUrl}/admin/v1${route}`, {
    method,
    headers: { authorization: `Bearer ${adminToken()}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) {
    let detail = text;
    try {
      const problem = JSON.parse(text);
      detail = [
        problem.detail,
        ...(problem.errors ?? []).map((e) => `  ${e.path}: ${e.message}`),
      ].join("\n");
    } catch {
      // Not a problem document; show it as it came.
    }
    process.stderr.write(`${method} ${route} failed with ${res.status}: ${detail}\n`);
    process.exit(1);
  }
  return text === "" ? null : JSON.parse(text);
}

const [resource, action, id] = positionals;
let result;
switch (`${resource} ${action}`) {
  case "workspaces create":
    if (!values.name) fail("workspaces create needs --name");
    result = await call("POST", "/workspaces", {
      name: values.name,
      alpha_opt_in: optInFlag() ?? false,
    });
    break;
  case "workspaces update": {
    if (!id) fail("workspaces update needs a workspace id");
    const change = {};
    if (values.name !== undefined) change.name = values.name;
    if (optInFlag() !== undefined) change.alpha_opt_in = optInFlag();
    result = await call("PATCH", `/workspaces/${encodeURIComponent(id)}`, change);
    break;
  }
  case "keys create": {
    if (!values.workspace) fail("keys create needs --workspace");
    const body = {
      workspace_id: values.workspace,
      type: values.type,
      permissions: values.permissions
        .split(",")
        .map((p) => p.trim())
        .filter(Boolean),
    };
    if (values["expires-at"]) body.expires_at = values["expires-at"];
    result = await call("POST", "/keys", body);
    break;
  }
  case "keys revoke":
    if (!id) fail("keys revoke needs a key id");
    await call("DELETE", `/keys/${encodeURIComponent(id)}`);
    result = { id, revoked: true };
    break;
  default:
    fail(USAGE);
}
process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
