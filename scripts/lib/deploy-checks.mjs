// What `npm run deploy:check` holds the production configuration to, offline. Each check
// answers null when it holds, else one plain line naming what is wrong.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { stripVTControlCharacters } from "node:util";
import { gzipSync } from "node:zlib";
import ts from "typescript";
import { ROOT } from "./local.mjs";
import { apiOrigin, reachOf } from "./production-config.mjs";

/**
 * Workers Paid: 10 MB gzip-compressed, the limit Cloudflare's upload refused over for years;
 * its current limits page names 64 MiB uncompressed instead. The bundle must fit both.
 */
export const BUNDLE_LIMITS = { gzipBytes: 10 * 1000 * 1000, rawBytes: 64 * 1024 * 1024 };

const mb = (bytes) => `${(bytes / 1e6).toFixed(2)} MB`;

/** The uploaded modules of a dry-run outdir (source maps and wrangler's README excluded). */
function modules(outdir) {
  return readdirSync(outdir).filter((f) => !f.endsWith(".map") && f !== "README.md");
}

/** The bundle's size, raw and gzipped module by module, against the plan's limits. */
export function checkBundleSize(outdir, limits = BUNDLE_LIMITS) {
  let raw = 0;
  let gzip = 0;
  for (const file of modules(outdir)) {
    const bytes = readFileSync(path.join(outdir, file));
    raw += bytes.length;
    gzip += gzipSync(bytes).length;
  }
  const size = `${mb(raw)} (${mb(gzip)} gzip)`;
  if (gzip > limits.gzipBytes)
    return { problem: `the bundle is ${mb(gzip)} gzipped, over the ${mb(limits.gzipBytes)} limit` };
  if (raw > limits.rawBytes)
    return { problem: `the bundle is ${mb(raw)}, over the ${mb(limits.rawBytes)} limit` };
  return { ok: size };
}

/**
 * Where the bundle's modules came from, as esbuild names each in a comment: the screen
 * reader and its native and GPL parts (onnxruntime, sharp, ffmpeg) run beside the local
 * Worker only, never inside it.
 */
const LOCAL_ONLY_SOURCE =
  /^\/\/ (screen-reader\/\S+|node_modules\/(@gutenye|onnxruntime-[a-z]+|@ffmpeg-installer|sharp|@img)\/\S*)/m;

/** The bundle holds none of the screen reader's parts and no native module. */
export function checkNoLocalOnlyParts(outdir) {
  for (const file of modules(outdir)) {
    if (file.endsWith(".node")) return `the bundle holds a native module, ${file}`;
    const found = readFileSync(path.join(outdir, file), "utf8").match(LOCAL_ONLY_SOURCE);
    if (found) return `the bundle holds ${found[1]}, a part of the local screen reader`;
  }
  return null;
}

/** workerd's module kind for each file of the outdir, from the configuration's rules. */
function moduleKind(file, rules) {
  if (file.endsWith(".wasm")) return "wasm";
  for (const rule of rules ?? [])
    for (const glob of rule.globs ?? [])
      if (file.endsWith(`-${path.basename(glob)}`))
        return { Text: "text", Data: "data", CompiledWasm: "wasm" }[rule.type] ?? "esModule";
  return "esModule";
}

/**
 * Starts the bundle in the project's workerd with the production date and flags and without
 * `--experimental`, as Cloudflare's upload would: `workerd test` evaluates every module and
 * runs a test that needs the Worker's fetch handler.
 */
