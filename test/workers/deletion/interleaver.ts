import type { Gate } from "./gated-env";

/** Where an operation stops to let others run, and where its invocation dies. */
export interface OpPlan {
  /** Gate numbers (from 1) at which the operation parks and another one runs. */
  pauses: number[];
  /** The gate at which the invocation dies: that call and every later one throw. */
  crashAt: number | null;
  /** Also parks before the first call this names (a chosen race, rather than a count). */
  pauseBefore?: RegExp;
}

/** One operation of a step: an API request, a message's delivery, the sweep. */
export interface Operation {
  label: string;
  plan: OpPlan;
  /** `died()` tells whether the invocation died at a gate (the platform saw no answer). */
  run(gate: Gate, died: () => boolean): Promise<void>;
}

/** What a dying invocation's calls throw. */
export class Crash extends Error {}

/** What an operation went through, for a failing case's report. */
export interface Trace {
  label: string;
  gates: string[];
  /** The calls it parked before. */
  parked: string[];
  crashed: boolean;
  error: string | null;
}

type State = "waiting" | "running" | "parked" | "done";

interface Slot {
  operation: Operation;
  state: State;
  trace: Trace;
  resume: (() => void)[];
  pausedBefore: boolean;
}

/**
 * Runs operations one at a time, switching only at their gates: an operation runs until it
 * parks at one of its pauses or ends, then `picks` choose which waiting or parked operation
 * goes on. The same picks and plans give the same interleaving of every storage call.
 */
export async function interleave(operations: Operation[], picks: number[]): Promise<Trace[]> {
  let changed: () => void = () => undefined;
  const slots: Slot[] = operations.map((operation) => ({
    operation,
    state: "waiting",
    trace: { label: operation.label, gates: [], parked: [], crashed: false, error: null },
    resume: [],
    pausedBefore: false,
  }));
  const gateOf =
    (slot: Slot): Gate =>
    async (what) => {
      slot.trace.gates.push(what);
      const count = slot.trace.gates.length;
      const { crashAt, pauses } = slot.operation.plan;
      if (crashAt !== null && count >= crashAt) {
        slot.trace.crashed = true;
        throw new Crash(`${slot.operation.label} died before ${what}`);
      }
      const chosen = slot.operation.plan.pauseBefore?.test(what) && !slot.pausedBefore;
      if (!pauses.includes(count) && !chosen) return;
      if (chosen) slot.pausedBefore = true;
      slot.trace.parked.push(what);
      await new Promise<void>((resume) => {
        slot.resume.push(resume);
        slot.state = "parked";
        changed();
      });
    };
  for (let turn = 0; slots.some((slot) => slot.state !== "done"); turn++) {
    const ready = slots.filter((slot) => slot.state === "waiting" || slot.state === "parked");
    const event = new Promise<void>((resolve) => {
      changed = resolve;
    });
    const slot = ready[(picks[turn % Math.max(1, picks.length)] ?? 0) % Math.max(1, ready.length)];
    if (slot?.state === "waiting") {
      slot.state = "running";
      slot.operation
        .run(gateOf(slot), () => slot.trace.crashed)
        .catch((error: unknown) => {
          slot.trace.error = String(error);
        })
        .finally(() => {
          slot.state = "done";
          changed();
        });
    } else if (slot) {
      slot.state = "running";
      for (const resume of slot.resume.splice(0)) resume();
    }
    // Until the operation that runs parks or ends (or, with none ready, until anything moves).
    await event;
  }
  return slots.map((slot) => slot.trace);
}
