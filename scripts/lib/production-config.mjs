// The production configuration: wrangler.toml's [env.production] as wrangler resolves it,
// where it answers, and the few values `npm run deploy` writes into it. Writing is a
// line-for-line rewrite of named keys in named tables, so the same values give the same bytes.

/** The template's custom domain: a deploy must be told where the API answers instead. */
export const TEMPLATE_HOST = "api.example.com";

/**
 * A template value no deployment may ship: `replace-with-your-…`, the all-zero id the local
 * configuration uses, or a host of the reserved example domains (RFC 2606).
 */
export function isPlaceholder(value) {
  if (typeof value !== "string") return false;
  if (/replace-with-your-/.test(value)) return true;
  if (/^0{8}-0{4}-[0-9a-f]0{3}-[0-9a-f]0{3}-0{12}$/i.test(value)) return true;
  const host = value.replace(/^https?:\/\//, "").replace(/[/:].*$/, "");
  return /(^|\.)example\.(com|net|org)$|\.(example|invalid)$/i.test(host);
}

/** The keys `npm run deploy` writes, so a placeholder in one of them is its to replace. */
export const WRITTEN_KEYS = [
  "account_id",
  "routes",
  "vars.R2_ACCOUNT_ID",
  "d1_databases[DB].database_id",
];

/**
 * The values of a resolved production configuration that identify the account and its
 * resources, by key: where placeholders would sit.
 */
function identifyingValues(config) {
  const values = [["account_id", config.account_id]];
  for (const route of config.routes ?? [])
    values.push(["routes", typeof route === "string" ? route : route.pattern]);
  for (const [name, value] of Object.entries(config.vars ?? {}))
    values.push([`vars.${name}`, value]);
  for (const db of config.d1_databases ?? [])
    values.push([`d1_databases[${db.binding}].database_id`, db.database_id]);
  return values;
}

/** The placeholders of a resolved configuration, as `{ key, value }`. */
export function placeholdersIn(config) {
  return identifyingValues(config)
    .filter(([, value]) => isPlaceholder(value))
    .map(([key, value]) => ({ key, value }));
}

/**
 * What a configuration about to ship must hold, one line per problem (none: it may ship):
 * no placeholder, an `account_id`, and the same account in `R2_ACCOUNT_ID` (the presigned
 * URLs' endpoint).
 */
export function checkDeployedValues(config) {
  const lines = placeholdersIn(config).map(
    ({ key, value }) =>
      `[env.production] ${key} is the template's placeholder ${value}: npm run deploy writes it, or set it`,
  );
  const accountId = config.account_id;
  const r2Account = config.vars?.R2_ACCOUNT_ID;
  if (!accountId)
    lines.push(
      "[env.production] has no account_id: wrangler would deploy to whichever account the login picks",
    );
  else if (
    r2Account &&
    !isPlaceholder(r2Account) &&
    r2Account !== accountId &&
    !isPlaceholder(accountId)
  )
    lines.push(
      `[env.production] vars.R2_ACCOUNT_ID ${r2Account} is not account_id ${accountId}: upload URLs would name another account`,
    );
  return lines;
}

/** wrangler's own reading of the configuration for `env` (undefined: the top level). */
export async function resolvedConfig(configPath, env) {
  const { unstable_readConfig } = await import("wrangler");
  return unstable_readConfig({ config: configPath, env }, { hideWarnings: true });
}

/**
 * Where a resolved configuration answers: a custom domain, a zone route (a whole host) or
 * workers.dev; null when it has no URL at all (crons and consumers would still run).
 */
export function reachOf(config) {
  const routes = config.routes ?? [];
  const first = routes[0];
  if (first !== undefined) {
    const pattern = typeof first === "string" ? first : first.pattern;
    const host = pattern.replace(/^https?:\/\//, "").replace(/\/.*$/, "");
    const kind = typeof first === "object" && first.custom_domain ? "domain" : "route";
    return { kind, host };
  }
  return config.workers_dev === true ? { kind: "workers.dev" } : null;
}

/** The API's origin for a domain or route; for workers.dev, the shape it must have. */
export function apiOrigin(reach, workerName) {
  if (reach.kind === "workers.dev") {
    const name = workerName.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    return { pattern: new RegExp(`^https://${name}\\.[a-z0-9-]+\\.workers\\.dev$`) };
  }
  return { origin: `https://${reach.host}` };
}

/** The routes and workers_dev lines for a reach chosen by flag. */
export function reachValues(reach) {
  if (reach.kind === "domain")
    return { workers_dev: false, routes: [{ pattern: reach.host, custom_domain: true }] };
  if (reach.kind === "route") return { workers_dev: false, routes: [`${reach.host}/*`] };
  return { workers_dev: true, routes: [] };
}

function tomlValue(value) {
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "boolean" || typeof value === "number") return String(value);
  if (Array.isArray(value)) return `[${value.map(tomlValue).join(", ")}]`;
  const pairs = Object.entries(value).map(([key, inner]) => `${key} = ${tomlValue(inner)}`);
  return `{ ${pairs.join(", ")} }`;
}

/**
 * Sets `key = value` inside the first table whose header line is `header` (for example
 * `[env.production.vars]` or `[[env.production.d1_databases]]`): the key's line is replaced,
 * or, when the table lacks it, added right under the table's existing keys' first line.
 */
export function setTomlKey(text, header, key, value) {
  const lines = text.split("\n");
  const start = lines.findIndex((line) => line.trim() === header);
  if (start < 0) throw new Error(`wrangler.toml has no ${header} table`);
  let end = lines.findIndex((line, i) => i > start && /^\s*\[/.test(line));
  if (end < 0) end = lines.length;
  const line = `${key} = ${tomlValue(value)}`;
  const at = lines.findIndex((l, i) => i > start && i < end && new RegExp(`^${key}\\s*=`).test(l));
  if (at >= 0) lines[at] = line;
  else {
    const firstKey = lines.findIndex((l, i) => i > start && i < end && /^[A-Za-z_]/.test(l));
    lines.splice(firstKey >= 0 ? firstKey + 1 : start + 1, 0, line);
  }
  return lines.join("\n");
}

/** wrangler.toml with the deploy's values written into [env.production]. */
export function withProductionValues(text, { accountId, databaseId, reach }) {
  let out = text;
  const { workers_dev, routes } = reachValues(reach);
  out = setTomlKey(out, "[env.production]", "account_id", accountId);
  out = setTomlKey(out, "[env.production]", "workers_dev", workers_dev);
  out = setTomlKey(out, "[env.production]", "routes", routes);
  out = setTomlKey(out, "[env.production.vars]", "R2_ACCOUNT_ID", accountId);
  out = setTomlKey(out, "[[env.production.d1_databases]]", "database_id", databaseId);
  return out;
}

/**
 * JSON as Biome formats this repository's files: objects one key a line, arrays of plain
 * values on one line when they fit in 100 columns, two-space indent, a final newline.
 */
export function formatJson(value) {
  // `lead` is what precedes the value on its line; the trailing comma counts too.
  const write = (v, indent, lead) => {
    if (v === null || typeof v !== "object") return JSON.stringify(v);
    const inner = `${indent}  `;
    if (Array.isArray(v)) {
      if (v.length === 0) return "[]";
      const flat = `[${v.map((item) => JSON.stringify(item)).join(", ")}]`;
      const plain = v.every((item) => item === null || typeof item !== "object");
      if (plain && lead + flat.length + 1 <= 100) return flat;
      const items = v.map((item) => inner + write(item, inner, inner.length));
      return `[\n${items.join(",\n")}\n${indent}]`;
    }
    const entries = Object.entries(v);
    if (entries.length === 0) return "{}";
    const body = entries.map(([k, item]) => {
      const head = `${inner}${JSON.stringify(k)}: `;
      return head + write(item, inner, head.length);
    });
    return `{\n${body.join(",\n")}\n${indent}}`;
  };
  return `${write(value, "", 0)}\n`;
}
