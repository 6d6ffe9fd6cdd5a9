// What `npm run deploy` checks on the account before it creates anything: the plan, that R2,
// Vectorize, Queues and Workers AI answer, and where the API will answer. Each check reads
// only (wrangler's list commands, or the API where wrangler has none) and answers
// `{ name, ok }` or `{ name, problem }`: one line naming what is missing and the dashboard
// step that adds it. docs/deploy.md, "A new account", says why each is needed.
import { readFileSync } from "node:fs";
import path from "node:path";
import { stripVTControlCharacters } from "node:util";
import { apiErrors } from "./cloudflare-api.mjs";
import { jsonOutput, saidLine, WranglerError } from "./wrangler-cli.mjs";

const dash = (accountId, page) => `https://dash.cloudflare.com/${accountId}/${page}`;

/**
 * What a failed wrangler command said, or null when it did not run. An API refusal is
 * printed as "A request to the Cloudflare API (…) failed." with the API's own message on the
 * indented lines after it: that message is the part worth a line.
 */
function refusedBy(error) {
  if (!(error instanceof WranglerError)) return null;
  const lines = error.output.split("\n").map((line) => stripVTControlCharacters(line).trim());
  const at = lines.findIndex((line) => /A request to the Cloudflare API .* failed\.$/.test(line));
  if (at < 0) return saidLine(error.output);
  const message = lines.slice(at + 1).filter(Boolean);
  // wrangler wraps a long message; it ends at the API's "[code: N]".
  const end = message.findIndex((line) => /\[code: \d+\]/.test(line));
  return (end < 0 ? message.slice(0, 1) : message.slice(0, end + 1)).join(" ") || lines[at];
}

/**
 * A Workers Paid subscription among the account's (`GET /accounts/{id}/subscriptions`). The
 * API reference documents `rate_plan.id` and `public_name` but not the values a Workers plan
 * takes; `workers_paid` / "Workers Paid" is what accounts show, and Enterprise contracts name
 * Workers Enterprise.
 */
export function workersPaid(subscriptions) {
  return subscriptions.find((s) => {
    const plan = s.rate_plan ?? {};
    const named = `${plan.id ?? ""} ${plan.public_name ?? ""}`;
    return (
      /\bworkers[ _-]?(paid|enterprise)\b/i.test(named) && !/cancel|expired/i.test(s.state ?? "")
    );
  });
}

/** The plan: Workers Paid, read from the subscriptions API (it needs Billing Read). */
export async function checkPlan(api, accountId, confirmed) {
  const plans = dash(accountId, "workers/plans");
  const envelope = await api(`/accounts/${accountId}/subscriptions`);
  if (envelope.success) {
    const paid = workersPaid(envelope.result ?? []);
    if (paid) return { name: "plan", ok: paid.rate_plan.public_name || paid.rate_plan.id };
    if (confirmed)
      return { name: "plan", ok: "Workers Paid (--workers-paid; not among its subscriptions)" };
    const has = (envelope.result ?? []).map((s) => s.rate_plan?.public_name || s.rate_plan?.id);
    return {
      name: "plan",
      problem: `the account is not on Workers Paid (its subscriptions: ${has.join(", ") || "none"}); the service needs Paid's limits: dashboard, Workers & Pages, Plans, Workers Paid (${plans})`,
    };
  }
  if (envelope.status === 401 || envelope.status === 403) {
    if (confirmed) return { name: "plan", ok: "Workers Paid (--workers-paid)" };
    return {
      name: "plan",
      problem: `this login cannot read the account's plan (the subscriptions API needs Billing Read, which wrangler login does not grant): check that Workers & Pages, Plans shows Workers Paid (${plans}), then run again with --workers-paid`,
    };
  }
  return { name: "plan", problem: `the subscriptions API failed: ${apiErrors(envelope)}` };
}

/** R2 answers: an account that never enabled it refuses every bucket call with 10042. */
export async function checkR2(run) {
  try {
    await run(["r2", "bucket", "list"]);
    return { name: "r2", ok: "enabled" };
  } catch (error) {
    const said = refusedBy(error);
    if (said === null) throw error;
    if (/10042|enable R2/i.test(said))
      return {
        name: "r2",
        problem:
          "R2 is not enabled on the account: dashboard, R2 Object Storage, Overview, add R2 to the account (a subscription whose free tier costs nothing)",
      };
    return { name: "r2", problem: `wrangler r2 bucket list failed: ${said}` };
  }
}

