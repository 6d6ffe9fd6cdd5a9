import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { renewLeaseStatement } from "../../../src/db/repos/work-leases";
import { createPorts } from "../../../src/ports";
import { createDeps } from "../../../src/services/deps";
import {
  CLAIM_MS,
  LEASE_HEARTBEAT_MS,
  withLeaseHeartbeat,
} from "../../../src/services/lease-heartbeat";

// Work in progress renews its lease (and the claim on the part it works on) on a timer, so the
// sweep and other deliveries leave it alone while it lives and take it over once it stops.
const START = Date.parse("2026-11-27T12:00:00.000Z");

afterEach(() => {
  vi.useRealTimers();
});

async function activeFrom(subjectId: string): Promise<string | null> {
  const row = await env.DB.prepare("SELECT active_from FROM work_leases WHERE subject_id = ?")
    .bind(subjectId)
    .first<{ active_from: string }>();
  return row?.active_from ?? null;
}

/** Waits (in real time) until the lease of `subjectId` runs from `iso`. */
async function leaseRunsFrom(subjectId: string, iso: string): Promise<void> {
  for (let i = 0; i < 200 && (await activeFrom(subjectId)) !== iso; i++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  expect(await activeFrom(subjectId)).toBe(iso);
}

describe("the heartbeat of work in progress", () => {
  it("renews the lease and the claim together while the work lives, and stops with it", async () => {
    vi.useFakeTimers({ toFake: ["Date", "setInterval", "clearInterval"], now: START });
    const deps = createDeps(env, createPorts(env));
    const subjectId = "vid_01heartbeatwindowclaim00001";
    const claimedUntil: string[] = [];
    let finish = () => {};
    const done = withLeaseHeartbeat(
      deps,
      { subjectId, kind: "video" },
      () =>
        new Promise<void>((resolve) => {
          finish = resolve;
        }),
      // The claim's own statement: a lease row standing for it, so its renewals can be read.
      (until) => {
        claimedUntil.push(until);
        return renewLeaseStatement(deps.db, {
          subjectId: `${subjectId}:claim`,
          kind: "video",
          activeFrom: until,
        });
      },
    );
    // Just claimed: nothing renewed at the start.
    expect(await activeFrom(subjectId)).toBeNull();

    for (const beat of [1, 2]) {
      await vi.advanceTimersByTimeAsync(LEASE_HEARTBEAT_MS);
      const now = START + beat * LEASE_HEARTBEAT_MS;
      await leaseRunsFrom(subjectId, new Date(now).toISOString());
      expect(claimedUntil.at(-1)).toBe(new Date(now + CLAIM_MS).toISOString());
      expect(await activeFrom(`${subjectId}:claim`)).toBe(claimedUntil.at(-1));
    }

    finish();
    await done;
    await vi.advanceTimersByTimeAsync(3 * LEASE_HEARTBEAT_MS);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(claimedUntil).toHaveLength(2);
    expect(await activeFrom(subjectId)).toBe(
      new Date(START + 2 * LEASE_HEARTBEAT_MS).toISOString(),
    );
  });

  it("renews at the start for work just picked up from a queue", async () => {
    vi.useFakeTimers({ toFake: ["Date", "setInterval", "clearInterval"], now: START });
    const deps = createDeps(env, createPorts(env));
    const subjectId = "run_01heartbeatpickedup0000001";
    let seen: string | null = null;
    await withLeaseHeartbeat(deps, { subjectId, kind: "run" }, async () => {
      seen = await activeFrom(subjectId);
    });
    expect(seen).toBe(new Date(START).toISOString());
  });
});
