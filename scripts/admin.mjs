// The operator CLI for the admin API (the spec's decisions on the admin API), local or deployed.
// `--help` prints the commands and the permission names. Every failure is one line on stderr and a
// non-zero exit (2 for a usage mistake, 1 for anything the service or network refused).
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { parseVars, ROOT } from "./lib/local.mjs";
import { listen } from "./lib/webhooks-listen.mjs";

/** src/domain/caller.ts PERMISSIONS; a node test keeps the two lists equal. */
const PERMISSIONS = [
  "READ_VIDEOS",
  "UPLOAD_VIDEOS",
  "DELETE_VIDEOS",
  "VIEW_INSIGHTS",
  "VIEW_USAGE",
  "RUN_WORKFLOWS",
  "SEARCH_CONTENT",
  "MANAGE_WEBHOOKS",
  "MANAGE_RULEBOOKS",
];

const USAGE = `usage: npm run admin -- [--base-url URL] [--admin-token TOKEN] <command>
commands:
  workspaces list [--json]
  workspaces create --name NAME [--alpha-opt-in] [--index-private-tags] [--retention-days DAYS]
  workspaces update WORKSPACE_ID [--alpha-opt-in true|false] [--index-private-tags true|false]
                    [--retention-days DAYS|none] [--name NAME]
  workspaces delete WORKSPACE_ID --yes   (erases the workspace and everything in it; no undo)
  keys list --workspace WORKSPACE_ID [--json]
  keys create --workspace WORKSPACE_ID [--type alpha|standard] [--permissions P1,P2|*] [--expires-at ISO] [--owner USER_ID]
  keys revoke KEY_ID
  audit WORKSPACE_ID [--action ACTION] [--limit N] [--json]   (newest first; kept 400 days)
  webhooks listen --workspace WORKSPACE_ID [--events TYPE1,TYPE2|*]
base URL: --base-url, else VAS_BASE_URL, else http://127.0.0.1:$PORT (PORT defaults to 8787);
the service's root or its API root (…/api/v1alpha1, as vas takes it)
admin token: --admin-token, else ADMIN_TOKEN, else ADMIN_TOKEN in .dev.vars (local URLs only)
--retention-days: videos older than DAYS (1-3650, from their upload's start) are deleted by the
sweep; none keeps them until deleted (the default)
permissions (comma-separated for --permissions; * means all of them):
  ${PERMISSIONS.join("\n  ")}`;

const SWITCHES = ["--alpha-opt-in", "--index-private-tags"];

function fail(message, code = 1) {
  process.stderr.write(`${message}\n`);
  process.exit(code);
}

