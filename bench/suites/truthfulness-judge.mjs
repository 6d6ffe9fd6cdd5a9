// Labelled questions run through the public API and judged against their labels: the shared
// part of the truthfulness bench (bench/suites/truthfulness.mjs), for any adapters.
import { readFileSync } from "node:fs";
import path from "node:path";
import { ROOT } from "../../scripts/lib/local.mjs";
import { benchClient, fmt, json, until, uploadFixture } from "../lib.mjs";
import { findingsOf } from "./truthfulness-workflows.mjs";

const TYPES = [
  "verdict",
  "measurement",
  "enumeration",
  "timeline",
  "comparison",
  "retrieval",
  "synthesis",
  "workflow rule",
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
      body: JSON.stringify({
        source_ids: [videoId],
        profile_id: profile.id,
        locale: group.locale ?? "en",
      }),
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

const SECONDS_PER = {
  second: 1,
  seconds: 1,
  s: 1,
  minute: 60,
  minutes: 60,
  hour: 3600,
  hours: 3600,
};

/** Whether a labelled value (`q.value` in `q.unit`) is the answer's; durations compare in seconds. */
function valueHolds(answer, q) {
  if (q.value === undefined) return true;
  const { value, unit } = answer.answer_payload ?? {};
  if (typeof q.value !== "number") return value === q.value;
  if (typeof value !== "number") return false;
  const expected = SECONDS_PER[q.unit];
  if (expected !== undefined) {
    const given = SECONDS_PER[unit];
    return given !== undefined && Math.abs(value * given - q.value * expected) < 0.5;
  }
  return value === q.value;
}

/** One labelled case judged: adds it to the stats of its type and of `all`; a note if it disagrees. */
export function judge(stats, notes, type, q, answer, label) {
  const claim = claimOf(answer);
  const wrongValue = claim === "found" && q.truth === "found" && !valueHolds(answer, q);
  const falseFound = claim === "found" && (q.truth !== "found" || wrongValue);
  // A zero the label states (no change between two halves) is a value, not a negative.
  const unbacked =
    q.truth !== "not_found" && statesNegative(answer) && !(q.value === 0 && valueHolds(answer, q));
  for (const t of [type, "all"]) {
    const s = stats[t];
    s.n += 1;
    if (claim === q.truth && !wrongValue) s.agree += 1;
    if (falseFound) s.falseFound += 1;
    if (unbacked) s.unbacked += 1;
    if (q.truth === "found") s.trueFound += 1;
    if (q.truth === "found" && claim === "found" && !wrongValue) s.recalled += 1;
    if (q.truth !== "cannot_tell" && claim === "cannot_tell") s.cautious += 1;
  }
  const value = answer.answer_payload?.value;
  const shown = `${label} (${q.case}): truth ${q.truth}${q.value === undefined ? "" : ` ${q.value} ${q.unit ?? ""}`.trimEnd()}, engine ${answer.result_state}${answer.reason_code ? `/${answer.reason_code}` : ""}${typeof value === "number" ? ` ${value} ${answer.answer_payload.unit ?? ""}`.trimEnd() : ""}`;
  if (wrongValue) notes.push(`WRONG VALUE ${shown}`);
  else if (falseFound) notes.push(`FALSE FOUND ${shown}`);
  else if (unbacked) notes.push(`UNBACKED NEGATIVE ${shown}`);
  else if (claim !== q.truth) notes.push(shown);
  return {
    falseFound,
    unbacked,
    recalled: q.truth === "found" && claim === "found" && !wrongValue,
  };
}

export function emptyStats() {
  return Object.fromEntries(
    [...TYPES, "all"].map((t) => [
      t,
      { n: 0, falseFound: 0, unbacked: 0, trueFound: 0, recalled: 0, agree: 0, cautious: 0 },
    ]),
  );
}

export function table(stats) {
  return [...TYPES, "all"]
    .filter((t) => stats[t].n > 0)
    .map((t) => {
      const s = stats[t];
      const recall = s.trueFound === 0 ? "–" : fmt(s.recalled / s.trueFound, 2);
      return `| ${t} | ${s.n} | ${s.falseFound} | ${s.unbacked} | ${s.recalled}/${s.trueFound} = ${recall} | ${s.cautious} | ${fmt(s.agree / s.n, 2)} |`;
    });
}

/**
 * Runs each labelled file's groups (a profile run per group) and workflows on `service` and
 * judges every answer. Per file: its Markdown section and every case with its stored answer
 * (`key` and `description` are what the model was asked, for matching what a simulator did).
 */
export async function runLabelled(service, files, name) {
  const client = await benchClient(service, name);
  const { api, headers } = client;
  const videoIds = {};
  const video = async (file) => {
    videoIds[file] ??= await uploadFixture(client, file);
    return videoIds[file];
  };
  const parts = [];
  for (const [part, file] of files) {
    const { groups, workflows = [] } = JSON.parse(
      readFileSync(path.join(ROOT, "bench/suites", file), "utf8"),
    );
    const stats = emptyStats();
    const notes = [];
    const cases = [];
    for (const group of groups) {
      const answers = await answersOf(api, headers, await video(group.video), group);
      for (const q of group.questions) {
        const answer = answers.get(q.key);
        if (answer === undefined) throw new Error(`${group.name}: no answer for ${q.key}`);
        const verdict = judge(stats, notes, q.type, q, answer, `${group.video} ${q.key}`);
        cases.push({ key: q.key, description: q.q ?? "", label: q, answer, ...verdict });
      }
    }
    for (const workflow of workflows) {
      const findings = await findingsOf(client, await video(workflow.video), workflow);
      for (const rule of workflow.rules) {
        const finding = findings.get(rule.id);
        const label = `${workflow.video} rule ${rule.id}`;
        const verdict = judge(stats, notes, "workflow rule", rule, finding, label);
        if (finding.mismatch) notes.push(`WRONG FINDING ${finding.mismatch}`);
        cases.push({
          key: "rule",
          description: rule.title,
          label: rule,
          answer: finding,
          ...verdict,
        });
      }
    }
    parts.push({
      part,
      cases,
      stats,
      section: [
        `#### ${part}: ${stats.all.n} labelled cases over ${new Set(groups.map((g) => g.video)).size} fixtures (bench/suites/${file})`,
        "",
        "| type | n | false found | unbacked negatives | recall of what is present | cautious | agreement |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
        ...table(stats),
        "",
        notes.length === 0
          ? "Every answer agreed with its label."
          : `Disagreements (truth vs engine/reason): ${notes.join("; ")}.`,
        "",
      ],
    });
  }
  return parts;
}
