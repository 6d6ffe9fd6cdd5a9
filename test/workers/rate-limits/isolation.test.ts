import { describe, expect, it } from "vitest";
import { DEFAULT_RATE_LIMITS } from "../../../src/domain/rate-limits";
import { admin, type Client, expectJson, newTenant } from "../../helpers/harness";

const ROUNDS = 6;
const PER_ROUND = 10;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** Times `count` sequential list requests; each must succeed. */
async function timedReads(api: Client, count: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const res = await api.get("/videos");
    times.push(performance.now() - started);
    expect(res.status, await res.text()).toBe(200);
  }
  return times;
}

/** Keeps two requests of `api` in flight until stopped; answers the statuses it saw. */
function flood(api: Client) {
  let stopped = false;
  const statuses: number[] = [];
  const lane = async () => {
    while (!stopped) {
      const res = await api.get("/videos");
      await res.body?.cancel();
      statuses.push(res.status);
    }
  };
  const lanes = [lane(), lane()];
  return async () => {
    stopped = true;
    await Promise.all(lanes);
    return statuses;
  };
}

describe("one workspace at its limit", () => {
  it("leaves another workspace's answers and latency as they were", async () => {
    const limited = await newTenant();
    await expectJson(
      await admin("PATCH", `/workspaces/${limited.workspaceId}`, { rate_limits: { reads: 5 } }),
      200,
    );
    const busy = await newTenant();
    const other = await newTenant();
    // Warm all three: the key lookups are cached and each workspace's object is running.
    await timedReads(other.api, 3);
    await timedReads(busy.api, 1);
    // The limited workspace spends its whole quota first: from then on it is refused.
    for (let i = 0; i < 5; i++) await expectJson(await limited.api.get("/videos"), 200);
    // The other workspace is timed beside the same traffic twice: from a workspace within its
    // quota, and from one past it. One workerd thread serves all three, so any traffic slows
    // it a little; being refused must not add to that. Rounds alternate the order, so both
    // phases meet the same moments of a shared machine.
    const besideServed: number[] = [];
    const besideRefused: number[] = [];
    const served: number[] = [];
    const refused: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const phases = [
        { from: busy.api, times: besideServed, statuses: served },
        { from: limited.api, times: besideRefused, statuses: refused },
      ];
      if (round % 2 === 1) phases.reverse();
      for (const phase of phases) {
        const stop = flood(phase.from);
        phase.times.push(...(await timedReads(other.api, PER_ROUND)));
        phase.statuses.push(...(await stop()));
      }
    }
    expect(refused.length).toBeGreaterThan(ROUNDS);
    expect(refused.filter((status) => status !== 429)).toEqual([]);
    expect(served.filter((status) => status !== 200)).toEqual([]);
    const ratio = median(besideRefused) / median(besideServed);
    expect(
      ratio,
      `medians beside a refused flood ${median(besideRefused)} ms, beside a served one ${median(besideServed)} ms`,
    ).toBeLessThanOrEqual(1.5);
    // The other workspace's own count went on undisturbed.
    const last = await other.api.get("/videos");
    expect(last.headers.get("ratelimit")).toMatch(
      new RegExp(`^"reads";r=${DEFAULT_RATE_LIMITS.reads - 4 - 2 * ROUNDS * PER_ROUND};t=\\d+$`),
    );
  });
});
