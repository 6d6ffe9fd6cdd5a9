// Long workflow runs under the production adapters (simulators: 2 s per model call, Workers
// AI's published rate limits): a 200 rules × 50 videos run timed against the rate-limited
// minimum of the calls it made, the longest invocation, model calls per finding, another
// tenant's GET /videos and small run meanwhile; then 500 rules × 50 videos with a SIGKILL of
// the whole service mid-run, counting the model calls paid twice.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { ROOT } from "../../scripts/lib/local.mjs";
import { benchClient, fmt, json, load, startService, uploadFixture } from "../lib.mjs";

export const name = "long-runs";
/** This suite starts its own service (production adapters over the simulators). */
export const ownService = true;

const LATENCY_MS = 2000;
/** Text generation, as Workers AI publishes it and as the limiter paces it (95 %). */
const PUBLISHED_PER_MINUTE = 300;
const PACED_PER_MINUTE = 285;
const VIDEOS = 50;
const BASE = [
  "operators wear high visibility vests",
  "the loading dock is kept clear",
  "forklifts drive slowly near people",
  "spills are reported to the shift supervisor",
  "emergency exits are not blocked",
  "ladders are held by a second person",
  "gloves are worn when handling pallets",
  "safety glasses are worn when cutting",
  "the shift starts with a safety briefing",
  "a fire extinguisher is within reach",
];

function rules(count) {
  return Array.from({ length: count }, (_, i) => ({
    id: `rule-${i}`,
    title: `Rule ${i}: ${BASE[i % BASE.length]}`,
    description: `Check that ${BASE[i % BASE.length]} (variant ${Math.floor(i / BASE.length)}).`,
  }));
}

async function post(client, route, body) {
  return json(
    await fetch(`${client.api}${route}`, {
      method: "POST",
      headers: client.headers,
      body: JSON.stringify(body),
    }),
  );
}

async function getRun(client, id) {
  return json(await fetch(`${client.api}/runs/${id}`, { headers: client.headers }));
}

async function workflow(client, ruleCount, videoIds) {
  const rulebook = await post(client, "/rulebooks", {
    name: `${ruleCount} rules`,
    content: "Warehouse safety.",
    rules: rules(ruleCount),
  });
  return post(client, "/workflows", {
    name: `${ruleCount} rules over ${videoIds.length} videos`,
    playbook: "Judge only what the videos show or say.",
    rulebook_id: rulebook.id,
    source_ids: videoIds,
  });
}

async function uploadMany(client, count) {
  const ids = [];
  for (let i = 0; i < count; i += 10) {
    const slice = Array.from({ length: Math.min(10, count - i) }, () =>
      uploadFixture(client, "talk.mp4"),
    );
    ids.push(...(await Promise.all(slice)));
  }
  return ids;
}

