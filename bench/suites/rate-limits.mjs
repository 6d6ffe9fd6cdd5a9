// What the rate limiter adds to a request: GET /videos through the production app, which counts
// it in the workspace's WorkspaceRateLimiter object, against the same app built without a
// limiter (/__bench/unlimited, bench/worker.ts), with the same key and the same 25 videos
// (the aim: at most 1.1x).
import { compare, fmt, timedTogether } from "../lib.mjs";

export const name = "rate-limits";

const ROUNDS = 300;

export async function run(service) {
  const workspace = await service.admin("POST", "/workspaces", {
    name: "bench rate limits",
    alpha_opt_in: true,
  });
  const { key } = await service.admin("POST", "/keys", {
    workspace_id: workspace.id,
    type: "alpha",
    permissions: ["*"],
  });
  const seeded = await fetch(
    `${service.baseUrl}/__bench/seed-videos?workspace_id=${workspace.id}&count=25`,
    { method: "POST" },
  );
  if (!seeded.ok) throw new Error(`seeding failed: ${seeded.status}`);
  const headers = { authorization: `Bearer ${key}` };
  const limitedUrl = `${service.baseUrl}/api/v1alpha1/videos?limit=25`;
  const unlimitedUrl = `${service.baseUrl}/__bench/unlimited/api/v1alpha1/videos?limit=25`;
  const first = await fetch(limitedUrl, { headers });
  const fields = `\`RateLimit-Policy: ${first.headers.get("ratelimit-policy")}\` and \`RateLimit: ${first.headers.get("ratelimit")}\``;
  await first.text();
  const requests = {
    limited: () => fetch(limitedUrl, { headers }),
    unlimited: () => fetch(unlimitedUrl, { headers }),
  };
  // Untimed rounds first: both isolates warm, the key lookup cached, the object running.
  await timedTogether(requests, 20);
  const together = await timedTogether(requests, ROUNDS);
  const ratio = together.limited.median / together.unlimited.median;
  const concurrent = await compare(
    { url: limitedUrl, headers },
    { url: unlimitedUrl, headers },
    { rounds: 3, seconds: 5 },
  );
  return [
    "### GET /videos with the rate limiter vs the same app without it",
    "",
    `One workspace, 25 seeded videos, the same key. ${ROUNDS} rounds of one request to each, in turn (after 20 untimed rounds), so both meet the same moments of a shared machine; then 10 connections on each for 3 alternating rounds of 5 s (after a 2 s warm-up each). The limited route counts every request in the workspace's \`WorkspaceRateLimiter\` object and its first answer carried ${fields}; the other is the same app built with a limiter that asks nothing.`,
    "",
    "| route | median ms | p95 ms | max ms | req/s (10 connections) | p50 ms | p99 ms |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    `| without the limiter | ${fmt(together.unlimited.median)} | ${fmt(together.unlimited.p95)} | ${fmt(together.unlimited.max)} | ${fmt(concurrent.baseline.rps)} | ${fmt(concurrent.baseline.p50)} | ${fmt(concurrent.baseline.p99)} |`,
    `| with the limiter | ${fmt(together.limited.median)} | ${fmt(together.limited.p95)} | ${fmt(together.limited.max)} | ${fmt(concurrent.candidate.rps)} | ${fmt(concurrent.candidate.p50)} | ${fmt(concurrent.candidate.p99)} |`,
    "",
    `**Added latency: ${fmt(ratio, 2)}x the median without the limiter** (aim: at most 1.1x); throughput at 10 connections ${fmt(concurrent.ratio, 2)}x.`,
  ].join("\n");
}
