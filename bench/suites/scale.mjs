// Scale figures: GET /videos, GET /runs, GET /findings and POST /search with 1k,
// 10k and 100k rows (segments for search) in one workspace, each as a ratio to its own 1k
// figure.
import { benchClient, fmt, json, timed } from "../lib.mjs";
import { benchSearch } from "./search-latency.mjs";

export const name = "scale";

const SIZES = [1_000, 10_000, 100_000];

/**
 * A seeding POST, sent again when wrangler dev's proxy answers 503 "restarted mid-request":
 * locally that follows every seeding request of more than ~10 s, whatever the Worker's code,
 * and the refused request never reached the Worker.
 */
async function seedPost(url) {
  for (let attempt = 1; ; attempt++) {
    const res = await fetch(url, { method: "POST" });
    if (res.status !== 503 || attempt === 3) return json(res);
    await res.text();
  }
}

export async function run(service) {
  const { api, headers, workspaceId } = await benchClient(service, "bench scale");
  const seedRows = (kind, from, count) =>
    seedPost(
      `${service.baseUrl}/__bench/seed-rows?kind=${kind}&workspace_id=${workspaceId}&from=${from}&count=${count}`,
    );
  const cases = {
    "GET /videos": () => fetch(`${api}/videos?limit=25`, { headers }),
    "GET /videos?status=failed": () => fetch(`${api}/videos?limit=25&status=failed`, { headers }),
    "GET /runs": () => fetch(`${api}/runs?limit=25`, { headers }),
    "GET /findings": () => fetch(`${api}/findings?limit=25`, { headers }),
    "GET /findings?result_state=uncertain": () =>
      fetch(`${api}/findings?limit=25&result_state=uncertain`, { headers }),
    "POST /search": (i) => benchSearch(api, headers, i),
  };
  const figures = {};
  let seeded = 0;
  let seed = 1;
  for (const size of SIZES) {
    await seedRows("videos", seeded, size - seeded);
    await seedRows("runs", seeded, size - seeded);
    await seedRows("findings", seeded, size - seeded);
    // Segments arrive as the search-latency suite seeds them: 100 per video, indexed for real.
    for (let segments = seeded; segments < size; ) {
      const videos = Math.min(20, (size - segments) / 100);
      await seedPost(
        `${service.baseUrl}/__bench/seed-segments?workspace_id=${workspaceId}&videos=${videos}&segments=100&seed=${seed++}`,
      );
      segments += videos * 100;
    }
    seeded = size;
    // The first search loads the index into its object's memory; search-latency reports it.
    await cases["POST /search"](0).then(json);
    for (const [label, request] of Object.entries(cases)) {
      // Untimed rounds first: the 1k figures are the baseline, and a cold isolate would
      // make every later size look faster than it is.
      await timed(request, 20);
      figures[label] ??= [];
      figures[label].push(await timed(request, 100));
    }
  }
  const rows = Object.entries(figures).map(([label, runs]) => {
    const base = runs[0].median;
    const cells = runs.map((r) => `${fmt(r.median)} / ${fmt(r.p95)} (${fmt(r.median / base, 2)}×)`);
    return `| ${label} | ${cells.join(" | ")} |`;
  });
  return [
    "### Lists and search at 1k, 10k and 100k rows",
    "",
    "One workspace grows to each size: that many videos, runs and findings (seeded by one INSERT … SELECT each; 1 video in 50 `failed`; every finding `uncertain`), plus that many search segments (100 per synthetic video, indexed through the real indexing step, so GET /videos also lists those 1% more videos). 20 untimed then 100 timed sequential requests per cell, 25 per page, first page. Cells: median / p95 ms (median as a ratio to the 1k median). Aim for lists: at most 1.5× from 1k to 100k.",
    "",
    `| request | ${SIZES.map((s) => s.toLocaleString("en")).join(" | ")} |`,
    `| --- | ${SIZES.map(() => "---:").join(" | ")} |`,
    ...rows,
  ].join("\n");
}
