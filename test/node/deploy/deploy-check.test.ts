import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  checkBundleSize,
  checkCors,
  checkDistinctName,
  checkNoLocalOnlyParts,
  checkObservability,
  checkReachable,
  checkSecrets,
  checkStartsWithoutExperimental,
  checkVectorIndex,
} from "../../../scripts/lib/deploy-checks.mjs";
import { DEPLOYED_SECRETS } from "../../../scripts/lib/deploy-secrets.mjs";
import { VECTOR_INDEX } from "../../../scripts/lib/deploy-steps.mjs";
import { type ResolvedConfig, resolvedConfig } from "../../../scripts/lib/production-config.mjs";

// Each check of `npm run deploy:check` passes on the committed files and fails, in one line
// naming what is wrong, on a copy broken in exactly that respect. npm test runs the whole
// command (with the real dry-run bundle) before vitest.
const ROOT = path.resolve(import.meta.dirname, "../../..");
const toml = readFileSync(path.join(ROOT, "wrangler.toml"), "utf8");
const envSource = readFileSync(path.join(ROOT, "src/env.ts"), "utf8");
const cors = JSON.parse(readFileSync(path.join(ROOT, "deploy/r2-cors.json"), "utf8"));
const dir = mkdtempSync(path.join(tmpdir(), "vas-deploy-check-"));
let production: ResolvedConfig;
let local: ResolvedConfig;

/** The production configuration of wrangler.toml changed by `edit`, as wrangler resolves it. */
async function productionWith(edit: (text: string) => string): Promise<ResolvedConfig> {
  const edited = edit(toml);
  expect(edited, "the edit changed nothing").not.toBe(toml);
  const file = path.join(dir, `wrangler-${randomBytes(4).toString("hex")}.toml`);
  writeFileSync(file, edited);
  return resolvedConfig(file, "production");
}

/** An outdir holding a tiny Worker, plus `extra` files. */
function bundle(extra: Record<string, Buffer> = {}): string {
  const out = mkdtempSync(path.join(dir, "bundle-"));
  writeFileSync(
    path.join(out, "index.js"),
    'export default { fetch() { return new Response("ok"); } };\n',
  );
  for (const [name, bytes] of Object.entries(extra)) writeFileSync(path.join(out, name), bytes);
  return out;
}

const oneLine = (problem: string | null | undefined) => {
  expect(problem).toEqual(expect.any(String));
  expect(problem).not.toContain("\n");
  return problem as string;
};

