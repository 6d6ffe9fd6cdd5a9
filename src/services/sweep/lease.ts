import { nowIso } from "../../lib/clock";

/**
 * The default lease: one minute. Work in progress renews its item's lease every 20 s (window
 * and run-step heartbeats, the video stages' heartbeat), so a lease runs out only once work
 * has stopped; with the sweep every minute, work a crash left resumes within two minutes.
 */
export const DEFAULT_LEASE_SECONDS = 60;
/** Re-sends per item before the sweep gives up and fails it with a clear error. */
export const MAX_SWEEP_TRIES = 3;
/** Items handled per kind and sweep, so one sweep stays well inside its time limit. */
export const SWEEP_BATCH = 50;

/** The variable the lease is read from; the start scripts' tests read this file too. */
type LeaseVars = { WORK_LEASE_SECONDS?: string | undefined };

/** The lease in milliseconds, from `WORK_LEASE_SECONDS` (decimal digits) or the default. */
export function leaseMs(env: LeaseVars): number {
  const raw = env.WORK_LEASE_SECONDS;
  const seconds = raw !== undefined && /^\d+$/.test(raw) ? Number(raw) : DEFAULT_LEASE_SECONDS;
  return (seconds > 0 ? seconds : DEFAULT_LEASE_SECONDS) * 1000;
}

/** The instants one sweep works with. */
export interface SweepClock {
  now: string;
  staleBefore: string;
}

/**
 * Stale means neither updated nor (re)started within one lease. The lease is applied when
 * the sweep runs, so a changed `WORK_LEASE_SECONDS` holds for work already in flight.
 */
export function sweepClock(env: LeaseVars, now = Date.now()): SweepClock {
  return { now: nowIso(now), staleBefore: nowIso(now - leaseMs(env)) };
}
