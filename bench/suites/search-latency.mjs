// Search latency (median, p95) with 1k, 10k and 100k segments in
// the local index, the index Durable Object's memory, and one search against one plain
// authenticated GET /videos measured in the same run. `search-latency-1m` (in
// search-latency-1m.mjs) goes on to 1M segments.
import { fmt, json, timed, timedTogether } from "../lib.mjs";

export const name = "search-latency";
/** Seeding requests in flight at once (each indexes whole videos through the real step). */
const SEEDERS = 3;
/** Searches run and reported apart before the measured ones (two passes over the words). */
const WARMUP = 24;

const WORDS =
  "forklift pallet ladder valve helmet crane trailer sensor battery freezer wrench harness".split(
    " ",
  );

/** The i-th search of the latency and scale suites: two of the words and a common one. */
export function benchSearch(api, headers, i) {
  return fetch(`${api}/search`, {
    method: "POST",
    headers,
    body: JSON.stringify({
      query: `${WORDS[i % WORDS.length]} ${WORDS[(i * 7 + 3) % WORDS.length]} check`,
      threshold: 0,
      limit: 25,
    }),
  });
}

export async function run(service) {
  return measure(service, [1_000, 10_000, 100_000]);
}

/** A workspace for the bench with a key that may do everything, and its segment seeder. */
async function benchWorkspace(service, name) {
  const workspace = await service.admin("POST", "/workspaces", { name, alpha_opt_in: true });
  const { key } = await service.admin("POST", "/keys", {
    workspace_id: workspace.id,
    type: "alpha",
    permissions: ["*"],
  });
  const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
  let seeded = 0;
  /** Seeds segments up to `target`, three requests at a time; returns the seconds taken. */
  const growTo = async (target, seed) => {
    const started = performance.now();
    const seedOne = async () => {
      while (seeded < target) {
        const videos = Math.min(50, (target - seeded) / 100);
        seeded += videos * 100;
        await json(
          await fetch(
            `${service.baseUrl}/__bench/seed-segments?workspace_id=${workspace.id}&videos=${videos}&segments=100&seed=${seed.next++}`,
            { method: "POST" },
          ),
        );
      }
    };
    await Promise.all(Array.from({ length: SEEDERS }, seedOne));
    return (performance.now() - started) / 1000;
  };
  return { workspace, headers, growTo };
}

/** One table row: search in a workspace, against GET /videos with the same key. */
async function measureRow(service, { workspace, headers }, label, seedSeconds) {
  // The first query loads the index into the object's memory; it is reported apart.
  const coldStart = performance.now();
  await json(
    await fetch(`${service.baseUrl}/api/v1alpha1/search`, {
      method: "POST",
      headers,
      body: JSON.stringify({ query: "warm up", threshold: 0 }),
    }),
  );
  const cold = performance.now() - coldStart;
  const query = (i) => benchSearch(`${service.baseUrl}/api/v1alpha1`, headers, i);
  // The first searches after seeding fill the index object's column cache and the page
  // caches below it; they are reported apart from the steady state measured next.
  const warmup = await timed(query, WARMUP);
  const listVideos = () => fetch(`${service.baseUrl}/api/v1alpha1/videos?limit=25`, { headers });
  // The ratio two ways: 100 searches then 100 lists (each a hot loop of one request), and
  // 100 rounds of one search then one list (both meet the same moments of the machine, and
  // neither runs hot on its own repetition).
  const search = await timed(query, 100);
  const list = await timed(listVideos, 100);
  const together = await timedTogether({ search: query, list: listVideos }, 100);
  const stats = await json(
    await fetch(`${service.baseUrl}/__bench/index-stats?workspace_id=${workspace.id}`),
  );
  return `| ${label} | ${fmt(search.median)} | ${fmt(search.p95)} | ${fmt(cold, 0)} | ${fmt(warmup.median)} / ${fmt(warmup.max)} | ${fmt(stats.bytes / 1024 / 1024)} | ${fmt(list.median)} | ${fmt(search.median / list.median, 2)} | ${fmt(together.search.median)} / ${fmt(together.list.median)} = ${fmt(together.search.median / together.list.median, 2)} | ${fmt(seedSeconds, 0)} | ${search.breakdown} | ${search.breakdown95} |`;
}

/**
 * Seeds one workspace up to each size in turn and measures search there; then measures a
 * workspace of 1,000 segments in the same database as the largest one.
 */
export async function measure(service, sizes) {
  const seed = { next: 1 };
  const large = await benchWorkspace(service, "bench search latency");
  const rows = [];
  for (const target of sizes) {
    const seedSeconds = await large.growTo(target, seed);
    rows.push(await measureRow(service, large, target.toLocaleString("en"), seedSeconds));
  }
  const small = await benchWorkspace(service, "bench search latency, small");
  const seedSeconds = await small.growTo(1_000, seed);
  const beside = `1,000 beside the ${sizes.at(-1).toLocaleString("en")}`;
  rows.push(await measureRow(service, small, beside, seedSeconds));
  return [
    "### Search latency over the local index",
    "",
    `Synthetic segments (14 random words each, 100 per video) indexed through the real indexing step, three seeding requests at a time. After one search that loads the index and ${WARMUP} that fill its caches (reported apart), 100 sequential POST /search (2-3 word queries, threshold 0, limit 25) then 100 sequential GET /videos?limit=25 with the same key, per size; then 100 rounds of one search and one list alternating, which gives the ratio for requests that met the same moments of a shared machine, neither running hot on its own repetition. The last row is a second workspace of 1,000 segments in the same database and index namespace as the largest: what a small tenant meets beside a large one. Memory is what the workspace's index Durable Object holds (its own accounting).`,
    "",
    `| segments | search median ms | search p95 ms | first search ms (loads index) | next ${WARMUP} searches median / max ms (fill caches) | index DO memory MiB | GET /videos median ms | search / GET /videos | alternating: search / GET /videos medians ms | seeding s | median ms per phase (Server-Timing) | p95 ms per phase |`,
    "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |",
    ...rows,
  ].join("\n");
}
