// The resources `npm run deploy` provisions, each found by name first and created only when
// missing, through wrangler's own commands. Every step answers what it did in a few words.
import { readFileSync } from "node:fs";
import { listedRows, sameRows } from "./r2-rules.mjs";
import { jsonOutput, WranglerError } from "./wrangler-cli.mjs";

/**
 * The Vectorize index the production adapters need: BGE-M3's 1,024 dimensions
 * (src/ports/embedder/workers-ai.ts), cosine similarity (src/ports/vector-index/port.ts) and
 * `video_id` indexed for the adapter's `$eq`/`$in` filters (vector-index/vectorize.ts).
 * Neither dimensions nor metric can change after creation.
 */
export const VECTOR_INDEX = {
  dimensions: 1024,
  metric: "cosine",
  metadata: [{ propertyName: "video_id", type: "string" }],
};

/** The names of what the production configuration binds: one D1, bucket and index, queues. */
export function resourcePlan(config) {
  const queues = [];
  for (const name of [
    ...(config.queues?.producers ?? []).map((p) => p.queue),
    ...(config.queues?.consumers ?? []).flatMap((c) => [c.queue, c.dead_letter_queue]),
  ])
    if (name && !queues.includes(name)) queues.push(name);
  return {
    database: config.d1_databases[0].database_name,
    bucket: config.r2_buckets[0].bucket_name,
    index: config.vectorize[0].index_name,
    queues,
  };
}

/** The account to deploy to: the one named, else the one recorded, else the only one. */
export async function chooseAccount(run, wanted) {
  let who;
  try {
    who = jsonOutput((await run(["whoami", "--json"])).stdout);
  } catch (error) {
    if (error instanceof WranglerError)
      throw new Error(`wrangler whoami failed (run npx wrangler login): ${error.message}`);
    throw error;
  }
  const accounts = who.accounts ?? [];
  if (wanted) {
    const found = accounts.find((a) => a.id === wanted);
    if (!found) throw new Error(`account ${wanted} is not one this login can use`);
    return found;
  }
  if (accounts.length === 1) return accounts[0];
  const listed = accounts.map((a) => `${a.id} (${a.name})`).join(", ");
  throw new Error(`choose an account with --account-id: ${listed || "none found"}`);
}

/** Finds the D1 database by name or creates it; answers its id. */
export async function ensureDatabase(run, name, location) {
  const find = async () =>
    jsonOutput((await run(["d1", "list", "--json"])).stdout).find((db) => db.name === name);
  let db = await find();
  const created = db === undefined;
  if (created) {
    await run(["d1", "create", name, ...(location ? ["--location", location] : [])]);
    db = await find();
    if (!db) throw new Error(`d1 create ${name} succeeded but d1 list does not show it`);
  }
  return { id: db.uuid, created };
}

const missing = (error, pattern) => error instanceof WranglerError && pattern.test(error.output);

/** Finds the bucket or creates it. */
export async function ensureBucket(run, name, location) {
  try {
    await run(["r2", "bucket", "info", name, "--json"]);
    return { created: false };
  } catch (error) {
    if (!missing(error, /does not exist|not found|10006/i)) throw error;
  }
  await run(["r2", "bucket", "create", name, ...(location ? ["--location", location] : [])]);
  return { created: true };
}

/** Sets the bucket's `cors` or `lifecycle` rules from `file` unless the bucket has them already. */
export async function ensureBucketRules(run, bucket, kind, file, wantedRows) {
  const listed = listedRows((await run(["r2", "bucket", kind, "list", bucket])).stdout);
  if (sameRows(listed, wantedRows)) return { changed: false };
  await run(["r2", "bucket", kind, "set", bucket, "--file", file, "--force"]);
  return { changed: true };
}

/** Finds or creates the Vectorize index and its metadata indexes; refuses a mismatched one. */
export async function ensureVectorIndex(run, name) {
  const indexes = jsonOutput((await run(["vectorize", "list", "--json"])).stdout);
  const index = indexes.find((i) => i.name === name);
  const want = VECTOR_INDEX;
  if (
    index &&
    (index.config?.dimensions !== want.dimensions || index.config?.metric !== want.metric)
  )
    throw new Error(
      `Vectorize index ${name} has ${index.config?.dimensions} dimensions and ${index.config?.metric}; the embedder needs ${want.dimensions} and ${want.metric} (neither can change: delete it or bind another name)`,
    );
  if (!index)
    await run([
      "vectorize",
      "create",
      name,
      "--dimensions",
      String(want.dimensions),
      "--metric",
      want.metric,
    ]);
  const have = jsonOutput(
    (await run(["vectorize", "list-metadata-index", name, "--json"])).stdout,
  ).map((m) => m.propertyName);
  const added = [];
  for (const { propertyName, type } of want.metadata) {
    if (have.includes(propertyName)) continue;
    await run([
      "vectorize",
      "create-metadata-index",
      name,
      "--propertyName",
      propertyName,
      "--type",
      type,
    ]);
    added.push(propertyName);
  }
  return { created: !index, added };
}

/** Finds the queue or creates it. */
export async function ensureQueue(run, name) {
  try {
    await run(["queues", "info", name]);
    return { created: false };
  } catch (error) {
    if (!missing(error, /does not exist/i)) throw error;
  }
  await run(["queues", "create", name]);
  return { created: true };
}

/** Reads a committed rules file. */
export const readRules = (file) => JSON.parse(readFileSync(file, "utf8")).rules;
