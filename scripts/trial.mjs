// npm run trial -- --base-url URL --key KEY [--out DIR]: uploads the committed trial set (a
// phone's HEVC, a browser's WebM, German speech without captions, AV1, a long file) one file at
// a time, waits for each to be indexed, and writes trial.json and trial.md: what was heard and
// seen, limitations by reason, time to indexed and model calls, and the answers these give to
// the questions the platform's docs leave open (docs/deploy.md, "The trial"). The key may come
// from VAS_API_KEY; neither it nor a presigned URL is printed or written.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { apiClient } from "./lib/smoke-steps.mjs";
import { buildReport } from "./lib/trial-report.mjs";
import { runTrialFile } from "./lib/trial-run.mjs";
import { TRIAL_SET } from "./lib/trial-set.mjs";

const USAGE = `usage: npm run trial -- --base-url URL [--key KEY] [--out DIR] [options]
  --base-url URL      the service's origin (https://api.example.com)
  --key KEY           an API key with every permission (else VAS_API_KEY)
  --out DIR           where trial.json and trial.md are written (default trial-output)
  --only NAMES        a comma list of trial files (${TRIAL_SET.map((t) => t.name).join(", ")})
  --timeout SECONDS   how long one file may take to be indexed (default 1800)
  --search-timeout S  how long a spoken word may take to be found (default 120)`;

function usage(message) {
  process.stderr.write(`${message}\n${USAGE}\n`);
  process.exit(2);
}

let values;
try {
  ({ values } = parseArgs({
    options: {
      "base-url": { type: "string" },
      key: { type: "string" },
      out: { type: "string", default: "trial-output" },
      only: { type: "string" },
      timeout: { type: "string", default: "1800" },
      "search-timeout": { type: "string", default: "120" },
      help: { type: "boolean", short: "h" },
    },
  }));
} catch (error) {
  usage(error.message);
}
if (values.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
const key = values.key ?? process.env.VAS_API_KEY;
const baseUrl = values["base-url"]?.replace(/\/+$/, "");
if (!baseUrl) usage("--base-url is required");
if (!key) usage("--key (or VAS_API_KEY) is required");
const seconds = (name) => {
  const value = Number(values[name]);
  if (!Number.isFinite(value) || value <= 0) usage(`--${name} takes seconds`);
  return value * 1000;
};
const names = values.only?.split(",").map((n) => n.trim());
const unknown = names?.filter((n) => !TRIAL_SET.some((t) => t.name === n)) ?? [];
if (unknown.length > 0) usage(`--only names no trial file ${unknown.join(", ")}`);
const set = names ? TRIAL_SET.filter((t) => names.includes(t.name)) : TRIAL_SET;

const redact = (line) =>
  line
    .split(key)
    .join("[key]")
    .replace(/https?:\/\/\S*X-Amz-\S*/gi, "[presigned URL]");

let health = null;
try {
  const res = await fetch(`${baseUrl}/healthz`);
  if (res.ok) health = await res.json();
} catch {
  // Recorded as unknown; the uploads say what is wrong.
}
if (!health) {
  process.stdout.write(`health   FAILED  ${baseUrl}/healthz does not answer 200\n`);
  process.exit(1);
}
const ctx = {
  baseUrl,
  api: apiClient(baseUrl, key),
  // Over the simulators, their own route counts the model calls each file started.
  simulated: Array.isArray(health.simulated) && health.simulated.length > 0,
  fileTimeoutMs: seconds("timeout"),
  searchTimeoutMs: seconds("search-timeout"),
};
process.stdout.write(`health   ok  ${JSON.stringify(health)}\n`);

const startedAt = new Date().toISOString();
const records = [];
for (const entry of set) {
  let record;
  try {
    record = await runTrialFile(ctx, entry);
  } catch (error) {
    record = {
      name: entry.name,
      file: entry.file,
      what: entry.what,
      status: "error",
      error: error.message,
      limitations: [],
      codecs: { container: entry.container, video: entry.video, audio: entry.audio },
    };
  }
  records.push(record);
  const line =
    record.status === "completed"
      ? `${record.seconds_to_indexed} s to indexed, heard ${record.heard_seconds} s, seen ${record.seen_seconds} s${record.limitations.length ? `, ${record.limitations.join(", ")}` : ""}`
      : `${record.status}${record.error ? `: ${record.error}` : ""}`;
  process.stdout.write(redact(`${entry.name.padEnd(13)} ${line}\n`));
}

const { json, markdown } = buildReport(
  {
    base_url: baseUrl,
    started_at: startedAt,
    finished_at: new Date().toISOString(),
    health,
    cannot_know: [
      "Model calls: the API exposes none for processing. `planned` follows the documented windowing (one Whisper call per 30 s of audio, one frame extraction and one vision call per 4 s of video); retries, refused calls and the embeddings of indexing are not in it. `counted` is the simulators' own count of Workers AI calls started (Media Transformations calls are not counted), over the simulators only.",
      "Time to indexed is measured here, from the upload's completion to the first poll (every second) that finds the video completed.",
      "A refusal names the codec of what was refused, not the platform's reason: the Media binding documents no error codes.",
      "Costs: see the account's billing (Workers AI neurons, Media Transformations operations).",
    ],
  },
  records,
);
const out = path.resolve(values.out);
mkdirSync(out, { recursive: true });
writeFileSync(path.join(out, "trial.json"), redact(`${JSON.stringify(json, null, 2)}\n`));
writeFileSync(path.join(out, "trial.md"), redact(markdown));
process.stdout.write(`report   ${path.join(out, "trial.json")}, ${path.join(out, "trial.md")}\n`);