async function waitFinal(client, id, onPoll = async () => undefined) {
  for (;;) {
    const run = await getRun(client, id);
    if (["completed", "failed", "canceled"].includes(run.status)) return run;
    await onPoll(run);
    // Polled often: the run's elapsed time is read here, to within this interval.
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/**
 * One SQL answer from the service's local D1 (the state folder wrangler dev writes), asked
 * again while the running service holds the database (SQLITE_BUSY).
 */
function d1(stateDir, query) {
  for (let attempt = 1; ; attempt++) {
    const result = spawnSync(
      path.join(ROOT, "node_modules", ".bin", "wrangler"),
      ["d1", "execute", "DB", "--local", "--persist-to", stateDir, "--json", "--command", query],
      { cwd: ROOT, encoding: "utf8", env: { ...process.env, WRANGLER_SEND_METRICS: "false" } },
    );
    if (result.status === 0) return JSON.parse(result.stdout)[0].results;
    if (attempt >= 20 || !/SQLITE_BUSY|database is locked/.test(result.stderr ?? "")) {
      throw new Error(`d1: ${result.stderr}`);
    }
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1000);
  }
}

async function callsStarted(service) {
  const stats = await json(await fetch(`${service.baseUrl}/__simulator/stats`));
  return stats.model_calls_started["text-generation"] ?? 0;
}

/** The longest invocation of the run's lanes, from the wrangler log's consumer lines. */
function stepsOf(stateDir, runId) {
  const [row] = d1(
    stateDir,
    `SELECT count(*) AS steps, sum(model_calls) AS calls, min(updated_at) AS first, max(updated_at) AS last FROM run_steps WHERE run_id = '${runId}'`,
  );
  return row;
}

function findingsOf(stateDir, run) {
  return d1(stateDir, `SELECT count(*) AS n FROM findings WHERE run_id = '${run.id}'`)[0].n;
}

/** The run's findings by state ("found 12, not_found 3, ..."), and how many were checked. */
function statesOf(stateDir, run) {
  const rows = d1(
    stateDir,
    `SELECT result_state AS state, count(*) AS n FROM findings WHERE run_id = '${run.id}' GROUP BY result_state ORDER BY result_state`,
  );
  const checked = rows.filter((r) => r.state !== "not_checked").reduce((sum, r) => sum + r.n, 0);
  return { text: rows.map((r) => `${r.state} ${r.n}`).join(", "), checked };
}

/**
 * Where a run's time went, in seconds from its POST: until its first step was stored (planning,
 * lanes starting), the steps that called the model, the steps after the budget ran out (no
 * calls), the finish step; and the hand-offs between its invocations (the service's log).
 */
function timelineOf(stateDir, logFile, runId, postedAt) {
  const rows = d1(
    stateDir,
    `SELECT kind, model_calls AS calls, updated_at AS at FROM run_steps WHERE run_id = '${runId}' AND state = 'done' ORDER BY updated_at`,
  );
  const at = (row) => (row ? (Date.parse(row.at) - postedAt) / 1000 : 0);
  const answers = rows.filter((r) => r.kind !== "finish");
  const calling = answers.filter((r) => r.calls > 0);
  const invocations = [];
  for (const line of readFileSync(logFile, "utf8").split("\n")) {
    const match = line.match(/\{"queue":"analysis-runs".*\}/);
    if (!match) continue;
    const entry = JSON.parse(match[0]);
    const end = (Date.parse(entry.ended_at) - postedAt) / 1000;
    if (end > 0 && end <= at(rows.at(-1)) + 1)
      invocations.push({ start: end - entry.invocation_ms / 1000, end });
  }
  const gaps = invocations.slice(1).map((inv, i) => inv.start - (invocations[i]?.end ?? inv.start));
  return {
    firstStep: at(answers[0]),
    firstCall: at(calling[0]),
    lastCall: at(calling.at(-1)),
    lastAnswer: at(answers.at(-1)),
    finish: at(rows.find((r) => r.kind === "finish")),
    noCallSteps: answers.length - calling.length,
    invocations: invocations.length,
    handOffs: gaps.length,
    handOffSeconds: gaps.reduce((sum, g) => sum + Math.max(0, g), 0),
  };
}

/**
 * The longest analysis-queue invocation, answer step and finish step the service logged
 * (src/queues/analysis.ts), in seconds of wall time (a step's CPU time is at most that).
 */
function longest(logFile) {
  const out = { invocation: 0, answer: 0, finish: 0 };
  const keys = {
    invocation: "invocation_ms",
    answer: "longest_answer_step_ms",
    finish: "longest_finish_step_ms",
  };
  for (const line of readFileSync(logFile, "utf8").split("\n")) {
    for (const [name, key] of Object.entries(keys)) {
      const match = line.match(new RegExp(`"${key}":(\\d+)`));
      if (match) out[name] = Math.max(out[name], Number(match[1]) / 1000);
    }
  }
  return out;
}

export async function run() {
  const service = await startService({
    adapters: "production",
    env: { SIMULATE_MODEL_LATENCY_MS: String(LATENCY_MS) },
  });
  try {
    return await measure(service);
  } finally {
    await service.stop();
  }
}

async function measure(service) {
  const big = await benchClient(service, "long runs: big");
  const small = await benchClient(service, "long runs: small");
  const bigVideos = await uploadMany(big, VIDEOS);
  const smallVideos = await uploadMany(small, 1);
  const main = await workflow(big, 200, bigVideos);
  const huge = await workflow(big, 500, bigVideos);
  const tiny = await workflow(small, 1, smallVideos);
  const videosUrl = `${small.api}/videos?limit=25`;
  const idle = await load({ url: videosUrl, headers: small.headers, seconds: 10, connections: 2 });
  const premium = { execution_profile_ref: "premium-analysis@1" };

  // 200 rules × 50 videos.
  const calls0 = await callsStarted(service);
  const started = performance.now();
  const postedAt = Date.now();
  const bigRun = await post(big, "/runs", { kind: "workflow", workflow_id: main.id, ...premium });
  let during = null;
  let smallDone = null;
  const done = await waitFinal(big, bigRun.id, async () => {
    if (during !== null) return;
    await new Promise((resolve) => setTimeout(resolve, 20_000));
    // Another tenant meanwhile: its list requests, then a one-rule run of its own.
    during = await load({ url: videosUrl, headers: small.headers, seconds: 10, connections: 2 });
    const smallStart = performance.now();
    const smallRun = await post(small, "/runs", { kind: "workflow", workflow_id: tiny.id });
    const ended = await waitFinal(small, smallRun.id);
    smallDone = { status: ended.status, seconds: (performance.now() - smallStart) / 1000 };
  });
  const elapsed = (performance.now() - started) / 1000;
  const calls = (await callsStarted(service)) - calls0;
  const steps = stepsOf(service.stateDir, bigRun.id);
  const findings = findingsOf(service.stateDir, done);
  const timeline = timelineOf(service.stateDir, service.logFile, bigRun.id, postedAt);
  const minimum = (calls / PUBLISHED_PER_MINUTE) * 60;
  const pacedMinimum = (calls / PACED_PER_MINUTE) * 60;
  // Shown at once: the second run takes long, and a failure there must not lose the first.
  console.log(
    JSON.stringify({
      run: "200x50",
      status: done.status,
      findings,
      calls,
      elapsed,
      minimum,
      steps,
      timeline,
      during,
      idle,
      smallDone,
    }),
  );

  // 500 rules × 50 videos, with a SIGKILL of the whole service an eighth of the way: while its
  // steps still call the model (premium's 2,000,000 tokens cover ~600 batched calls here).
  const hugeStart = performance.now();
  const hugeRun = await post(big, "/runs", { kind: "workflow", workflow_id: huge.id, ...premium });
  let before = 0;
  let killedAt = null;
  await waitFinal(big, hugeRun.id, async () => {
    if (killedAt !== null) return;
    const { done: stepsDone, total } = d1(
      service.stateDir,
      `SELECT sum(state = 'done') AS done, count(*) AS total FROM run_steps WHERE run_id = '${hugeRun.id}'`,
    )[0];
    if (total === 0 || stepsDone < total / 8) return;
    before = await callsStarted(service);
    killedAt = (performance.now() - hugeStart) / 1000;
    await service.crashAndRestart();
  });
  const hugeDone = await getRun(big, hugeRun.id);
  const hugeElapsed = (performance.now() - hugeStart) / 1000;
  const after = await callsStarted(service);
  const hugeSteps = stepsOf(service.stateDir, hugeRun.id);
  // Calls made before the kill by this run alone: everything the simulator saw since the main
  // run, less nothing else (no other work was running).
  const paid = before - (calls0 + calls) + after;
  const repeated = paid - Number(hugeSteps.calls ?? 0);
  const times = longest(service.logFile);
  const mainStates = statesOf(service.stateDir, done);
  const hugeStates = statesOf(service.stateDir, hugeDone);

  return [
    "### Long workflow runs (production adapters over the simulators)",
    "",
    `\`ADAPTERS=production\`, \`SIMULATE_MODEL_LATENCY_MS=${LATENCY_MS}\`, the simulated Workers AI keeping the published 300 text-generation calls a minute (the limiter paces ${PACED_PER_MINUTE}). ${VIDEOS} processed copies of talk.mp4 (24 s); execution profile premium-analysis@1. Default settings otherwise (30 s invocations of at most 150 steps, 16 lanes, 8 questions per step).`,
    "",
    `| run | status | findings | model calls | calls per finding | elapsed s | minimum s at 300/min (at ${PACED_PER_MINUTE}/min) | elapsed ÷ minimum | steps |`,
    "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    `| 200 rules × 50 videos | ${done.status} | ${findings} | ${calls} | ${fmt(calls / Math.max(1, findings), 3)} | ${fmt(elapsed)} | ${fmt(minimum)} (${fmt(pacedMinimum)}) | ${fmt(elapsed / Math.max(1, minimum), 2)} | ${steps.steps} |`,
    `| 500 rules × 50 videos, SIGKILL at ${fmt(killedAt ?? 0)} s | ${hugeDone.status} | ${findingsOf(service.stateDir, hugeDone)} | ${paid} | ${fmt(paid / Math.max(1, findingsOf(service.stateDir, hugeDone)), 3)} | ${fmt(hugeElapsed)} | ${fmt((paid / PUBLISHED_PER_MINUTE) * 60)} | ${fmt(hugeElapsed / Math.max(1, (paid / PUBLISHED_PER_MINUTE) * 60), 2)} | ${hugeSteps.steps} |`,
    "",
    `- Where the 200 × 50 run's ${fmt(elapsed)} s went (s after its POST): first step stored at ${fmt(timeline.firstStep)} (planning, its lanes starting); steps calling the model from ${fmt(timeline.firstCall)} to ${fmt(timeline.lastCall)} (${calls} calls, ${fmt(calls / Math.max(1, timeline.lastCall - timeline.firstCall + 2), 2)} calls/s counting the first call's 2 s); ${timeline.noCallSteps} steps after the budget ran out (no calls) until ${fmt(timeline.lastAnswer)}; the finish step stored at ${fmt(timeline.finish)}. ${timeline.invocations} invocations, ${timeline.handOffs} hand-offs between them: ${fmt(timeline.handOffSeconds)} s with no invocation running.`,
    `- Findings by state: 200 × 50 ${mainStates.text}; 500 × 50 ${hugeStates.text}. A not_checked finding is one the run's budget (premium-analysis@1, 2,000,000 tokens) no longer covered: no model call. Model calls per checked finding: ${fmt(calls / Math.max(1, mainStates.checked), 3)} and ${fmt(paid / Math.max(1, hugeStates.checked), 3)}.`,
    `- Model calls paid twice because of the SIGKILL: ${repeated} (calls started ${paid}, calls stored by the run's steps ${hugeSteps.calls}); a step in flight at the kill is asked again, a stored one never.`,
    `- Longest analysis-queue invocation (both runs, the service's own log): ${fmt(times.invocation)} s (budget 30 s plus the steps under way); longest answer step ${fmt(times.answer, 2)} s, longest finish step ${fmt(times.finish, 2)} s (wall time, which bounds their CPU time).`,
    `- Another workspace's GET /videos (2 connections, 10 s): idle p99 ${fmt(idle.p99)} ms (${fmt(idle.rps)} req/s); during the 200 × 50 run p99 ${fmt(during?.p99 ?? 0)} ms (${fmt(during?.rps ?? 0)} req/s), ${fmt((during?.p99 ?? 0) / Math.max(1, idle.p99), 2)}× idle.`,
    `- Its one-rule run started 20 s into the big one: ${smallDone?.status ?? "not run"} after ${fmt(smallDone?.seconds ?? 0)} s (one model call, shared fairly by the limiter).`,
    `- p50 of the small tenant's GET /videos during the run: ${fmt(during?.p50 ?? 0)} ms; idle ${fmt(idle.p50)} ms.`,
  ].join("\n");
}
