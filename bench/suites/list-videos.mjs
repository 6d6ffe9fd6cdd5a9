// Authenticated GET /videos against the bare route running the same D1 query with no
// auth or middleware (the aim: at least 0.8x the bare route).
import { compare, fmt } from "../lib.mjs";

export const name = "list-videos";

export async function run(service) {
  const workspace = await service.admin("POST", "/workspaces", {
    name: "bench",
    alpha_opt_in: true,
  });
  const key = await service.admin("POST", "/keys", {
    workspace_id: workspace.id,
    type: "alpha",
    permissions: ["*"],
  });
  const seeded = await fetch(
    `${service.baseUrl}/__bench/seed-videos?workspace_id=${workspace.id}&count=25`,
    {
      method: "POST",
    },
  );
  if (!seeded.ok) throw new Error(`seeding failed: ${seeded.status}`);
  const result = await compare(
    {
      url: `${service.baseUrl}/api/v1alpha1/videos?limit=25`,
      headers: { authorization: `Bearer ${key.key}` },
    },
    { url: `${service.baseUrl}/__bench/videos?workspace_id=${workspace.id}&limit=25` },
  );
  return [
    "### GET /videos (authenticated) vs the bare list route",
    "",
    "25 videos per page, 10 connections, 3 alternating rounds of 5 s after a 2 s warm-up each.",
    "",
    "| route | req/s | p50 ms | p99 ms |",
    "| --- | ---: | ---: | ---: |",
    `| bare route (same D1 query, no auth, no middleware) | ${fmt(result.baseline.rps)} | ${fmt(result.baseline.p50)} | ${fmt(result.baseline.p99)} |`,
    `| GET /api/v1alpha1/videos with an API key | ${fmt(result.candidate.rps)} | ${fmt(result.candidate.p50)} | ${fmt(result.candidate.p99)} |`,
    "",
    `**Ratio: ${fmt(result.ratio, 2)}x the bare route** (aim: at least 0.8x).`,
  ].join("\n");
}
