// Bounded mixed load (GET /videos, POST /search, GET /runs, POST /profiles) at
// 100 connections for 60 s, then every acknowledged profile create is looked up in the list:
// one that is missing (or listed twice) is a lost (or duplicated) write.
import os from "node:os";
import autocannon from "autocannon";
import { fmt } from "../lib.mjs";

export const name = "soak";

const CONNECTIONS = 100;
const SECONDS = 60;

// The Worker answers every error with a problem document. A non-2xx answer that is not one comes
// from wrangler dev's proxy in front of it: wrangler 4.86 answers 503 "Your worker restarted
// mid-request" when it loses the connection to the Worker's runtime (a pooled keep-alive connection
// closed by the runtime's idle timeout as a request is sent on it; see
// docs/decisions/local-process.md), newer ones a plain error. GET and HEAD are retried by the
// proxy, so only other methods show it. Production has no such proxy, so these are counted apart
// from the service's own answers.
function fromProxy(body) {
  try {
    const problem = JSON.parse(body);
    return typeof problem?.status !== "number" || typeof problem?.code !== "string";
  } catch {
    return true;
  }
}

const PROFILE = {
  instructions: "Check the rule.",
  answer_specs: [
    {
      answer_key: "vests",
      answer_type: "verdict",
      description: "operators must wear high visibility vests",
    },
  ],
};

async function listedProfiles(api, headers) {
  const seen = new Map();
  let cursor = null;
  do {
    const query = `limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
    const res = await fetch(`${api}/profiles?${query}`, { headers });
    if (!res.ok) throw new Error(`listing profiles answered ${res.status}`);
    const page = await res.json();
    for (const profile of page.data) seen.set(profile.id, (seen.get(profile.id) ?? 0) + 1);
    cursor = page.has_more ? page.next_cursor : null;
  } while (cursor);
  return seen;
}

export async function run(service) {
  const workspace = await service.admin("POST", "/workspaces", {
    name: "soak",
    alpha_opt_in: true,
  });
  const key = await service.admin("POST", "/keys", {
    workspace_id: workspace.id,
    type: "alpha",
    permissions: ["*"],
  });
  const seeded = await fetch(
    `${service.baseUrl}/__bench/seed-videos?workspace_id=${workspace.id}&count=25`,
    { method: "POST" },
  );
  if (!seeded.ok) throw new Error(`seeding failed: ${seeded.status}`);

  const api = `${service.baseUrl}/api/v1alpha1`;
  const headers = { authorization: `Bearer ${key.key}`, "content-type": "application/json" };
  const statuses = {};
  const samples = {};
  const acknowledged = [];
  let proxyDrops = 0;
  let sequence = 0;
  const tally = (route) => (status, body) => {
    statuses[route] ??= {};
    const counts = statuses[route];
    counts[status] = (counts[status] ?? 0) + 1;
    // Recognised by the status, not the route (only a profile create answers 201 here):
    // autocannon's request order can shift after a connection error, so a create's answer
    // may reach another route's callback.
    if (status === 201) acknowledged.push(JSON.parse(body).id);
    if (status >= 300 && fromProxy(String(body))) proxyDrops++;
    if (status >= 300) samples[`${route} ${status}`] ??= String(body).slice(0, 160);
  };
  const loadBefore = os.loadavg()[0];
  const result = await autocannon({
    url: service.baseUrl,
    connections: CONNECTIONS,
    duration: SECONDS,
    headers,
    requests: [
      { method: "GET", path: "/api/v1alpha1/videos?limit=25", onResponse: tally("GET /videos") },
      {
        method: "POST",
        path: "/api/v1alpha1/search",
        body: JSON.stringify({ query: "loading dock" }),
        onResponse: tally("POST /search"),
      },
      { method: "GET", path: "/api/v1alpha1/runs?limit=25", onResponse: tally("GET /runs") },
      {
        method: "POST",
        path: "/api/v1alpha1/profiles",
        setupRequest: (request) => ({
          ...request,
          body: JSON.stringify({ ...PROFILE, name: `soak ${++sequence}` }),
        }),
        onResponse: tally("POST /profiles"),
      },
    ],
  });

  const loadAfter = os.loadavg()[0];
  const listed = await listedProfiles(api, headers);
  const lost = acknowledged.filter((id) => !listed.has(id)).length;
  const duplicated = [...listed.values()].filter((count) => count > 1).length;
  const rows = Object.entries(statuses).map(([route, counts]) => {
    const total = Object.values(counts).reduce((sum, n) => sum + n, 0);
    const non2xx = Object.entries(counts)
      .filter(([status]) => !status.startsWith("2"))
      .reduce((sum, [, n]) => sum + n, 0);
    const shown = Object.entries(counts)
      .map(([status, n]) => `${status}: ${n}`)
      .join(", ");
    return `| ${route} | ${total} | ${non2xx} | ${shown} |`;
  });
  return [
    "### Soak: mixed load at 100 connections for 60 s",
    "",
    "GET /videos (25 seeded), POST /search, GET /runs and POST /profiles in turn on every " +
      "connection; afterwards every acknowledged profile is looked up in GET /profiles. " +
      "Proxy drops are wrangler dev's answers, not the Worker's (no problem document; see fromProxy).",
    "",
    "| req/s | p50 ms | p99 ms | requests | non-2xx | of which proxy drops | errors / timeouts | lost writes | duplicated | load avg before → after |",
    "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    `| ${fmt(result.requests.average)} | ${fmt(result.latency.p50)} | ${fmt(result.latency.p99)} | ${result.requests.total} | ${result.non2xx} | ${proxyDrops} | ${result.errors} / ${result.timeouts} | ${lost} of ${acknowledged.length} | ${duplicated} | ${loadBefore.toFixed(1)} → ${loadAfter.toFixed(1)} |`,
    "",
    "Answers per route as autocannon attributed them (after a connection error the order can",
    "shift, so a few answers may be counted under the neighbouring route):",
    "",
    "| route | answers | non-2xx | by status |",
    "| --- | ---: | ---: | --- |",
    ...rows,
    ...(Object.keys(samples).length === 0
      ? []
      : ["", "First non-2xx body per route and status:", ""]),
    ...Object.entries(samples).map(([key, body]) => `- ${key}: \`${body.replace(/\s+/g, " ")}\``),
  ].join("\n");
}