beforeAll(async () => {
  [production, local] = await Promise.all([
    resolvedConfig(path.join(ROOT, "wrangler.toml"), "production"),
    resolvedConfig(path.join(ROOT, "wrangler.toml")),
  ]);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("npm run deploy:check", () => {
  it("holds the bundle to Workers Paid's size limits", () => {
    expect(checkBundleSize(bundle()).problem).toBeUndefined();
    const compressed = checkBundleSize(bundle({ "noise.bin": randomBytes(10_100_000) }));
    expect(oneLine(compressed.problem)).toMatch(
      /^the bundle is 10\.1\d MB gzipped, over the 10\.00 MB limit$/,
    );
    const raw = checkBundleSize(bundle({ "zeros.bin": Buffer.alloc(65 * 1024 * 1024) }));
    expect(oneLine(raw.problem)).toMatch(/^the bundle is 68\.\d\d MB, over the 67\.11 MB limit$/);
  });

  it("keeps the screen reader's native and GPL parts out of the bundle", () => {
    expect(checkNoLocalOnlyParts(bundle())).toBeNull();
    const sidecar = "// src/ports/screen-reader/sidecar.ts\nvar SidecarScreenReader = class {};\n";
    expect(checkNoLocalOnlyParts(bundle({ "chunk.js": Buffer.from(sidecar) }))).toBeNull();
    const ocr = "// node_modules/onnxruntime-node/dist/index.js\nvar ort = {};\n";
    expect(checkNoLocalOnlyParts(bundle({ "chunk.js": Buffer.from(ocr) }))).toBe(
      "the bundle holds node_modules/onnxruntime-node/dist/index.js, a part of the local screen reader",
    );
    const reader = "// screen-reader/read-frame.mjs\nvar x = 1;\n";
    expect(checkNoLocalOnlyParts(bundle({ "chunk.js": Buffer.from(reader) }))).toMatch(
      /^the bundle holds screen-reader\/read-frame\.mjs/,
    );
    expect(checkNoLocalOnlyParts(bundle({ "ffmpeg.node": Buffer.from([0x7f]) }))).toBe(
      "the bundle holds a native module, ffmpeg.node",
    );
  });

  it("starts production's date and flags in workerd without --experimental", async () => {
    expect(checkStartsWithoutExperimental(bundle(), production)).toBeNull();
    const inherited = await productionWith((t) => t.replace("\ncompatibility_flags = []\n", "\n"));
    expect(inherited.compatibility_flags).toEqual(["service_binding_extra_handlers"]);
    expect(oneLine(checkStartsWithoutExperimental(bundle(), inherited))).toMatch(
      /^workerd does not start the production Worker \(date 2026-04-20, flags \[service_binding_extra_handlers\], no --experimental\): .*service_binding_extra_handlers is experimental/,
    );
    const future = { ...production, compatibility_date: "2999-01-01" };
    expect(oneLine(checkStartsWithoutExperimental(bundle(), future))).toMatch(
      /^workerd does not start the production Worker \(date 2999-01-01/,
    );
    const broken = bundle({
      "index.js": Buffer.from('throw new Error("top-level");\nexport default {};\n'),
    });
    expect(oneLine(checkStartsWithoutExperimental(broken, production))).toMatch(
      /Uncaught Error: top-level$/,
    );
  });

  it("needs a URL, a name of its own and Workers Logs", async () => {
    expect(checkReachable(production)).toBeNull();
    expect(checkDistinctName(production, local)).toBeNull();
    expect(checkObservability(production)).toBeNull();
    const hidden = await productionWith((t) => t.replace(/^routes = .*$/m, "routes = []"));
    expect(oneLine(checkReachable(hidden))).toBe(
      "[env.production] has no URL: give it routes (a custom domain or a route) or workers_dev = true",
    );
    const sameName = await productionWith((t) =>
      t.replace('name = "video-analysis-service-production"', 'name = "video-analysis-service"'),
    );
    expect(oneLine(checkDistinctName(sameName, local))).toBe(
      "[env.production] is named video-analysis-service like the local configuration: give it its own name",
    );
    const dark = await productionWith((t) =>
      t.replace(/\[env\.production\.observability\][^[]*/, ""),
    );
    expect(oneLine(checkObservability(dark))).toBe(
      "[env.production] has Workers Logs off: set observability.enabled = true",
    );
  });

  it("holds the secrets the code reads to the ones the deploy sets", () => {
    expect(checkSecrets(envSource, DEPLOYED_SECRETS)).toBeNull();
    const unread = envSource.replace(/^\s*R2_SECRET_ACCESS_KEY\?: string;\n/m, "");
    expect(oneLine(checkSecrets(unread, DEPLOYED_SECRETS))).toBe(
      "src/env.ts DeployedSecrets and the deploy's secrets differ: the code does not read R2_SECRET_ACCESS_KEY",
    );
    const unset = envSource.replace(
      "export interface DeployedSecrets {",
      "export interface DeployedSecrets {\n  STRIPE_KEY?: string;",
    );
    expect(oneLine(checkSecrets(unset, DEPLOYED_SECRETS))).toBe(
      "src/env.ts DeployedSecrets and the deploy's secrets differ: the deploy does not set STRIPE_KEY",
    );
    const unclassed = envSource.replace(
      "export type Secrets = DeployedSecrets & OptionalSecrets & TestOnlySecrets;",
      "export type Secrets = DeployedSecrets & OptionalSecrets & TestOnlySecrets & { NEW?: string };",
    );
    expect(oneLine(checkSecrets(unclassed, DEPLOYED_SECRETS))).toMatch(
      /^src\/env\.ts Secrets must be DeployedSecrets & OptionalSecrets & TestOnlySecrets/,
    );
  });

  it("needs the CORS rule to let the API's origin PUT with content-type and read ETag", async () => {
    expect(checkCors(cors, production)).toBeNull();
    const rule = cors.rules[0];
    const cases: [unknown, string][] = [
      [
        { rules: [{ ...rule, allowed: { ...rule.allowed, origins: ["https://other.test"] } }] },
        "has no rule for the API's origin https://api.example.com",
      ],
      [
        { rules: [{ ...rule, allowed: { ...rule.allowed, methods: ["GET"] } }] },
        "does not allow PUT from https://api.example.com",
      ],
      [
        { rules: [{ ...rule, allowed: { ...rule.allowed, headers: [] } }] },
        "does not allow the content-type header from https://api.example.com",
      ],
      [
        { rules: [{ ...rule, exposeHeaders: [] }] },
        "does not expose ETag to https://api.example.com",
      ],
    ];
    for (const [broken, line] of cases)
      expect(oneLine(checkCors(broken, production))).toBe(`deploy/r2-cors.json ${line}`);
    const workersDev = await productionWith((t) =>
      t
        .replace(/^workers_dev = false$/m, "workers_dev = true")
        .replace(/^routes = .*$/m, "routes = []"),
    );
    expect(oneLine(checkCors(cors, workersDev))).toBe(
      "deploy/r2-cors.json has no rule for the API's origin https://video-analysis-service-production.<subdomain>.workers.dev",
    );
    const onWorkersDev = {
      rules: [
        {
          ...rule,
          allowed: {
            ...rule.allowed,
            origins: ["https://video-analysis-service-production.acme.workers.dev"],
          },
        },
      ],
    };
    expect(checkCors(onWorkersDev, workersDev)).toBeNull();
  });

  it("makes the Vectorize index the embedder fills and the adapter filters", () => {
    const embedder = readFileSync(path.join(ROOT, "src/ports/embedder/workers-ai.ts"), "utf8");
    const adapter = readFileSync(path.join(ROOT, "src/ports/vector-index/vectorize.ts"), "utf8");
    expect(checkVectorIndex(embedder, adapter, VECTOR_INDEX)).toBeNull();
    const smaller = embedder.replace("const DIMENSIONS = 1024;", "const DIMENSIONS = 768;");
    expect(oneLine(checkVectorIndex(smaller, adapter, VECTOR_INDEX))).toBe(
      "the deploy creates a 1024-dimension index but the embedder makes 768 (src/ports/embedder/workers-ai.ts)",
    );
    const byLanguage = adapter.replace("{ video_id: { $in: ids } }", "{ language: { $in: ids } }");
    expect(oneLine(checkVectorIndex(embedder, byLanguage, VECTOR_INDEX))).toBe(
      "the Vectorize adapter filters on language, which the deploy gives no metadata index",
    );
  });

  it("fails in one line per problem, exit 1, and refuses placeholders only when deploying", async () => {
    // A copy whose `main` does not exist beside it: the dry run fails, the other checks run.
    const copy = mkdtempSync(path.join(dir, "copy-"));
    mkdirSync(path.join(copy, "deploy"));
    writeFileSync(path.join(copy, "wrangler.toml"), toml);
    copyFileSync(path.join(ROOT, "deploy/r2-cors.json"), path.join(copy, "deploy/r2-cors.json"));
    const check = (...args: string[]) =>
      new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
        execFile(
          process.execPath,
          ["scripts/deploy-check.mjs", "--config", path.join(copy, "wrangler.toml"), ...args],
          { cwd: ROOT },
          (error, stdout, stderr) =>
            resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
        ),
      );
    const ran = await check();
    expect(ran.code).toBe(1);
    const failures = ran.stderr.trimEnd().split("\n");
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatch(
      /^deploy:check bundle: wrangler deploy --dry-run --env production failed: .*index\.ts/,
    );
    expect(ran.stdout).toMatch(/^deploy:check cors: /m);
    // The committed template stays checkable: its placeholders are named, not failed.
    expect(ran.stdout).toMatch(
      /^deploy:check values: template placeholders in routes, vars\.R2_ACCOUNT_ID, d1_databases\[DB\]\.database_id, allowed without --deploying/m,
    );

    const deploying = await check("--deploying");
    expect(deploying.code).toBe(1);
    expect(deploying.stderr.trimEnd().split("\n").slice(1)).toEqual([
      "deploy:check values: [env.production] routes is the template's placeholder api.example.com: npm run deploy writes it, or set it",
      "deploy:check values: [env.production] vars.R2_ACCOUNT_ID is the template's placeholder replace-with-your-account-id: npm run deploy writes it, or set it",
      "deploy:check values: [env.production] d1_databases[DB].database_id is the template's placeholder replace-with-your-d1-database-id: npm run deploy writes it, or set it",
      "deploy:check values: [env.production] has no account_id: wrangler would deploy to whichever account the login picks",
    ]);
  }, 300_000);
});
