// Issue 9's proof: the local answer engine over a labelled set (truthfulness.json beside this
// file) of questions on the media fixtures, each group one profile run over one video through
// the public API. Per answer type: false `found` (must be 0), unbacked negatives (not_found,
// false or zero where the truth is "cannot tell"; must be 0) and recall of true `found`.
import { readFileSync } from "node:fs";
import path from "node:path";
import { ROOT } from "../../scripts/lib/local.mjs";
import { benchClient, fmt, json, until, uploadFixture } from "../lib.mjs";

export const name = "truthfulness";

const TYPES = [
  "verdict",
  "measurement",
  "enumeration",
  "timeline",
  "comparison",
  "retrieval",
  "synthesis",
];

function specOf(question) {
  return {
    answer_key: question.key,
    answer_type: question.type,
    ...(question.q === undefined ? {} : { description: question.q }),
    ...(question.fields === undefined
      ? {}
      : { fields: question.fields.map((label, i) => ({ key: `f${i}`, label })) }),
    evidence: { accepted_types: question.evidence ?? ["transcript"] },
  };
}

async function answersOf(api, headers, videoId, group) {
  const profile = await json(
    await fetch(`${api}/profiles`, {
      method: "POST",
      headers,
      body: JSON.stringify({
        name: group.name,
        instructions: group.instructions,
        answer_specs: group.questions.map(specOf),
      }),
    }),
  );
  const accepted = await json(
    await fetch(`${api}/runs`, {
      method: "POST",
      headers,
      body: JSON.stringify({ source_ids: [videoId], profile_id: profile.id, locale: "en" }),
    }),
  );
  const run = await until(
    async () => json(await fetch(`${api}/runs/${accepted.id}`, { headers })),
    (r) => ["completed", "failed", "canceled"].includes(r.status),
  );
  if (run.status !== "completed") throw new Error(`${group.name}: run ${run.status}`);
  const page = await json(await fetch(`${api}/runs/${run.id}/answers?limit=100`, { headers }));
  return new Map(page.data.map((a) => [a.key, a]));
}

/** What an answer claims: found, a known absence (not_found), or cannot tell. */
function claimOf(answer) {
  if (answer.result_state === "found") return "found";
  if (answer.result_state === "not_found") return "not_found";
  return "cannot_tell";
}

/** A negative the answer states: not_found, a false verdict or a zero. */
function statesNegative(answer) {
  const value = answer.answer_payload?.value;
  return answer.result_state === "not_found" || value === false || value === 0;
}

export async function run(service) {
  const client = await benchClient(service, "bench truthfulness");
  const { api, headers } = client;
  const { groups } = JSON.parse(
    readFileSync(path.join(ROOT, "bench/suites/truthfulness.json"), "utf8"),
  );
  const videoIds = {};
  const stats = Object.fromEntries(
    [...TYPES, "all"].map((t) => [
      t,
      { n: 0, falseFound: 0, unbacked: 0, trueFound: 0, recalled: 0, agree: 0, cautious: 0 },
    ]),
  );
  const notes = [];
  let total = 0;
  for (const group of groups) {
    videoIds[group.video] ??= await uploadFixture(client, group.video);
    const answers = await answersOf(api, headers, videoIds[group.video], group);
    for (const q of group.questions) {
      const answer = answers.get(q.key);
      if (answer === undefined) throw new Error(`${group.name}: no answer for ${q.key}`);
      total += 1;
      const claim = claimOf(answer);
      const shown = `${group.video} ${q.key} (${q.case}): truth ${q.truth}, engine ${answer.result_state}${answer.reason_code ? `/${answer.reason_code}` : ""}`;
      for (const t of [q.type, "all"]) {
        const s = stats[t];
        s.n += 1;
        if (claim === q.truth) s.agree += 1;
        if (claim === "found" && q.truth !== "found") s.falseFound += 1;
        if (q.truth === "cannot_tell" && statesNegative(answer)) s.unbacked += 1;
        if (q.truth === "found") s.trueFound += 1;
        if (q.truth === "found" && claim === "found") s.recalled += 1;
        if (q.truth !== "cannot_tell" && claim === "cannot_tell") s.cautious += 1;
      }
      if (claim === "found" && q.truth !== "found") notes.push(`FALSE FOUND ${shown}`);
      else if (q.truth === "cannot_tell" && statesNegative(answer))
        notes.push(`UNBACKED NEGATIVE ${shown}`);
      else if (claim !== q.truth) notes.push(`${shown}`);
    }
  }
  const rows = [...TYPES, "all"].map((t) => {
    const s = stats[t];
    const recall = s.trueFound === 0 ? "–" : fmt(s.recalled / s.trueFound, 2);
    return `| ${t} | ${s.n} | ${s.falseFound} | ${s.unbacked} | ${s.recalled}/${s.trueFound} = ${recall} | ${s.cautious} | ${fmt(s.agree / s.n, 2)} |`;
  });
  return [
    "### Truthfulness of the local answer engine (labelled set)",
    "",
    `${total} labelled questions in ${groups.length} runs over ${Object.keys(videoIds).length} media fixtures (bench/suites/truthfulness.json; fixtures from test/fixtures/media/make-truthfulness-fixtures.sh), run with locale \`en\`. Truth is what a careful human says from the captions: found, not_found, or cannot tell (uncertain or not_checked both count as "cannot tell"). Targets: false found 0, unbacked negatives 0, recall of true found ≥ 0.9. "Cautious" counts known truths (found or not_found) answered "cannot tell": safe, but less than a person could say.`,
    "",
    "| type | n | false found | unbacked negatives | recall of true found | cautious | agreement |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...rows,
    "",
    notes.length === 0
      ? "Every answer agreed with its label."
      : `Disagreements (truth vs engine/reason): ${notes.join("; ")}.`,
  ].join("\n");
}
