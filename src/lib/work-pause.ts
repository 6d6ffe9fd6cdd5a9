/** Where work can be held by the test-only `WORK_PAUSE_AT` variable. */
export type PausePoint = "process:start" | "process:probed" | "run:start" | "run:step";

/** Long enough that a crash test can always kill the process while work is held. */
const PAUSE_MS = 10 * 60 * 1000;

/**
 * Test-only configuration for the crash test: when `WORK_PAUSE_AT` (comma-separated
 * points) names `point`, the work waits here, so a test can kill the process at a known
 * stage. Never honoured in a real production deployment; honoured by the production adapters
 * over the local simulators, so the crash test runs in both modes.
 */
export async function pauseAt(
  env: { DEPLOYMENT: string; SIMULATED?: string | undefined; WORK_PAUSE_AT?: string | undefined },
  point: PausePoint,
): Promise<void> {
  const deployed = env.DEPLOYMENT === "production" && !env.SIMULATED;
  if (deployed || !env.WORK_PAUSE_AT) return;
  const points = env.WORK_PAUSE_AT.split(",").map((entry) => entry.trim());
  if (points.includes(point)) await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
}