/** Vectorize and Queues answer their list commands. */
export async function checkListed(run, accountId, name, args) {
  try {
    await run(args);
    return { name, ok: "available" };
  } catch (error) {
    const said = refusedBy(error);
    if (said === null) throw error;
    const upgrade = /free plan|upgrade|100129/i.test(said)
      ? `: dashboard, Workers & Pages, Plans, Workers Paid (${dash(accountId, "workers/plans")})`
      : "";
    return { name, problem: `wrangler ${args.join(" ")} failed: ${said}${upgrade}` };
  }
}

/** Workers AI lists its catalog, and every model the code calls is in it. */
export async function checkModels(run, models) {
  let catalog;
  try {
    catalog = jsonOutput((await run(["ai", "models", "list", "--json"])).stdout);
  } catch (error) {
    const said = refusedBy(error);
    if (said === null) throw error;
    return {
      name: "workers-ai",
      problem: `wrangler ai models list failed: ${said}: dashboard, AI, Workers AI`,
    };
  }
  const names = new Set(catalog.map((m) => m.name));
  const absent = models.filter((m) => !names.has(m));
  return absent.length === 0
    ? { name: "workers-ai", ok: models.join(", ") }
    : {
        name: "workers-ai",
        problem: `the account's Workers AI catalog lacks ${absent.join(", ")}, which the service calls: choose another model in src/ports (docs/media-understanding.md)`,
      };
}

/** The files that name the models the production adapters call. */
export const MODEL_SOURCES = [
  "src/ports/media-understanding/model-outputs.ts",
  "src/ports/answer-engine/workers-ai-prompt.ts",
  "src/ports/embedder/workers-ai.ts",
];

/** The models named in `sources` (`export const X = "@cf/…";`), once each. */
export function modelsIn(sources) {
  const found = sources.flatMap((s) =>
    [...s.matchAll(/export const \w+ = "(@cf\/[^"]+)";/g)].map((m) => m[1]),
  );
  return [...new Set(found)];
}

/** The models the production adapters call, read from the checkout at `root`. */
export const productionModels = (root) =>
  modelsIn(MODEL_SOURCES.map((file) => readFileSync(path.join(root, file), "utf8")));

/** Where the API answers can be made: a zone of the account, or a workers.dev subdomain. */
export async function checkReach(api, accountId, reach) {
  if (reach.kind === "workers.dev") {
    // An account that never registered one answers 10007, as wrangler's own check reads it.
    const envelope = await api(`/accounts/${accountId}/workers/subdomain`);
    const subdomain = envelope.success ? envelope.result?.subdomain : null;
    if (subdomain) return { name: "workers.dev", ok: `${subdomain}.workers.dev` };
    if (envelope.success || envelope.errors.some((e) => e.code === 10007))
      return {
        name: "workers.dev",
        problem: `the account has no workers.dev subdomain: dashboard, Workers & Pages, register one (${dash(accountId, "workers/onboarding")}), or choose --domain HOST`,
      };
    return { name: "workers.dev", problem: `the subdomain API failed: ${apiErrors(envelope)}` };
  }
  const labels = reach.host.split(".");
  for (let i = 0; i < labels.length - 1; i++) {
    const zone = labels.slice(i).join(".");
    const envelope = await api(`/zones?name=${encodeURIComponent(zone)}&account.id=${accountId}`);
    if (!envelope.success)
      return { name: "zone", problem: `the zones API failed: ${apiErrors(envelope)}` };
    if ((envelope.result ?? []).length > 0)
      return { name: "zone", ok: `${zone} holds ${reach.host}` };
  }
  return {
    name: "zone",
    problem: `no zone of the account holds ${reach.host}: dashboard, Add a domain, or choose --workers-dev`,
  };
}

/**
 * Every check, side by side; `reach` is where the API will answer. The media line reads
 * nothing: the binding is enabled per Worker and no API says whether it works, so only the
 * smoke check's frames, after the deploy, can show it.
 */
export async function preflight({ run, api, accountId, reach, models, workersPaidConfirmed }) {
  const media = {
    name: "media",
    ok: "no API reads the Media binding before a deploy: the smoke check's frames prove it",
  };
  const checks = await Promise.all([
    checkPlan(api, accountId, workersPaidConfirmed),
    checkR2(run),
    checkListed(run, accountId, "vectorize", ["vectorize", "list", "--json"]),
    checkListed(run, accountId, "queues", ["queues", "list"]),
    checkModels(run, models),
    checkReach(api, accountId, reach),
  ]);
  return [...checks, media];
}
