// `npm test`'s Vitest run, under a watchdog. The workerd pool can stop mid-run with every test
// it ran passed and nothing more ever printed (cloudflare/workers-sdk#15498, open): Vitest then
// waits for ever. The watchdog reads the run's progress (scripts/lib/test-progress.mjs); when
// nothing has happened for longer than any test or hook in flight may take, it stops the run and
// runs again only the files that did not finish, at most twice. A file that finished keeps its
// result: a failure is never run again, so a stall can neither hide nor cause one. A file that
// failed before collecting a test, with no other file failed, is run again the same way.
// The whole suite runs as two Vitest runs in turn, the workerd group and then the node group
// (docs/decisions/tests.md): the pool's stall comes after a group's last file, and a run whose
// every file has ended is stopped within FINISHED_MS instead of waiting IDLE_MS.
// Arguments are Vitest's (`npm test -- test/workers/x.test.ts --project workers`).
import { spawn } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ROOT } from "./lib/local.mjs";
import { memoryScratch } from "./lib/test-scratch.mjs";

const VITEST = path.join(ROOT, "node_modules", ".bin", "vitest");
const REPORTER = path.join(ROOT, "scripts", "lib", "test-progress.mjs");
/** Nothing in flight (between files, collecting, tearing down): a pool this quiet has stopped. */
const IDLE_MS = Number(process.env.VAS_TEST_STALL_IDLE_SECONDS ?? 240) * 1000;
/** A test or hook in flight: the longest test timeout set (600 s) and a margin. */
const BUSY_MS = Number(process.env.VAS_TEST_STALL_BUSY_SECONDS ?? 660) * 1000;
/** Every planned file ended and nothing in flight: a run still open this long has stalled. */
const FINISHED_MS = Number(process.env.VAS_TEST_FINISHED_SECONDS ?? 20) * 1000;
const ATTEMPTS = 3;
/** Vitest options that take the next argument as their value. */
const VALUED = new Set(["--project", "--config", "-c", "--root", "-r", "--dir", "--exclude"]);

/**
 * The runs' temporary folder: a memory-backed one when the machine has room
 * (scripts/lib/test-scratch.mjs), unless the caller named one with TMPDIR.
 */
const scratch = process.env.TMPDIR ? null : memoryScratch();
const TEMP_ENV = scratch ? { TMPDIR: scratch.dir } : {};

/** How to stop each Vitest run in flight; an interrupt of `npm test` stops them all. */
const running = new Set();
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    for (const stop of running) stop();
    scratch?.remove();
    process.exit(130);
  });
}

/** What a run's progress file says: files planned and ended, what is in flight, the last event. */
function readProgress(file, startedAt) {
  const planned = new Map();
  const ended = new Map();
  /** Files that ended failed without collecting a test: they never ran one. */
  const unloaded = new Set();
  const inFlight = new Set();
  let last = startedAt;
  const text = existsSync(file) ? readFileSync(file, "utf8") : "";
  for (const line of text.split("\n")) {
    if (!line) continue;
    const e = JSON.parse(line);
    last = Math.max(last, e.at);
    const key = `${e.project}\t${e.file}`;
    if (e.event === "planned") planned.set(key, { project: e.project, file: e.file });
    else if (e.event === "module-end") {
      ended.set(key, e.state);
      if (e.state === "failed" && e.tests === 0) unloaded.add(key);
      else unloaded.delete(key);
    } else if (e.event === "case-start" || e.event === "hook-start") inFlight.add(e.id);
    else if (e.event === "case-end" || e.event === "hook-end") inFlight.delete(e.id);
  }
  return { planned, ended, unloaded, inFlight, last };
}

/** One Vitest run; resolves with its exit code, or with the progress it made when it stalled. */
function runOnce(args, attempt) {
  const progress = path.join(tmpdir(), `vas-test-${process.pid}-${attempt}.jsonl`);
  rmSync(progress, { force: true });
  const startedAt = Date.now();
  const child = spawn(VITEST, [...args, "--reporter=default", `--reporter=${REPORTER}`], {
    cwd: ROOT,
    stdio: "inherit",
    detached: true,
    env: { ...process.env, ...TEMP_ENV, VAS_TEST_PROGRESS: progress },
  });
  const stop = () => {
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  };
  running.add(stop);
  return new Promise((resolve) => {
    const timer = setInterval(
      () => {
        const state = readProgress(progress, startedAt);
        const finished =
          state.planned.size > 0 &&
          state.inFlight.size === 0 &&
          [...state.planned.keys()].every((key) => state.ended.has(key));
        const quiet = Date.now() - state.last;
        if (finished && quiet >= FINISHED_MS) {
          clearInterval(timer);
          child.removeAllListeners("exit");
          stop();
          const failed = [...state.ended.values()].some((ended) => ended === "failed");
          console.error(
            `\nnpm test: every file had finished ${Math.round(quiet / 1000)} s ago and Vitest had ` +
              "not exited; stopped it (the workerd pool's stall, cloudflare/workers-sdk#15498).",
          );
          resolve({ stalled: false, code: failed ? 1 : 0, ...state });
          return;
        }
        const allowed = state.inFlight.size > 0 ? BUSY_MS : IDLE_MS;
        if (quiet < allowed) return;
        clearInterval(timer);
        child.removeAllListeners("exit");
        stop();
        resolve({ stalled: true, quietMs: quiet, ...state });
      },
      Math.min(5_000, IDLE_MS / 3, FINISHED_MS / 3),
    );
    child.on("exit", (code, signal) => {
      clearInterval(timer);
      running.delete(stop);
      const state = readProgress(progress, startedAt);
      rmSync(progress, { force: true });
      resolve({ stalled: false, code: code ?? (signal ? 1 : 0), ...state });
    });
  });
}

