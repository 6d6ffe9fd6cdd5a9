// npm run deploy: takes a Cloudflare account (after `npx wrangler login`) to a working
// service and, run again, changes nothing. One line per step; a failure is one line on
// stderr and a non-zero exit. docs/deploy.md is the operator's page.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { apiHeaders, cloudflareApi } from "./lib/cloudflare-api.mjs";
import { planSecrets, putSecrets, workerSecrets } from "./lib/deploy-secrets.mjs";
import { deploySmoke, saveAdminToken, savedAdminToken } from "./lib/deploy-smoke.mjs";
import {
  chooseAccount,
  ensureBucket,
  ensureBucketRules,
  ensureDatabase,
  ensureQueue,
  ensureVectorIndex,
  readRules,
  resourcePlan,
} from "./lib/deploy-steps.mjs";
import { ROOT } from "./lib/local.mjs";
import { preflight, productionModels } from "./lib/preflight.mjs";
import {
  apiOrigin,
  checkDeployedValues,
  formatJson,
  isPlaceholder,
  placeholdersIn,
  reachOf,
  resolvedConfig,
  TEMPLATE_HOST,
  WRITTEN_KEYS,
  withProductionValues,
} from "./lib/production-config.mjs";
import { corsFile, corsRows, corsRules, lifecycleFile, lifecycleRows } from "./lib/r2-rules.mjs";
import { wranglerRunner } from "./lib/wrangler-cli.mjs";

const USAGE = `usage: npm run deploy -- [--domain HOST | --route HOST | --workers-dev] [options]
  --domain HOST          a custom domain (its zone on the account): https://HOST
  --route HOST           a route HOST/* on a proxied DNS record of a zone on the account
  --workers-dev          https://<worker>.<your subdomain>.workers.dev
  --cors-origin ORIGIN   another origin whose pages upload to the bucket (repeatable)
  --account-id ID        the account, when the login has several
  --location HINT        D1 and R2 location hint on creation (weur, eeur, apac, oc, wnam, enam)
  --rotate-signing-secret, --rotate-admin-token, --rotate-r2-token   set that secret again
  --skip-smoke           do not run the smoke check after the deploy
  --workers-paid         the account is on Workers Paid, when this login cannot read its plan
The first deploy needs one of --domain, --route, --workers-dev; later ones keep it.
Before it creates anything it checks the account (plan, R2, Vectorize, Queues, Workers AI,
the zone or workers.dev subdomain) and refuses with one line per missing prerequisite.
R2_ACCESS_KEY_ID and R2_SECRET_ACCESS_KEY (environment) are needed when the Worker lacks
them or with --rotate-r2-token. docs/deploy.md explains every step.`;

function fail(message, code = 1) {
  process.stderr.write(`${message}\n`);
  process.exit(code);
}

/** Refuses before anything is created: one line per missing prerequisite. */
function refuse(missing) {
  for (const { name, problem } of missing) process.stderr.write(`missing ${name}: ${problem}\n`);
  process.stderr.write("deploy refused: nothing was created\n");
  process.exit(1);
}

let values;
try {
  ({ values } = parseArgs({
    options: {
      domain: { type: "string" },
      route: { type: "string" },
      "workers-dev": { type: "boolean" },
      "cors-origin": { type: "string", multiple: true },
      "account-id": { type: "string" },
      location: { type: "string" },
      "rotate-signing-secret": { type: "boolean" },
      "rotate-admin-token": { type: "boolean" },
      "rotate-r2-token": { type: "boolean" },
      "skip-smoke": { type: "boolean" },
      "workers-paid": { type: "boolean" },
      config: { type: "string", default: path.join(ROOT, "wrangler.toml") },
      help: { type: "boolean", short: "h" },
    },
  }));
} catch (error) {
  fail(`${error.message} (see --help)`, 2);
}
if (values.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}

const step = (name, detail) => process.stdout.write(`${name.padEnd(14)}${detail}\n`);
const configPath = path.resolve(values.config);
const config = await resolvedConfig(configPath, "production");

const chosen = [
  values.domain !== undefined && { kind: "domain", host: values.domain },
  values.route !== undefined && { kind: "route", host: values.route },
  values["workers-dev"] && { kind: "workers.dev" },
].filter(Boolean);
if (chosen.length > 1) fail("choose one of --domain, --route and --workers-dev", 2);
const reach = chosen[0] ?? reachOf(config);
if (reach?.host !== undefined && !/^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(reach.host))
  fail(`${reach.host} is not a host name (like api.example.com)`, 2);
if (!reach || reach.host === TEMPLATE_HOST)
  fail("choose where the API answers: --domain HOST, --route HOST or --workers-dev", 2);
if (isPlaceholder(reach.host))
  fail(`${reach.host} is a reserved example domain: choose the host the API answers at`, 2);
for (const origin of values["cors-origin"] ?? [])
  if (!/^https?:\/\/[a-z0-9.-]+(:\d+)?$/.test(origin))
    fail(`--cors-origin ${origin} is not an origin (scheme://host[:port])`, 2);
// A placeholder the deploy does not write would ship as it is.
const unwritten = placeholdersIn(config).filter((p) => !WRITTEN_KEYS.includes(p.key));
if (unwritten.length > 0)
  refuse(
    unwritten.map(({ key, value }) => ({
      name: "value",
      problem: `[env.production] ${key} is the template's placeholder ${value}: set it in ${path.basename(configPath)}`,
    })),
  );

