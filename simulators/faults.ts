/** What the simulators are told to do besides answering: wait, and sometimes fail. */
export interface Faults {
  /** Waits the simulated time one call of `kind` takes. */
  delay(kind: string): Promise<void>;
  /** Whether this call of `kind` fails with a transient platform error. */
  fails(kind: string): boolean;
}

/** The variables that tune the simulators (README, configuration table). */
export interface FaultSettings {
  /**
   * Milliseconds every simulated model or media call takes (default 0): one number for all, or
   * per kind, `speech-recognition=1500,text-generation=2500,text-embeddings=150,media=800`.
   */
  SIMULATE_MODEL_LATENCY_MS?: string;
  /** Share (0 to 1) of simulated calls answered with a transient error (default 0). */
  SIMULATE_FAULT_RATE?: string;
}

function fraction(raw: string | undefined, name: string): number {
  if (raw === undefined || raw === "") return 0;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0 || value > 1)
    throw new Error(`${name} must be a number from 0 to 1, not ${raw}`);
  return value;
}

function milliseconds(raw: string, name: string): number {
  const value = Number(raw);
  if (raw.trim() === "" || !Number.isFinite(value) || value < 0)
    throw new Error(`${name} must be a number of milliseconds, not ${raw}`);
  return value;
}

/** The latency of each kind of call: one value for every kind, or `kind=ms` pairs. */
function latencies(raw: string | undefined): (kind: string) => number {
  const name = "SIMULATE_MODEL_LATENCY_MS";
  if (raw === undefined || raw.trim() === "") return () => 0;
  if (!raw.includes("=")) {
    const all = milliseconds(raw, name);
    return () => all;
  }
  const byKind = new Map(
    raw.split(",").map((pair) => {
      const [kind = "", ms = ""] = pair.split("=").map((part) => part.trim());
      if (kind === "") throw new Error(`${name} names no kind in "${pair}"`);
      return [kind, milliseconds(ms, name)] as const;
    }),
  );
  return (kind) => byKind.get(kind) ?? 0;
}

/** Faults from the environment; a malformed value is refused, never read as 0. */
export function faultsFrom(settings: FaultSettings, random: () => number = Math.random): Faults {
  const latency = latencies(settings.SIMULATE_MODEL_LATENCY_MS);
  const rate = fraction(settings.SIMULATE_FAULT_RATE, "SIMULATE_FAULT_RATE");
  return {
    delay: async (kind) => {
      const ms = latency(kind);
      if (ms > 0) await new Promise((resolve) => setTimeout(resolve, ms));
    },
    fails: () => rate > 0 && random() < rate,
  };
}

/** Waits the simulated latency of one call of `kind`. */
export function simulatedLatency(faults: Faults, kind: string): Promise<void> {
  return faults.delay(kind);
}