/** The run's options without its file filters, for a run of named files. */
function optionsOf(args) {
  const options = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (!arg.startsWith("-")) continue;
    options.push(arg);
    if (VALUED.has(arg) && i + 1 < args.length) options.push(args[++i]);
  }
  return options.filter((a, i, all) => a !== "--project" && all[i - 1] !== "--project");
}

/** The files (relative to the project) and projects of the planned files `keys` name. */
function filesOf(keys, planned) {
  const specs = keys.map((key) => planned.get(key));
  return {
    files: specs.map((spec) => path.relative(ROOT, spec.file)),
    projects: [...new Set(specs.map((spec) => spec.project))],
  };
}

/** The arguments of a run of `files` of `projects`, with the options of `args`. */
function runOf(args, { projects, files }) {
  return [
    "run",
    ...optionsOf(args.slice(1)),
    ...projects.flatMap((p) => ["--project", p]),
    ...files,
  ];
}

/**
 * One run under the watchdog: a stalled run is stopped and its unfinished files run again, at
 * most ATTEMPTS times. A file that failed without collecting a test is run again too, when no
 * other file failed: the workerd pool fails the next file's load when work an earlier file left
 * in flight outlives it ("Closing rpc while \"resolve\" was pending"). It never ran a test, so
 * no test failure can be hidden, and a file that cannot load fails again. Resolves true when
 * every file passed.
 */
async function watched(args, lane) {
  let runArgs = args;
  let failed = false;
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    const outcome = await runOnce(runArgs, `${lane}-${attempt}`);
    if (!outcome.stalled) {
      if (outcome.code === 0) return !failed;
      const failures = [...outcome.ended].filter(([, state]) => state === "failed");
      const unloaded = failures.filter(([key]) => outcome.unloaded.has(key));
      if (unloaded.length === 0 || unloaded.length < failures.length || attempt === ATTEMPTS)
        return false;
      const again = filesOf(
        unloaded.map(([key]) => key),
        outcome.planned,
      );
      console.error(
        `\nnpm test: ${again.files.length} file(s) failed before collecting a test, and no other ` +
          `file failed; running them again: ${again.files.join(", ")}\n`,
      );
      runArgs = runOf(args, again);
      continue;
    }
    const unfinished = [...outcome.planned.keys()].filter((key) => !outcome.ended.has(key));
    const failures = [...outcome.ended].filter(([, state]) => state === "failed");
    if (failures.length > 0) failed = true;
    const minutes = (outcome.quietMs / 60_000).toFixed(1);
    console.error(
      `\nnpm test: Vitest made no progress for ${minutes} min with ${outcome.inFlight.size} test(s) ` +
        `in flight; ${outcome.ended.size} of ${outcome.planned.size} files had finished` +
        `${failures.length ? ` (${failures.length} failed)` : ""}. Stopped it (the workerd pool's ` +
        `stall, cloudflare/workers-sdk#15498).`,
    );
    if (unfinished.length === 0) return !failed;
    const again = filesOf(unfinished, outcome.planned);
    if (attempt === ATTEMPTS) {
      console.error(
        `npm test: still not finished after ${ATTEMPTS} runs: ${again.files.join(", ")}`,
      );
      return false;
    }
    console.error(
      `npm test: running the ${again.files.length} unfinished file(s) again: ${again.files.join(", ")}\n`,
    );
    runArgs = runOf(args, again);
  }
  return !failed;
}

/** The whole suite's runs, in turn: the workerd and client files, then the node files. */
const GROUPS = [
  ["run", "--project", "workers", "--project", "client"],
  ["run", "--project", "node", "--project", "node-production"],
];

const given = process.argv.slice(2);
const args = given[0] === "run" ? given : ["run", ...given];
const whole = args.length === 1;
let passed = true;
for (const [lane, group] of (whole ? GROUPS : [args]).entries()) {
  if (!(await watched(group, lane))) passed = false;
}
scratch?.remove();
process.exit(passed ? 0 : 1);
