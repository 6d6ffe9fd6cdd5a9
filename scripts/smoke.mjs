// npm run smoke -- --base-url URL --key KEY [--webhook-receiver local|URL]: checks a running
// service end to end and proves it understands: it uploads a clip with speech and pictures but
// no captions, and checks seconds heard and seen, a search for a spoken word and an answer
// citing speech. One line per step; a failed step of the service's plumbing (health, upload,
// indexing, run, report, webhook) ends the check, a failed part of understanding (heard, seen,
// search, answer) is named and the check goes on; any failure exits non-zero. The key may come
// from VAS_API_KEY instead of the command line; neither it nor any presigned URL is printed.
import { parseArgs } from "node:util";
import { analyse, apiClient, health, indexed, report, upload } from "./lib/smoke-steps.mjs";
import { answer, heard, searchSpoken, seen } from "./lib/smoke-understanding.mjs";
import {
  registerWebhook,
  removeWebhook,
  startReceiver,
  verifyWebhook,
} from "./lib/smoke-webhook.mjs";

const USAGE = `usage: npm run smoke -- --base-url URL [--key KEY] [--webhook-receiver local|URL] [options]
  --base-url URL            the service's origin (http://127.0.0.1:8787, https://api.example.com)
  --key KEY                 an API key with every permission (else VAS_API_KEY)
  --webhook-receiver local  listen on loopback and register that URL (local services only)
  --webhook-receiver URL    register this public URL, which forwards to --webhook-listen PORT
  --webhook-listen PORT     the loopback port the public receiver URL forwards to
  --timeout SECONDS         how long each waiting step may take (default 300)`;

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
      "webhook-receiver": { type: "string" },
      "webhook-listen": { type: "string" },
      timeout: { type: "string", default: "300" },
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
const timeout = Number(values.timeout);
if (!Number.isFinite(timeout) || timeout <= 0) usage("--timeout takes seconds");
const receiverOption = values["webhook-receiver"];
const listenPort = Number(values["webhook-listen"]);
if (receiverOption !== undefined && receiverOption !== "local") {
  if (!/^https:\/\//.test(receiverOption)) usage("--webhook-receiver takes local or an https URL");
  if (!Number.isInteger(listenPort) || listenPort <= 0)
    usage("--webhook-receiver URL needs --webhook-listen PORT (where the URL forwards to)");
}

/** Whatever a line says, without the key, a bearer token or a signed URL. */
function redact(line) {
  return line
    .split(key)
    .join("[key]")
    .replace(/https?:\/\/\S*X-Amz-\S*/gi, "[presigned URL]")
    .replace(/Bearer \S+/g, "Bearer [redacted]");
}

const ctx = { baseUrl, key, api: apiClient(baseUrl, key), timeoutMs: timeout * 1000 };
/** Each step: its name, what it does, and whether a failure ends the check (plumbing). */
const steps = [
  ["health", health, true],
  ...(receiverOption ? [["webhook", registerWebhook, true]] : []),
  ["upload", upload, true],
  ["indexed", indexed, true],
  ["heard", heard, false],
  ["seen", seen, false],
  ["search", searchSpoken, false],
  ["run", analyse, true],
  ["answer", answer, false],
  ["report", report, true],
  ...(receiverOption ? [["webhook", verifyWebhook, true]] : []),
];

let failed = false;
try {
  if (receiverOption) ctx.receiver = await startReceiver({ receiver: receiverOption, listenPort });
  for (const [name, step, ends] of steps) {
    try {
      process.stdout.write(`${redact(`${name.padEnd(8)} ok  ${await step(ctx)}`)}\n`);
    } catch (error) {
      process.stdout.write(`${redact(`${name.padEnd(8)} FAILED  ${error.message}`)}\n`);
      failed = true;
      if (ends) break;
    }
  }
} catch (error) {
  process.stdout.write(`${redact(`webhook  FAILED  cannot listen: ${error.message}`)}\n`);
  failed = true;
} finally {
  await removeWebhook(ctx).catch(() => undefined);
  if (ctx.profileId)
    await ctx.api("POST", `/profiles/${ctx.profileId}/archive`, {}).catch(() => undefined);
  await ctx.receiver?.close();
}
process.exit(failed ? 1 : 0);
