/**
 * Workers AI's per-account rate limits, per task type (developers.cloudflare.com/workers-ai/
 * platform/limits): requests in any minute past the limit are refused with a 429.
 */
export const TASK_LIMITS_PER_MINUTE = {
  "text-generation": 300,
  "speech-recognition": 720,
  "text-embeddings": 3000,
} as const;

/** A task type whose limit the simulator keeps. */
export type Task = keyof typeof TASK_LIMITS_PER_MINUTE;

/**
 * Calls per task in the last minute, for the whole local account. Locally every Worker and
 * Durable Object of the service runs in one isolate, so module state is the account's.
 */
const admitted = new Map<Task, number[]>();

/** Records a call of `task` at `now` if the last minute leaves room; false when it does not. */
export function admit(task: Task, now: number, limits = TASK_LIMITS_PER_MINUTE): boolean {
  const recent = (admitted.get(task) ?? []).filter((t) => t > now - 60_000);
  if (recent.length >= limits[task]) {
    admitted.set(task, recent);
    return false;
  }
  recent.push(now);
  admitted.set(task, recent);
  return true;
}

/** The calls admitted in the last minute, per task (the bench reads it). */
export function callsInLastMinute(now: number): Record<Task, number> {
  const count = (task: Task) => (admitted.get(task) ?? []).filter((t) => t > now - 60_000).length;
  return {
    "text-generation": count("text-generation"),
    "speech-recognition": count("speech-recognition"),
    "text-embeddings": count("text-embeddings"),
  };
}

/** Calls started per task since this process started, admitted or not (the bench reads it). */
export const callsStarted = new Map<Task, number>();
