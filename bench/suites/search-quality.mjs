// Quality figures: recall@1, recall@5 and MRR of the local engine on the labelled
// set (test/fixtures/search): media fixtures uploaded and processed like any client video,
// plus synthetic transcripts indexed as captioned videos.
import { readFileSync } from "node:fs";
import path from "node:path";
import { ROOT } from "../../scripts/lib/local.mjs";
import { benchClient, fmt, json, uploadFixture } from "../lib.mjs";

export const name = "search-quality";

const FIXTURES = [
  "talk.mp4",
  "moov-at-end.mov",
  "captions.webm",
  "subtitles.mkv",
  "minute.mp4",
  "silent.mp4",
];

export async function run(service) {
  const client = await benchClient(service, "bench search quality");
  const { headers, workspaceId } = client;
  const videoIds = {};
  for (const file of FIXTURES) videoIds[file] = await uploadFixture(client, file);
  const { videos } = JSON.parse(
    readFileSync(path.join(ROOT, "test/fixtures/search/transcripts.json"), "utf8"),
  );
  for (const video of videos) {
    const res = await fetch(
      `${service.baseUrl}/__bench/index-transcript?workspace_id=${workspaceId}`,
      { method: "POST", body: JSON.stringify(video) },
    );
    videoIds[video.id] = (await json(res)).video_id;
  }
  const { queries } = JSON.parse(
    readFileSync(path.join(ROOT, "test/fixtures/search/queries.json"), "utf8"),
  );
  const byKind = {};
  const misses = [];
  for (const labelled of queries) {
    const page = await json(
      await fetch(`${service.baseUrl}/api/v1alpha1/search`, {
        method: "POST",
        headers,
        body: JSON.stringify({ query: labelled.query, threshold: 0, limit: 10 }),
      }),
    );
    const rank =
      page.data.findIndex(
        (r) =>
          r.video_id === videoIds[labelled.video] &&
          r.time_position >= labelled.start - 1 &&
          r.time_position <= labelled.end,
      ) + 1;
    for (const kind of [labelled.kind, "all"]) {
      byKind[kind] ??= { n: 0, r1: 0, r5: 0, mrr: 0, aboveDefault: 0 };
      const bucket = byKind[kind];
      bucket.n += 1;
      if (rank === 1) bucket.r1 += 1;
      if (rank >= 1 && rank <= 5) bucket.r5 += 1;
      if (rank >= 1) bucket.mrr += 1 / rank;
      if (rank >= 1 && page.data[rank - 1].score >= 0.7) bucket.aboveDefault += 1;
    }
    if (rank !== 1) misses.push(`${labelled.query} → rank ${rank || "none"}`);
  }
  const rows = ["phrase", "keyword", "paraphrase", "all"].map((kind) => {
    const b = byKind[kind];
    return `| ${kind} | ${b.n} | ${fmt(b.r1 / b.n, 2)} | ${fmt(b.r5 / b.n, 2)} | ${fmt(b.mrr / b.n, 3)} | ${fmt(b.aboveDefault / b.n, 2)} |`;
  });
  return [
    "### Search quality of the local engine (labelled set)",
    "",
    `${queries.length} labelled queries over ${FIXTURES.length} media fixtures and ${videos.length} synthetic captioned videos (test/fixtures/search). A hit is the right video with time_position inside the labelled span (1 s tolerance before it); ranking with threshold 0, top 10.`,
    "",
    "| queries | n | recall@1 | recall@5 | MRR | relevant hit scoring ≥ 0.7 |",
    "| --- | ---: | ---: | ---: | ---: | ---: |",
    ...rows,
    "",
    misses.length === 0
      ? "Every query ranked its labelled segment first."
      : `Not ranked first: ${misses.join("; ")}.`,
  ].join("\n");
}