try {
  const account = await chooseAccount(
    wranglerRunner({ config: configPath }),
    values["account-id"] ?? config.account_id,
  );
  step("account", `${account.name} (${account.id})`);
  const run = wranglerRunner({ config: configPath, accountId: account.id });

  const checks = await preflight({
    run,
    api: cloudflareApi(await apiHeaders(run)),
    accountId: account.id,
    reach,
    models: productionModels(ROOT),
    workersPaidConfirmed: values["workers-paid"] === true,
  });
  for (const check of checks) if (check.ok) step(check.name, check.ok);
  const missing = checks.filter((check) => check.problem);
  if (missing.length > 0) refuse(missing);

  // The R2 token is scoped to the bucket, which the first run creates: without it, this run
  // provisions and stops before the secrets, and says what to do.
  const rotate = new Set(
    ["ADMIN_TOKEN", "SIGNING_SECRET", "R2_TOKEN"].filter(
      (name) => values[`rotate-${name.toLowerCase().replace("_", "-")}`],
    ),
  );
  const { secrets, needsR2Token } = planSecrets(await workerSecrets(run), rotate, process.env);
  // Refused before anything changes: a smoke check without the admin token it needs.
  const adminToken = secrets.ADMIN_TOKEN ?? process.env.ADMIN_TOKEN ?? savedAdminToken(configPath);
  if (!values["skip-smoke"] && !adminToken)
    throw new Error(
      "the smoke check needs the Worker's ADMIN_TOKEN: set ADMIN_TOKEN, --rotate-admin-token or --skip-smoke",
    );

  const plan = resourcePlan(config);
  const database = await ensureDatabase(run, plan.database, values.location);
  step("d1", `${plan.database} ${database.created ? "created" : "found"} (${database.id})`);
  const bucket = await ensureBucket(run, plan.bucket, values.location);
  step("r2 bucket", `${plan.bucket} ${bucket.created ? "created" : "found"}`);
  const lifecycle = lifecycleFile(configPath);
  const rules = readRules(lifecycle);
  const lifecycleSet = await ensureBucketRules(
    run,
    plan.bucket,
    "lifecycle",
    lifecycle,
    lifecycleRows(rules),
  );
  step("r2 lifecycle", `${rules.length} rules ${lifecycleSet.changed ? "set" : "unchanged"}`);
  const index = await ensureVectorIndex(run, plan.index);
  step(
    "vectorize",
    `${plan.index} ${index.created ? "created" : "found"}${index.added.length ? `, metadata index ${index.added.join(", ")} created` : ""}`,
  );
  for (const queue of plan.queues)
    step("queue", `${queue} ${(await ensureQueue(run, queue)).created ? "created" : "found"}`);

  const before = readFileSync(configPath, "utf8");
  const after = withProductionValues(before, {
    accountId: account.id,
    databaseId: database.id,
    reach,
  });
  if (after !== before) writeFileSync(configPath, after);
  step(
    "config",
    `${path.basename(configPath)} ${after === before ? "unchanged" : "updated (commit it)"}`,
  );
  const unshippable = checkDeployedValues(await resolvedConfig(configPath, "production"));
  if (unshippable.length > 0) throw new Error(unshippable.join("; "));

  if (needsR2Token && !secrets.R2_ACCESS_KEY_ID)
    throw new Error(
      `create an R2 API token for bucket ${plan.bucket} (docs/deploy.md, "The R2 token"), set R2_ACCESS_KEY_ID and R2_SECRET_ACCESS_KEY, and run npm run deploy again`,
    );
  const names = Object.keys(secrets);
  if (secrets.ADMIN_TOKEN) saveAdminToken(configPath, secrets.ADMIN_TOKEN);
  if (names.length > 0) await putSecrets(run, secrets);
  step("secrets", names.length ? `set ${names.join(", ")}` : "unchanged");

  const migrations = await run([
    "d1",
    "migrations",
    "apply",
    "DB",
    "--remote",
    "--env",
    "production",
  ]);
  step(
    "migrations",
    /No migrations to apply/i.test(migrations.stdout) ? "none pending" : "applied",
  );

  const deployed = await run(["deploy", "--env", "production"]);
  const target = apiOrigin(reach, config.name);
  const url =
    target.origin ??
    deployed.stdout
      .match(/https:\/\/[a-z0-9.-]+\.workers\.dev/g)
      ?.find((u) => target.pattern.test(u));
  if (!url) throw new Error("wrangler deploy did not print the Worker's workers.dev URL");
  step("deploy", url);

  const cors = corsFile(configPath);
  const previous = existsSync(cors) ? (readRules(cors)[0]?.allowed?.origins ?? []) : [];
  const extras = values["cors-origin"] ?? previous.slice(1);
  const wanted = corsRules([url, ...extras.filter((o) => o !== url)]);
  if (!existsSync(cors) || readFileSync(cors, "utf8") !== formatJson(wanted))
    writeFileSync(cors, formatJson(wanted));
  const corsSet = await ensureBucketRules(run, plan.bucket, "cors", cors, corsRows(wanted.rules));
  step(
    "r2 cors",
    `${wanted.rules[0].allowed.origins.join(", ")} ${corsSet.changed ? "set" : "unchanged"}`,
  );

  if (values["skip-smoke"]) step("smoke", "skipped (--skip-smoke)");
  else if (!(await deploySmoke({ baseUrl: url, adminToken }))) process.exit(1);
} catch (error) {
  fail(`deploy failed: ${error.message}`);
}