let parsed;
try {
  parsed = parseArgs({
    allowPositionals: true,
    options: {
      "base-url": { type: "string" },
      "admin-token": { type: "string" },
      name: { type: "string" },
      "alpha-opt-in": { type: "string" },
      "index-private-tags": { type: "string" },
      "retention-days": { type: "string" },
      workspace: { type: "string" },
      type: { type: "string", default: "alpha" },
      permissions: { type: "string", default: "*" },
      "expires-at": { type: "string" },
      owner: { type: "string" },
      json: { type: "boolean" },
      yes: { type: "boolean" },
      events: { type: "string", default: "*" },
      action: { type: "string" },
      limit: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
    // A switch (`--alpha-opt-in`, `--index-private-tags`) alone means true.
    args: process.argv
      .slice(2)
      .flatMap((arg, i, all) =>
        SWITCHES.includes(arg) && (all[i + 1] === undefined || all[i + 1].startsWith("--"))
          ? [arg, "true"]
          : [arg],
      ),
  });
} catch (error) {
  fail(`${error.message} (see --help)`, 2);
}
const { values, positionals } = parsed;
if (values.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
if (positionals.length < 2) fail(USAGE, 2);

const baseUrl = (
  values["base-url"] ??
  process.env.VAS_BASE_URL ??
  `http://127.0.0.1:${process.env.PORT ?? 8787}`
)
  .replace(/\/+$/, "")
  // `vas` takes the API root in VAS_BASE_URL too: the admin API lives beside it.
  .replace(/\/api\/v1alpha1$/, "");
if (!URL.canParse(baseUrl)) fail(`not a base URL: ${baseUrl}`, 2);
function adminToken() {
  if (values["admin-token"]) return values["admin-token"];
  if (process.env.ADMIN_TOKEN) return process.env.ADMIN_TOKEN;
  const devVars = path.join(ROOT, ".dev.vars");
  const host = new URL(baseUrl).hostname;
  if (["127.0.0.1", "localhost", "[::1]"].includes(host) && existsSync(devVars)) {
    const token = parseVars(readFileSync(devVars, "utf8")).ADMIN_TOKEN;
    if (token) return token;
  }
  return fail("no admin token: pass --admin-token or set ADMIN_TOKEN", 2);
}

function switchValue(name) {
  const raw = values[name];
  if (raw === undefined) return undefined;
  if (raw !== "true" && raw !== "false") fail(`--${name} takes true or false`, 2);
  return raw === "true";
}

/** `--retention-days`: a number of days, null for `none`, undefined when not given. */
function retentionDays() {
  const raw = values["retention-days"];
  if (raw === undefined) return undefined;
  if (raw === "none") return null;
  // The range is the service's to check: its answer names the field and the limits.
  if (!/^\d+$/.test(raw)) fail("--retention-days takes a number of days or none", 2);
  return Number(raw);
}

/** One line for a problem document: its detail, then each field error. */
function problemLine(text) {
  try {
    const problem = JSON.parse(text);
    const fields = (problem.errors ?? []).map((e) => `${e.path}: ${e.message}`);
    return [problem.detail ?? problem.title, ...fields].filter(Boolean).join("; ");
  } catch {
    return text.replace(/\s+/g, " ").trim().slice(0, 200);
  }
}

async function call(method, route, body) {
  let res;
  try {
    res = await fetch(`${baseUrl}/admin/v1${route}`, {
      method,
      headers: { authorization: `Bearer ${adminToken()}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    const code = error.cause?.code ?? error.cause?.message ?? error.message;
    fail(
      `cannot reach the service at ${baseUrl} (${code}); is it running? (set PORT or --base-url)`,
    );
  }
  const text = await res.text();
  if (res.status === 401)
    fail(`the admin token was refused by ${baseUrl} (401); check --admin-token or ADMIN_TOKEN`);
  if (!res.ok) fail(`${method} /admin/v1${route} failed with ${res.status}: ${problemLine(text)}`);
  return text === "" ? null : JSON.parse(text);
}

/** Every item of a paged admin list, following next_cursor. */
async function listAll(route) {
  const items = [];
  let cursor = null;
  do {
    const sep = route.includes("?") ? "&" : "?";
    const page = await call(
      "GET",
      `${route}${sep}limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
    );
    items.push(...page.data);
    cursor = page.next_cursor;
  } while (cursor);
  return items;
}

/** One change of an audit entry: `field: before → after` (a side left out is absent). */
function changeText([field, change]) {
  const side = (key) => (key in change ? JSON.stringify(change[key]) : "");
  return `${field}: ${side("before")} → ${side("after")}`.replace(/ +$/, "");
}

/** The newest `limit` entries of a workspace's audit trail (all without a limit). */
async function auditEntries(workspaceId, action, limit) {
  const query = action ? `?action=${encodeURIComponent(action)}` : "";
  const entries = [];
  let cursor = null;
  do {
    const sep = query ? "&" : "?";
    const size = Math.min(100, limit - entries.length);
    const page = await call(
      "GET",
      `/workspaces/${encodeURIComponent(workspaceId)}/audit-log${query}${sep}limit=${size}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
    );
    entries.push(...page.data);
    cursor = page.next_cursor;
  } while (cursor && entries.length < limit);
  return entries;
}

/** Prints rows as aligned columns (or JSON with --json). */
function table(items, columns) {
  if (values.json) return process.stdout.write(`${JSON.stringify(items, null, 2)}\n`);
  const rows = [
    columns.map(([title]) => title),
    ...items.map((item) => columns.map(([, f]) => f(item))),
  ];
  const widths = columns.map((_, i) => Math.max(...rows.map((row) => row[i].length)));
  for (const row of rows)
    process.stdout.write(
      `${row
        .map((cell, i) => cell.padEnd(widths[i]))
        .join("  ")
        .trimEnd()}\n`,
    );
}

const [resource, action, id] = positionals;
let result;
if (resource === "audit") {
  const raw = values.limit ?? "Infinity";
  if (raw !== "Infinity" && !/^[1-9]\d*$/.test(raw)) fail("--limit takes a positive number", 2);
  const entries = await auditEntries(action, values.action, Number(raw));
  table(entries, [
    ["TIME", (e) => e.created_at],
    ["ACTION", (e) => e.action],
    ["ACTOR", (e) => e.actor],
    ["TARGET", (e) => e.target_id],
    ["REQUEST", (e) => e.request_id ?? "-"],
    [
      "CHANGES",
      (e) =>
        Object.entries(e.changes ?? {})
          .map(changeText)
          .join("; "),
    ],
  ]);
  process.exit(0);
}
switch (`${resource} ${action}`) {
  case "workspaces list":
    table(await listAll("/workspaces"), [
      ["ID", (w) => w.id],
      ["ALPHA", (w) => (w.alpha_opt_in ? "yes" : "no")],
      ["PRIVATE", (w) => (w.index_private_tags ? "indexed" : "dropped")],
      ["RETENTION", (w) => (w.retention_days === null ? "keep" : `${w.retention_days}d`)],
      ["CREATED", (w) => w.created_at],
      ["NAME", (w) => w.name],
    ]);
    process.exit(0);
    break;
  case "keys list":
    if (!values.workspace) fail("keys list needs --workspace", 2);
    table(await listAll(`/keys?workspace_id=${encodeURIComponent(values.workspace)}`), [
      ["ID", (k) => k.id],
      ["WORKSPACE", (k) => k.workspace_id],
      ["TYPE", (k) => k.type],
      ["PERMISSIONS", (k) => (k.permissions.length ? k.permissions.join(",") : "(none)")],
      ["EXPIRES", (k) => k.expires_at ?? "never"],
      ["REVOKED", (k) => k.revoked_at ?? "no"],
    ]);
    process.exit(0);
    break;
  case "workspaces create":
    if (!values.name) fail("workspaces create needs --name", 2);
    result = await call("POST", "/workspaces", {
      name: values.name,
      alpha_opt_in: switchValue("alpha-opt-in") ?? false,
      index_private_tags: switchValue("index-private-tags") ?? false,
      ...(retentionDays() === undefined ? {} : { retention_days: retentionDays() }),
    });
    break;
  case "workspaces update": {
    if (!id) fail("workspaces update needs a workspace id", 2);
    const change = {};
    if (values.name !== undefined) change.name = values.name;
    if (switchValue("alpha-opt-in") !== undefined)
      change.alpha_opt_in = switchValue("alpha-opt-in");
    if (switchValue("index-private-tags") !== undefined)
      change.index_private_tags = switchValue("index-private-tags");
    if (retentionDays() !== undefined) change.retention_days = retentionDays();
    result = await call("PATCH", `/workspaces/${encodeURIComponent(id)}`, change);
    break;
  }
  case "workspaces delete":
    if (!id) fail("workspaces delete needs a workspace id", 2);
    // Nothing brings an erased workspace back: the operator says so in the command itself.
    if (!values.yes)
      fail(`workspaces delete erases ${id} and everything in it for good; add --yes to do it`, 2);
    result = await call("DELETE", `/workspaces/${encodeURIComponent(id)}`);
    break;
  case "keys create": {
    if (!values.workspace) fail("keys create needs --workspace", 2);
    const body = {
      workspace_id: values.workspace,
      type: values.type,
      permissions: values.permissions
        .split(",")
        .map((p) => p.trim())
        .filter(Boolean),
    };
    if (values["expires-at"]) body.expires_at = values["expires-at"];
    // The same owner as an existing key: both then manage the same rulebooks.
    if (values.owner) body.owner_id = values.owner;
    result = await call("POST", "/keys", body);
    break;
  }
  case "keys revoke":
    if (!id) fail("keys revoke needs a key id", 2);
    await call("DELETE", `/keys/${encodeURIComponent(id)}`);
    result = { id, revoked: true };
    break;
  case "webhooks listen":
    if (!values.workspace) fail("webhooks listen needs --workspace", 2);
    await listen({
      baseUrl,
      admin: call,
      workspace: values.workspace,
      events: values.events
        .split(",")
        .map((e) => e.trim())
        .filter(Boolean),
      fail,
    });
    break;
  default:
    fail(USAGE, 2);
}
process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
