// Shared by the benchmark suites: a local service on a free port, autocannon runs, and
// the Markdown they report.
import { mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import {
  localConfig,
  ROOT,
  startSweeps,
  startWrangler,
  waitForReady,
} from "../scripts/lib/local.mjs";
import { applyMigrations } from "../scripts/lib/migrations.mjs";

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

/**
 * Starts `wrangler dev` with a fresh state folder: on the bench entry (bench/worker.ts) with
 * the local adapters, or with `adapters: "production"` the production adapters over the local
 * simulators (and the sweep, as npm run dev fires it); `env` adds settings (the simulators'
 * knobs).
 */
export async function startService({ adapters = "local", env = {} } = {}) {
  const stateDir = mkdtempSync(path.join(tmpdir(), "vas-bench-"));
  const adminToken = `bench-${Date.now()}`;
  const config = localConfig({
    ...process.env,
    ...env,
    ADAPTERS: adapters,
    PORT: String(await freePort()),
    STATE_DIR: stateDir,
    ADMIN_TOKEN: adminToken,
  });
  await applyMigrations(config.stateDir);
  // wrangler's own output goes to a log beside the state, for diagnosing a failed run.
  const logFile = path.join(tmpdir(), `vas-bench-wrangler-${Date.now()}.log`);
  const log = openSync(logFile, "w");
  const script = adapters === "production" ? undefined : "bench/worker.ts";
  const launch = () => {
    const started = startWrangler(config, { stdio: ["ignore", log, log], script, detached: true });
    // The sweep, as npm run dev fires it (cron triggers never fire under wrangler dev).
    if (adapters === "production") startSweeps(config, started);
    return started;
  };
  let child = launch();
  await waitForReady(config.baseUrl, child);
  const admin = async (method, route, body) => {
    const res = await fetch(`${config.baseUrl}/admin/v1${route}`, {
      method,
      headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`admin ${route}: ${res.status} ${await res.text()}`);
    return res.json();
  };
  return {
    baseUrl: config.baseUrl,
    logFile,
    stateDir,
    admin,
    /** SIGKILLs the whole process group (wrangler and workerd), then starts it again. */
    async crashAndRestart() {
      const dead = new Promise((resolve) => child.once("exit", resolve));
      process.kill(-child.pid, "SIGKILL");
      await dead;
      await new Promise((resolve) => setTimeout(resolve, 1000));
      child = launch();
      await waitForReady(config.baseUrl, child);
    },
    async stop() {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
      rmSync(stateDir, { recursive: true, force: true });
    },
  };
}

/** One autocannon run; returns requests/s and latency percentiles in ms. */
export async function load({
  url,
  headers = {},
  method = "GET",
  body,
  seconds = 5,
  connections = 10,
}) {
  const result = await autocannon({ url, headers, method, body, duration: seconds, connections });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  }
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    total: result.requests.total,
  };
}

/**
 * Measures a candidate against a baseline in alternating rounds (the machine is shared
 * and noisy, so only ratios taken in the same run are reported).
 */
export async function compare(candidate, baseline, { rounds = 3, seconds = 5 } = {}) {
  await load({ ...baseline, seconds: 2 });
  await load({ ...candidate, seconds: 2 });
  const runs = { candidate: [], baseline: [] };
  for (let i = 0; i < rounds; i++) {
    runs.baseline.push(await load({ ...baseline, seconds }));
    runs.candidate.push(await load({ ...candidate, seconds }));
  }
  const mean = (list, key) => list.reduce((sum, run) => sum + run[key], 0) / list.length;
  const summary = (list) => ({
    rps: mean(list, "rps"),
    p50: mean(list, "p50"),
    p99: mean(list, "p99"),
  });
  const c = summary(runs.candidate);
  const b = summary(runs.baseline);
  return { candidate: c, baseline: b, ratio: c.rps / b.rps };
}

/** Formats a number for the report. */
export function fmt(value, digits = 1) {
  return Number(value).toFixed(digits);
}

/** The JSON body of a response; throws with the body on a non-2xx answer. */
export async function json(res) {
  const text = await res.text();
  if (!res.ok) throw new Error(`${res.status}: ${text}`);
  return JSON.parse(text);
}

/** The p-th percentile (0..1) of a list of numbers. */
export function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))];
}

/**
 * Runs `request(i)` `times` times in sequence; returns median, p95 and max ms and the median
 * (`breakdown`) and p95 (`breakdown95`) of each Server-Timing phase.
 */
export async function timed(request, times) {
  return (await timedTogether({ request }, times)).request;
}

/**
 * Runs each of `requests` (named functions of i) in turn, `times` rounds: one request of
 * each per round, so that all see the same moments of a shared, noisy machine and their
 * ratio is fair. Returns, per name, what `timed` returns.
 */
export async function timedTogether(requests, times) {
  const records = Object.fromEntries(
    Object.keys(requests).map((name) => [name, { samples: [], phases: {} }]),
  );
  for (let i = 0; i < times; i++) {
    for (const [name, request] of Object.entries(requests)) {
      const { samples, phases } = records[name];
      const started = performance.now();
      const res = await request(i);
      await json(res);
      samples.push(performance.now() - started);
      for (const part of (res.headers.get("server-timing") ?? "").split(",")) {
        const match = part.trim().match(/^(\w+);dur=([\d.]+)$/);
        if (!match) continue;
        phases[match[1]] ??= [];
        phases[match[1]].push(Number(match[2]));
      }
    }
  }
  return Object.fromEntries(
    Object.entries(records).map(([name, { samples, phases }]) => {
      const at = (p) =>
        Object.entries(phases)
          .map(([phase, values]) => `${phase} ${percentile(values, p).toFixed(1)}`)
          .join(", ");
      const stats = {
        median: percentile(samples, 0.5),
        p95: percentile(samples, 0.95),
        max: Math.max(...samples),
        breakdown: at(0.5),
        breakdown95: at(0.95),
      };
      return [name, stats];
    }),
  );
}

/** Reads until `done` holds, every 100 ms. */
export async function until(read, done) {
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A fresh alpha workspace with an all-permission key: the API root and request headers. */
export async function benchClient(service, name) {
  const workspace = await service.admin("POST", "/workspaces", { name, alpha_opt_in: true });
  const { key } = await service.admin("POST", "/keys", {
    workspace_id: workspace.id,
    type: "alpha",
    permissions: ["*"],
  });
  return {
    workspaceId: workspace.id,
    api: `${service.baseUrl}/api/v1alpha1`,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
  };
}

/** Uploads a media fixture like any client and waits for its processing; its video id. */
export async function uploadFixture({ api, headers }, file) {
  const bytes = readFileSync(path.join(ROOT, "test/fixtures/media", file));
  const session = await json(
    await fetch(`${api}/videos`, {
      method: "POST",
      headers,
      body: JSON.stringify({ filename: file, file_size: bytes.length }),
    }),
  );
  await fetch(session.target.url, { method: "PUT", headers: session.target.headers, body: bytes });
  await json(
    await fetch(`${api}/videos/${session.video_id}/upload/complete`, {
      method: "POST",
      headers,
      body: "{}",
    }),
  );
  const video = await until(
    async () => json(await fetch(`${api}/videos/${session.video_id}`, { headers })),
    (v) => v.status === "completed" || v.status === "failed",
  );
  if (video.status === "failed") throw new Error(`${file}: ${JSON.stringify(video.error)}`);
  return video.id;
}
