// Shared by `npm run dev`, `npm start`, the admin CLI and the benchmarks: the local
// configuration, its secrets file and the wrangler processes.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { connect, createServer } from "node:net";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { SIMULATOR_DEFAULTS } from "./banner.mjs";
import { applyMigrations } from "./migrations.mjs";
import { startScreenReader } from "./screen-reader.mjs";
import { wranglerOutputFilter } from "./wrangler-output.mjs";

/** The repository root. */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const WRANGLER = path.join(ROOT, "node_modules", ".bin", "wrangler");

/** How often the local start scripts fire the crash sweep, in seconds, unless told. */
export const DEFAULT_SWEEP_INTERVAL_SECONDS = 60;

/** Parses KEY=VALUE lines (the .dev.vars format), ignoring comments. */
export function parseVars(text) {
  const vars = {};
  for (const line of text.split(/\r?\n/)) {
    const match = line.match(/^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/);
    if (match) vars[match[1]] = match[2].replace(/^(["'])(.*)\1$/, "$2");
  }
  return vars;
}

/** Reads .dev.vars, creating it from .dev.vars.example with fresh secrets when absent. */
export function ensureDevVars() {
  const file = path.join(ROOT, ".dev.vars");
  if (!existsSync(file)) {
    const example = readFileSync(path.join(ROOT, ".dev.vars.example"), "utf8");
    writeFileSync(
      file,
      example.replace(/=generate$/gm, () => `=${randomBytes(24).toString("hex")}`),
      {
        mode: 0o600,
      },
    );
  }
  return parseVars(readFileSync(file, "utf8"));
}

/** Port, state folder and secrets of a local run, from the environment and .dev.vars. */
export function localConfig(env = process.env) {
  const vars = ensureDevVars();
  const secrets = { ...vars };
  if (env.ADMIN_TOKEN !== undefined) secrets.ADMIN_TOKEN = env.ADMIN_TOKEN;
  // The crash sweep's lease, the crash test's pause points (test-only), the webhook URL
  // policy and retries, and the simulators' knobs (read only with ADAPTERS=production). Unset,
  // the webhook URL policy is wrangler.toml's for the adapters: loopback allowed with the local
  // ones, production's (public https only) with the production ones.
  for (const name of [
    "WORK_LEASE_SECONDS",
    "RUN_INVOCATION_SECONDS",
    "WORK_PAUSE_AT",
    "WEBHOOK_ALLOW_LOOPBACK_HTTP",
    "WEBHOOK_RETRY_SCHEDULE",
    "WEBHOOK_RETRY_JITTER",
    ...SIMULATOR_SETTINGS,
  ])
    if (env[name] !== undefined) secrets[name] = env[name];
  if (!secrets.ADMIN_TOKEN) delete secrets.ADMIN_TOKEN;
  const port = Number(env.PORT ?? 8787);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`PORT is not a port: ${env.PORT}`);
  const stateDir = path.resolve(ROOT, env.STATE_DIR ?? ".wrangler/state");
  const sweepSeconds = Number(env.SWEEP_INTERVAL_SECONDS ?? DEFAULT_SWEEP_INTERVAL_SECONDS);
  if (!Number.isInteger(sweepSeconds) || sweepSeconds < 1)
    throw new Error(
      `SWEEP_INTERVAL_SECONDS is not a whole number of seconds: ${env.SWEEP_INTERVAL_SECONDS}`,
    );
  // simulators/broken.ts reads it per request; a typo would answer every request with a 500.
  const broken = env.SIMULATE_BROKEN?.trim();
  if (broken && !BROKEN.test(broken))
    throw new Error(
      `SIMULATE_BROKEN takes none or a comma list of speech, vision or media, each optionally :refuse or :quota, not ${env.SIMULATE_BROKEN}`,
    );
  // simulators/scripted-errors.ts reads it per request too.
  const errors = env.SIMULATE_ERRORS?.trim();
  if (errors && !ERRORS.test(errors))
    throw new Error(
      `SIMULATE_ERRORS takes none or a comma list of part=error[xN] (parts speech, vision, answers, embeddings; errors a code, unknown or json-mode), not ${env.SIMULATE_ERRORS}`,
    );
  // The Worker reads anything but "true" as production's policy; a typo must not do so silently.
  const loopback = env.WEBHOOK_ALLOW_LOOPBACK_HTTP;
  if (loopback !== undefined && loopback !== "true" && loopback !== "false")
    throw new Error(`WEBHOOK_ALLOW_LOOPBACK_HTTP must be "true" or "false", not ${loopback}`);
  const adapters = env.ADAPTERS ?? "local";
  if (adapters !== "local" && adapters !== "production")
    throw new Error(`ADAPTERS must be "local" or "production", not ${env.ADAPTERS}`);
  const baseUrl = `http://127.0.0.1:${port}`;
  // The simulators' R2 endpoint is this service's own origin.
  if (adapters === "production") secrets.SIMULATOR_ORIGIN = baseUrl;
  return { port, stateDir, secrets, sweepSeconds, baseUrl, adapters };
}

/** What tunes the local simulators of the production platform (README, configuration). */
const SIMULATOR_SETTINGS = Object.keys(SIMULATOR_DEFAULTS);
const BROKEN_PART = "(speech|vision|media)(:(refuse|quota))?";
const BROKEN = new RegExp(`^(none|${BROKEN_PART}(\\s*,\\s*${BROKEN_PART})*)$`);
const ERRORS_PART =
  "\\s*(speech|vision|answers|embeddings)\\s*=\\s*(\\d+|unknown|json-mode)(x\\d+)?\\s*";
const ERRORS = new RegExp(`^(none|${ERRORS_PART}(,${ERRORS_PART})*)$`);

/** Prints one line to stderr and exits non-zero: a refusal, not a crash with a stack. */
export function refuse(message) {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

/**
 * Refuses to start when something already listens on the port. Without this, wrangler
 * fails late with a workerd stack, and `npm start` would meanwhile find the *other*
 * server answering /healthz and mint a demo key inside it.
 */
export async function ensurePortFree({ port }) {
  // Connecting finds any listener that 127.0.0.1 reaches, including one on 0.0.0.0 that a
  // test bind (SO_REUSEADDR) would not collide with; the bind then catches EACCES and the like.
  const answered = await new Promise((resolve) => {
    const socket = connect({ port, host: "127.0.0.1" });
    const settle = (inUse) => {
      socket.destroy();
      resolve(inUse);
    };
    socket.setTimeout(2000);
    socket.once("connect", () => settle(true));
    socket.once("timeout", () => settle(true));
    socket.once("error", () => settle(false));
  });
  if (answered) refuse(`port ${port} is in use; set PORT`);
  const problem = await new Promise((resolve) => {
    const probe = createServer();
    probe.once("error", (error) => resolve(error));
    probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(null)));
  });
  if (problem === null) return;
  if (problem.code === "EADDRINUSE") refuse(`port ${port} is in use; set PORT`);
  refuse(`cannot listen on port ${port} (${problem.code ?? problem.message}); set PORT`);
}

/**
 * A value for wrangler's env file, which dotenv parses and dotenv-expand then expands (even
 * inside quotes). Single quotes keep `#`, spaces and double quotes; `\$` keeps a dollar sign
 * (the expander skips it and turns it back into `$`). A single quote or a line break cannot
 * be written this way, so such a value is refused rather than silently changed.
 */
function envFileValue(key, value) {
  if (/['\r\n]/.test(value)) {
    throw new Error(`${key} must not contain a single quote or a line break`);
  }
  return `'${value.replace(/\$/g, "\\$")}'`;
}

/**
 * Starts `wrangler dev`. Secrets go through an env file in the state folder (never on the
 * command line, where wrangler would print them). `script` replaces wrangler.toml's `main`
 * with the same bindings (the bench entry).
 */
export function startWrangler(
  { port, stateDir, secrets, adapters = "local" },
  { stdio = "inherit", script, detached = false } = {},
) {
  const envFile = path.join(stateDir, "runtime.env");
  writeFileSync(
    envFile,
    Object.entries(secrets)
      .map(([key, value]) => `${key}=${envFileValue(key, value)}`)
      .join("\n"),
    { mode: 0o600 },
  );
  chmodSync(envFile, 0o600);
  const child = spawn(
    WRANGLER,
    [
      "dev",
      ...(script === undefined ? [] : [script]),
      // The production adapters over the local simulators (wrangler.toml [env.simulated]).
      ...(adapters === "production" ? ["--env", "simulated"] : []),
      "--local",
      "--ip",
      "127.0.0.1",
      "--port",
      String(port),
      "--persist-to",
      stateDir,
      "--env-file",
      envFile,
      "--show-interactive-dev-session=false",
      // Port 0: the OS picks the devtools port. wrangler's default probes 9229 and up, and
      // several local processes starting at once (the node suite, the bench) race for it.
      "--inspector-port",
      "0",
    ],
    {
      cwd: ROOT,
      stdio: stdio === "inherit" ? ["inherit", "pipe", "pipe"] : stdio,
      // Its own process group, so a crash test can SIGKILL wrangler and workerd together.
      detached,
      env: {
        // wrangler's local trace store (on by default) writes every request's trace into
        // the state folder, which then grows with every request (1.7 GB after the 1M-segment
        // bench) and costs each request ~15% more; the service logs to stdout instead. An
        // operator can turn it back on with X_LOCAL_OBSERVABILITY=true.
        X_LOCAL_OBSERVABILITY: "false",
        // wrangler's dev registry (shared by every local wrangler of the user) lets local
        // Workers bind to each other; this service binds to none. Shared, every other wrangler
        // starting or stopping reloads this one mid-work ("Connection status updated"), so
        // each state folder keeps its own.
        WRANGLER_REGISTRY_PATH: path.join(stateDir, "dev-registry"),
        ...process.env,
        WRANGLER_SEND_METRICS: "false",
        CLOUDFLARE_CF_FETCH_ENABLED: "false",
      },
    },
  );
  if (stdio === "inherit") {
    passFiltered(child.stdout, process.stdout);
    passFiltered(child.stderr, process.stderr);
  }
  return child;
}

/** Copies wrangler's lines to `to`, leaving out its repeats and false alarms. */
function passFiltered(from, to) {
  const shown = wranglerOutputFilter();
  createInterface({ input: from, crlfDelay: Number.POSITIVE_INFINITY }).on("line", (line) => {
    if (shown(line)) to.write(`${line}\n`);
  });
}

/** Resolves once GET /healthz answers, or rejects after `timeoutMs`. */
export async function waitForReady(baseUrl, child, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child && child.exitCode !== null)
      throw new Error(`wrangler dev exited with ${child.exitCode}`);
    try {
      const res = await fetch(`${baseUrl}/healthz`);
      if (res.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the service did not become ready at ${baseUrl}`);
}

/** Forwards termination signals to a child and exits with it. */
export function supervise(child) {
  for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
  child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

/**
 * Cron triggers never fire under `wrangler dev`, so the crash sweep is fired here: once as
 * soon as the service answers (work a crash left behind is picked up at start-up) and then
 * every `sweepSeconds`, through the local runtime's scheduled-handler route.
 */
export function startSweeps({ baseUrl, sweepSeconds }, child) {
  let timer;
  const sweep = async () => {
    try {
      const res = await fetch(`${baseUrl}/cdn-cgi/handler/scheduled?cron=*+*+*+*+*`);
      await res.arrayBuffer();
      if (!res.ok) console.error(`the crash sweep answered ${res.status}`);
    } catch (error) {
      if (child.exitCode === null) console.error(`the crash sweep failed: ${error}`);
    }
  };
  child.once("exit", () => clearInterval(timer));
  waitForReady(baseUrl, child).then(
    () => {
      if (child.exitCode !== null) return;
      timer = setInterval(sweep, sweepSeconds * 1000);
      void sweep();
    },
    () => {
      // The service never came up; its own exit says why.
    },
  );
}

/**
 * What `npm run dev` and `npm start` both do: read the configuration (refusing a bad one in
 * one line), refuse a busy port, apply migrations, start wrangler under supervision and fire
 * the crash sweep. `check` refuses a configuration the caller cannot run with.
 */
export async function launchLocal(check = () => undefined) {
  let config;
  try {
    config = localConfig();
  } catch (error) {
    refuse(error.message);
  }
  check(config);
  await ensurePortFree(config);
  // The screen reader loads its models while the migrations apply.
  const reading = config.adapters === "local" ? startScreenReader() : null;
  await applyMigrations(config.stateDir);
  const screenReader = await withScreenReader(config, reading);
  const child = startWrangler(config);
  child.once("exit", () => screenReader?.child?.kill("SIGTERM"));
  supervise(child);
  startSweeps(config, child);
  return { config, child, screenReader };
}

/**
 * Hands the screen reader's address and secret to the Worker, or says in one line why
 * on-screen text will not be read (the service then runs without it).
 */
async function withScreenReader(config, reading) {
  if (reading === null) return null;
  const reader = await reading;
  if (reader.notice) {
    process.stderr.write(`${reader.notice}\n`);
    return reader;
  }
  config.secrets.SCREEN_READER_URL = reader.url;
  config.secrets.SCREEN_READER_SECRET = reader.secret;
  if (reader.speech) config.secrets.SCREEN_READER_SPEECH = reader.speech;
  // With WHISPER_URL the speech it finds is also transcribed: the Worker then hears speech.
  if (reader.transcribes) config.secrets.SCREEN_READER_TRANSCRIBES = "true";
  else process.stderr.write(`${reader.speechNotice}\n`);
  return reader;
}
