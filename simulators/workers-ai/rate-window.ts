/**
 * Workers AI's per-account rate limits, per task type (developers.cloudflare.com/workers-ai/
 * platform/limits): requests in any minute past the limit are refused with a 429.
 */
export const TASK_LIMITS_PER_MINUTE: Readonly<Record<Task, number>> = {
  "text-generation": 300,
  "speech-recognition": 720,
  "text-embeddings": 3000,
};

/** A task type whose limit the simulator keeps. */
export type Task = "text-generation" | "speech-recognition" | "text-embeddings";

/** Calls per task in a sliding minute. */
export class RateWindow {
  private readonly admitted = new Map<Task, number[]>();

  constructor(private readonly limits: Readonly<Record<Task, number>> = TASK_LIMITS_PER_MINUTE) {}

  /** Records a call of `task` at `now` if the last minute leaves room; false when it does not. */
  admit(task: Task, now: number): boolean {
    const recent = this.recent(task, now);
    if (recent.length >= this.limits[task]) return false;
    recent.push(now);
    return true;
  }

  /** The calls admitted in the last minute, per task. */
  lastMinute(now: number): Record<Task, number> {
    return {
      "text-generation": this.recent("text-generation", now).length,
      "speech-recognition": this.recent("speech-recognition", now).length,
      "text-embeddings": this.recent("text-embeddings", now).length,
    };
  }

  private recent(task: Task, now: number): number[] {
    const kept = (this.admitted.get(task) ?? []).filter((t) => t > now - 60_000);
    this.admitted.set(task, kept);
    return kept;
  }
}

/**
 * The local account's window. Locally every Worker and Durable Object of the service runs in
 * one isolate, so module state is the account's.
 */
export const ACCOUNT = new RateWindow();

/** Calls started per task since this process started, admitted or not. */
export const callsStarted = new Map<Task, number>();