export function checkStartsWithoutExperimental(outdir, config) {
  const dir = mkdtempSync(path.join(tmpdir(), "vas-workerd-"));
  try {
    const files = modules(outdir);
    for (const file of files)
      writeFileSync(path.join(dir, file), readFileSync(path.join(outdir, file)));
    writeFileSync(
      path.join(dir, "start.js"),
      'import worker from "./index.js";\nexport default { test() { if (typeof worker?.fetch !== "function") throw new Error("the bundle exports no fetch handler"); } };\n',
    );
    const entries = ["start.js", ...files].map(
      (file) =>
        `(name = ${JSON.stringify(file)}, ${file === "start.js" ? "esModule" : moduleKind(file, config.rules)} = embed ${JSON.stringify(file)})`,
    );
    writeFileSync(
      path.join(dir, "config.capnp"),
      `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (services = [(name = "production", worker = .worker)]);
const worker :Workerd.Worker = (
  modules = [${entries.join(", ")}],
  compatibilityDate = ${JSON.stringify(config.compatibility_date)},
  compatibilityFlags = [${(config.compatibility_flags ?? []).map((f) => JSON.stringify(f)).join(", ")}],
);
`,
    );
    const result = spawnSync(
      path.join(ROOT, "node_modules/.bin/workerd"),
      ["test", "config.capnp"],
      {
        cwd: dir,
        encoding: "utf8",
      },
    );
    if (result.status === 0) return null;
    const said = `${result.stderr}\n${result.stdout}`
      .split("\n")
      .map((line) => stripVTControlCharacters(line).trim())
      .find((line) => /error|experimental|compatib|uncaught/i.test(line));
    return `workerd does not start the production Worker (date ${config.compatibility_date}, flags [${(config.compatibility_flags ?? []).join(", ")}], no --experimental): ${said ?? `exit ${result.status}`}`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The production configuration has a URL: a custom domain, a route or workers.dev. */
export function checkReachable(config) {
  return reachOf(config) === null
    ? "[env.production] has no URL: give it routes (a custom domain or a route) or workers_dev = true"
    : null;
}

/** Production and local are different Workers, so a bare `wrangler deploy` cannot replace it. */
export function checkDistinctName(production, local) {
  return production.name === local.name
    ? `[env.production] is named ${production.name} like the local configuration: give it its own name`
    : null;
}

/** Workers Logs are on for production. */
export function checkObservability(config) {
  const o = config.observability;
  const on = o?.enabled === true && o?.logs?.enabled !== false;
  return on ? null : "[env.production] has Workers Logs off: set observability.enabled = true";
}

/** The members of each interface of a TypeScript file, by interface name. */
function interfaceMembers(source) {
  const file = ts.createSourceFile("env.ts", source, ts.ScriptTarget.Latest);
  const found = {};
  let secrets = null;
  for (const node of file.statements) {
    if (ts.isInterfaceDeclaration(node))
      found[node.name.text] = node.members.map((m) => m.name?.getText(file)).filter(Boolean);
    if (ts.isTypeAliasDeclaration(node) && node.name.text === "Secrets")
      secrets = ts.isIntersectionTypeNode(node.type)
        ? node.type.types.map((t) => t.getText(file))
        : [node.type.getText(file)];
  }
  return { found, secrets };
}

/**
 * src/env.ts `Secrets` is exactly deployed, optional and test-only secrets, and the deployed
 * ones are exactly what the deploy sets.
 */
export function checkSecrets(envSource, deployed) {
  const { found, secrets } = interfaceMembers(envSource);
  const groups = ["DeployedSecrets", "OptionalSecrets", "TestOnlySecrets"];
  if (JSON.stringify(secrets?.slice().sort()) !== JSON.stringify(groups.slice().sort()))
    return `src/env.ts Secrets must be ${groups.join(" & ")}, so each secret the code reads is classed (it is ${secrets?.join(" & ") ?? "missing"})`;
  const code = found.DeployedSecrets ?? [];
  const notSet = code.filter((name) => !deployed.includes(name));
  const notRead = deployed.filter((name) => !code.includes(name));
  if (notSet.length === 0 && notRead.length === 0) return null;
  const parts = [];
  if (notSet.length) parts.push(`the deploy does not set ${notSet.join(", ")}`);
  if (notRead.length) parts.push(`the code does not read ${notRead.join(", ")}`);
  return `src/env.ts DeployedSecrets and the deploy's secrets differ: ${parts.join("; ")}`;
}

const lower = (list) => (list ?? []).map((item) => item.toLowerCase());

/** The bucket's CORS rule lets the API's origin PUT with content-type and read ETag. */
export function checkCors(corsJson, config) {
  const reach = reachOf(config);
  if (reach === null) return "the CORS rule cannot be checked: production has no URL";
  const target = apiOrigin(reach, config.name);
  const wanted = target.origin ?? `https://${config.name}.<subdomain>.workers.dev`;
  const fits = (origin) => (target.origin ? origin === target.origin : target.pattern.test(origin));
  const rule = (corsJson.rules ?? []).find((r) => (r.allowed?.origins ?? []).some(fits));
  const file = "deploy/r2-cors.json";
  if (!rule) return `${file} has no rule for the API's origin ${wanted}`;
  if (!(rule.allowed.methods ?? []).includes("PUT"))
    return `${file} does not allow PUT from ${wanted}`;
  const headers = lower(rule.allowed.headers);
  if (!headers.includes("content-type") && !headers.includes("*"))
    return `${file} does not allow the content-type header from ${wanted}`;
  if (!lower(rule.exposeHeaders).includes("etag"))
    return `${file} does not expose ETag to ${wanted}`;
  return null;
}

/**
 * The Vectorize index the deploy creates fits the production adapters: the embedder's
 * dimensions (`DIMENSIONS` in src/ports/embedder/workers-ai.ts) and a metadata index for
 * each key the Vectorize adapter filters on (`{ key: { $eq | $in } }` in vector-index/vectorize.ts).
 */
export function checkVectorIndex(embedderSource, adapterSource, index) {
  const dimensions = Number(
    embedderSource.match(/const DIMENSIONS = ([\d_]+);/)?.[1]?.replace(/_/g, ""),
  );
  if (dimensions !== index.dimensions)
    return `the deploy creates a ${index.dimensions}-dimension index but the embedder makes ${Number.isNaN(dimensions) ? "vectors of unknown size" : `${dimensions}`} (src/ports/embedder/workers-ai.ts)`;
  const filtered = [...adapterSource.matchAll(/\{ (\w+): \{ \$(?:eq|in):/g)].map((m) => m[1]);
  const indexed = index.metadata.map((m) => m.propertyName);
  const unindexed = [...new Set(filtered)].filter((key) => !indexed.includes(key));
  if (filtered.length === 0)
    return "src/ports/vector-index/vectorize.ts filters on no metadata key the check can read";
  return unindexed.length
    ? `the Vectorize adapter filters on ${unindexed.join(", ")}, which the deploy gives no metadata index`
    : null;
}
