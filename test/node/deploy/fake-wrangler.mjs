#!/usr/bin/env node
// A stand-in for wrangler in the deploy test: a simulated account kept in
// $FAKE_WRANGLER_DIR/state.json, every command appended to commands.jsonl. It answers the
// commands the deploy uses as wrangler 4.155 prints them (JSON where wrangler has --json,
// its labelled lists for R2 rules) and refuses, as Cloudflare would, a deploy whose
// configuration names resources or secrets the account lacks. An account made with
// `r2: false` has never enabled R2 (every bucket call answers 10042); `refuse` maps a list
// command (`queues list`, `vectorize list`, `ai models list`) to the error it answers.
import { appendFileSync, existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";

const dir = process.env.FAKE_WRANGLER_DIR;
const stateFile = path.join(dir, "state.json");
const argv = process.argv.slice(2);
appendFileSync(path.join(dir, "commands.jsonl"), `${JSON.stringify(argv)}\n`);
const state = existsSync(stateFile)
  ? JSON.parse(readFileSync(stateFile, "utf8"))
  : { accounts: [{ id: "a1b2c3d4e5f60718293a4b5c6d7e8f90", name: "Acme" }], d1: [], buckets: {} };
state.vectorize ??= [];
state.queues ??= [];
state.secrets ??= null;
state.migrated ??= false;
state.r2 ??= true;
state.refuse ??= {};
state.catalog ??= [
  "@cf/openai/whisper-large-v3-turbo",
  "@cf/meta/llama-4-scout-17b-16e-instruct",
  "@cf/meta/llama-3.3-70b-instruct-fp8-fast",
  "@cf/baai/bge-m3",
  "@cf/baai/bge-base-en-v1.5",
];

const flag = (name) => {
  const at = argv.indexOf(`--${name}`);
  return at < 0 ? undefined : argv[at + 1];
};
const words = argv.filter((a, i) => !a.startsWith("-") && !argv[i - 1]?.startsWith("--"));
const command = words.join(" ");
const out = (text) => process.stdout.write(`${text}\n`);
function refuse(message) {
  process.stderr.write(`✘ [ERROR] ${message}\n`);
  process.exit(1);
}
// Written whole and renamed: the deploy runs its preflight's reads side by side.
const save = () => {
  writeFileSync(`${stateFile}.${process.pid}`, JSON.stringify(state, null, 2));
  renameSync(`${stateFile}.${process.pid}`, stateFile);
};
const config = () => readFileSync(flag("config"), "utf8");
const production = () => config().split("\n[env.production]\n")[1] ?? "";

/** wrangler's formatLabelledValues: labels padded to the longest, then two spaces. */
const labelled = (rows) =>
  rows
    .map((row) => {
      const width = Math.max(...Object.keys(row).map((k) => k.length + 1));
      return Object.entries(row)
        .map(([k, v]) => `${`${k}:`.padEnd(width)}  ${v}`)
        .join("\n");
    })
    .join("\n\n");
const days = (c) => `after ${c.maxAge / 86400} days`;

const bucketOf = (name) =>
  state.buckets[name] ?? refuse(`The specified bucket does not exist. [code: 10006]`);
const accountPath = `/accounts/${state.accounts[0].id}`;
if (words[0] === "r2" && !state.r2)
  refuse(
    `A request to the Cloudflare API (${accountPath}/r2/buckets) failed.\n\n  Please enable R2 through the Cloudflare Dashboard. [code: 10042]`,
  );
const listed = ["queues list", "vectorize list", "ai models list"].find((c) => command === c);
if (listed && state.refuse[listed]) refuse(state.refuse[listed]);

if (command === "whoami") out(JSON.stringify({ loggedIn: true, accounts: state.accounts }));
else if (command === "auth token")
  out(JSON.stringify({ type: "oauth", token: "fake-oauth-token" }));
else if (command === "r2 bucket list") {
  out(`Listing buckets...`);
  out(labelled(Object.keys(state.buckets).map((name) => ({ name, creation_date: "2026-11-28" }))));
} else if (command === "queues list") out(state.queues.join("\n"));
else if (command === "ai models list")
  out(
    JSON.stringify(
      state.catalog.map((name, i) => ({ id: `model-${i}`, name, task: { name: "x" } })),
    ),
  );
else if (command === "d1 list") out(JSON.stringify(state.d1));
else if (words[0] === "d1" && words[1] === "create") {
  if (state.d1.some((db) => db.name === words[2])) refuse(`A database named ${words[2]} exists`);
  state.d1.push({
    uuid: `0000000${state.d1.length + 1}-1111-4222-8333-444455556666`,
    name: words[2],
  });
} else if (command.startsWith("r2 bucket info"))
  out(JSON.stringify({ name: words[3], ...bucketOf(words[3]) }));
else if (command.startsWith("r2 bucket create")) {
  // New buckets come with R2's default rule, which the deploy's rules replace.
  state.buckets[words[3]] = {
    lifecycle: [
      {
        id: "Default Multipart Abort Rule",
        enabled: true,
        conditions: { prefix: "" },
        abortMultipartUploadsTransition: { condition: { type: "Age", maxAge: 604800 } },
      },
    ],
    cors: [],
  };
} else if (command.startsWith("r2 bucket lifecycle list")) {
  const rules = bucketOf(words[4]).lifecycle;
  out(`Listing lifecycle rules for bucket '${words[4]}'...`);
  out(
    labelled(
      rules.map((r) => ({
        name: r.id,
        enabled: r.enabled ? "Yes" : "No",
        prefix: r.conditions.prefix || "(all prefixes)",
        action: [
          r.deleteObjectsTransition &&
            `Expire objects ${days(r.deleteObjectsTransition.condition)}`,
          r.abortMultipartUploadsTransition &&
            `Abort incomplete multipart uploads ${days(r.abortMultipartUploadsTransition.condition)}`,
        ]
          .filter(Boolean)
          .join(", "),
      })),
    ),
  );
} else if (command.startsWith("r2 bucket cors list")) {
  const rules = bucketOf(words[4]).cors;
  out(`Listing CORS rules for bucket '${words[4]}'...`);
  if (rules.length === 0) out(`There is no CORS configuration defined for bucket '${words[4]}'.`);
  out(
    labelled(
      rules.map((r) => ({
        allowed_origins: r.allowed.origins.join(", "),
        allowed_methods: r.allowed.methods.join(", "),
        allowed_headers: r.allowed.headers.join(", "),
        exposed_headers: r.exposeHeaders.join(", "),
        max_age_seconds: String(r.maxAgeSeconds),
      })),
    ),
  );
} else if (/^r2 bucket (cors|lifecycle) set$/.test(command.replace(/ \S+$/, ""))) {
  bucketOf(words[4])[words[2]] = JSON.parse(readFileSync(flag("file"), "utf8")).rules;
} else if (command === "vectorize list") out(JSON.stringify(state.vectorize));
else if (words[1] === "create") {
  if (words[0] === "vectorize") {
    state.vectorize.push({
      name: words[2],
      config: { dimensions: Number(flag("dimensions")), metric: flag("metric") },
      metadata: [],
    });
  } else if (words[0] === "queues") state.queues.push(words[2]);
} else if (words[1] === "list-metadata-index" || words[1] === "create-metadata-index") {
  const index = state.vectorize.find((i) => i.name === words[2]) ?? refuse("no such index");
  if (words[1] === "list-metadata-index") out(JSON.stringify(index.metadata));
  else index.metadata.push({ propertyName: flag("propertyName"), indexType: flag("type") });
} else if (command.startsWith("queues info")) {
  if (!state.queues.includes(words[2])) refuse(`Queue "${words[2]}" does not exist.`);
  out(`Queue Name: ${words[2]}`);
} else if (command === "secret list") {
  if (state.secrets === null) refuse(`Worker "x" (env: ${flag("env")}) not found.`);
  out(JSON.stringify(Object.keys(state.secrets).map((name) => ({ name, type: "secret_text" }))));
} else if (command.startsWith("secret bulk")) {
  state.secrets = { ...state.secrets, ...JSON.parse(readFileSync(words[2], "utf8")) };
} else if (command === "d1 migrations apply DB") {
  const id = production().match(/database_id = "([^"]+)"/)?.[1];
  if (!state.d1.some((db) => db.uuid === id)) refuse(`no database ${id} in this account`);
  out(state.migrated ? "✅ No migrations to apply!" : "Migrations applied");
  state.migrated = true;
} else if (command === "deploy") {
  const prod = production();
  const missingSecrets = [
    "ADMIN_TOKEN",
    "SIGNING_SECRET",
    "R2_ACCESS_KEY_ID",
    "R2_SECRET_ACCESS_KEY",
  ];
  if (!state.migrated) refuse("deployed before the migrations");
  if (missingSecrets.some((s) => !state.secrets?.[s])) refuse("a secret the code reads is missing");
  if (!prod.includes(`account_id = "${state.accounts[0].id}"`)) refuse("wrong account");
  const bound = [...prod.matchAll(/^(?:dead_letter_)?queue = "([^"]+)"/gm)].map((m) => m[1]);
  if (bound.some((q) => !state.queues.includes(q)) || state.vectorize.length !== 1)
    refuse("a binding is missing");
  const name = prod.match(/^name = "([^"]+)"/m)[1];
  out(`Uploaded ${name} (1.23 sec)\nDeployed ${name} triggers (0.45 sec)`);
  if (/^workers_dev = true/m.test(prod)) out(`  https://${name}.acme-sub.workers.dev`);
  out("  schedule: * * * * *\nCurrent Version ID: 11111111-2222-3333-4444-555555555555");
} else refuse(`the fake wrangler does not know: ${argv.join(" ")}`);
save();
