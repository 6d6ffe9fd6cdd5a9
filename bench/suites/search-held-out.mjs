// Search on natural queries written without looking at the fixtures
// (test/fixtures/search/held-out-queries.json): recall@1, recall@5 and MRR when everything is
// ranked, recall@5 at the default threshold (what a user sees), and what queries with no
// relevant moment answer.
import { readFileSync } from "node:fs";
import path from "node:path";
import { ROOT } from "../../scripts/lib/local.mjs";
import { benchClient, fmt, json, uploadFixture } from "../lib.mjs";

export const name = "search-held-out";

const DEFAULT_THRESHOLD = 0.7;

function readJson(file) {
  return JSON.parse(readFileSync(path.join(ROOT, file), "utf8"));
}

/** The videos the labels name: media fixtures uploaded, synthetic transcripts indexed. */
async function seed(service, client, labelled) {
  const names = new Set(labelled.flatMap((q) => q.relevant.map((r) => r.video)));
  const { videos } = readJson("test/fixtures/search/transcripts.json");
  const ids = {};
  for (const video of names) {
    const synthetic = videos.find((v) => v.id === video);
    if (synthetic === undefined) {
      ids[video] = await uploadFixture(client, video);
      continue;
    }
    const res = await fetch(
      `${service.baseUrl}/__bench/index-transcript?workspace_id=${client.workspaceId}`,
      { method: "POST", body: JSON.stringify(synthetic) },
    );
    ids[video] = (await json(res)).video_id;
  }
  return ids;
}

async function search(client, query, threshold) {
  return json(
    await fetch(`${client.api}/search`, {
      method: "POST",
      headers: client.headers,
      body: JSON.stringify({ query, threshold, limit: 10 }),
    }),
  );
}

/** 1-based rank of the first result inside a relevant span (1 s tolerance before it), else 0. */
function rankOf(page, relevant, ids) {
  return (
    page.data.findIndex((r) =>
      relevant.some(
        (m) =>
          r.video_id === ids[m.video] && r.time_position >= m.start - 1 && r.time_position <= m.end,
      ),
    ) + 1
  );
}

export async function run(service) {
  const client = await benchClient(service, "bench search held-out");
  const { queries, neighbours } = readJson("test/fixtures/search/held-out-queries.json");
  const labelled = [...queries, ...neighbours.map((q) => ({ ...q, kind: "neighbours" }))];
  const ids = await seed(service, client, labelled);
  const buckets = {};
  const misses = [];
  const unanswerable = { n: 0, empty: 0, explained: 0 };
  // Empty answers told to lower the threshold, and those whose suggestion shows a result.
  const suggested = { empty: 0, told: 0, shows: 0 };
  for (const q of labelled) {
    const all = await search(client, q.query, 0);
    const shown = await search(client, q.query, DEFAULT_THRESHOLD);
    if (shown.explanation !== undefined) {
      suggested.empty += 1;
      const lower = shown.explanation.suggested_threshold;
      if (lower !== null && lower !== undefined) {
        suggested.told += 1;
        if ((await search(client, q.query, lower)).data.length > 0) suggested.shows += 1;
      }
    }
    if (q.relevant.length === 0) {
      unanswerable.n += 1;
      if (shown.data.length === 0) unanswerable.empty += 1;
      if (shown.explanation !== undefined) unanswerable.explained += 1;
      continue;
    }
    const rank = rankOf(all, q.relevant, ids);
    const rankShown = rankOf(shown, q.relevant, ids);
    const groups = q.kind === "neighbours" ? ["neighbours"] : [q.kind, "held-out"];
    for (const group of groups) {
      buckets[group] ??= { n: 0, r1: 0, r5: 0, mrr: 0, shown5: 0 };
      const b = buckets[group];
      b.n += 1;
      if (rank === 1) b.r1 += 1;
      if (rank >= 1 && rank <= 5) b.r5 += 1;
      if (rank >= 1) b.mrr += 1 / rank;
      if (rankShown >= 1 && rankShown <= 5) b.shown5 += 1;
    }
    if (rankShown < 1 || rankShown > 5) {
      const best = all.data[rank - 1]?.score;
      misses.push(
        `${q.query} → rank ${rank || "none"}${best === undefined ? "" : ` (score ${best})`}`,
      );
    }
  }
  const order = ["exact", "inflection", "partial", "synonym", "held-out", "neighbours"];
  const rows = order
    .filter((group) => buckets[group] !== undefined)
    .map((group) => {
      const b = buckets[group];
      return `| ${group} | ${b.n} | ${fmt(b.shown5 / b.n, 2)} | ${fmt(b.r1 / b.n, 2)} | ${fmt(b.r5 / b.n, 2)} | ${fmt(b.mrr / b.n, 3)} |`;
    });
  return [
    "### Search on held-out natural queries",
    "",
    `${queries.length} queries written from the fixtures' file names before their captions were read, ${neighbours.length} constructed queries whose words fall in two neighbouring segments (test/fixtures/search/held-out-queries.json), over ${Object.keys(ids).length} videos. A hit is a result inside a labelled span (1 s tolerance before it), top 10. "recall@5 shown" is at the default threshold ${DEFAULT_THRESHOLD}, what a user sees; the other columns rank everything (threshold 0).`,
    "",
    "| queries | n | recall@5 shown | recall@1 | recall@5 | MRR |",
    "| --- | ---: | ---: | ---: | ---: | ---: |",
    ...rows,
    "",
    `Queries with no relevant moment: ${unanswerable.n}; answered empty at ${DEFAULT_THRESHOLD}: ${unanswerable.empty}, each with an explanation: ${unanswerable.explained}.`,
    "",
    `Empty answers at ${DEFAULT_THRESHOLD}: ${suggested.empty}; told to lower the threshold (a match holding a word of the query, or near its meaning above the noise floor, scored below it): ${suggested.told}; of them, a search at the suggested threshold shows a result: ${suggested.shows}.`,
    "",
    misses.length === 0
      ? "Every labelled query shows a relevant moment in its first five at the default threshold."
      : `Not in the first five at the default threshold: ${misses.join("; ")}.`,
  ].join("\n");
}
