/**
 * Timers a semaphore waits and renews with; tests pass fake ones.
 */
export interface SemaphoreTimers {
  now(): number;
  sleep(ms: number): Promise<void>;
  /** Calls `tick` every `ms` until the returned function is called. */
  every(ms: number, tick: () => void): () => void;
}

export interface SemaphoreOptions {
  /** Weight that may be held at once; a single holder heavier than this runs alone. */
  capacity: number;
  /** How often a waiter looks again when no release woke it. */
  pollMs?: number;
  /** A holder or waiter not heard from for this long is taken for gone (its request ended). */
  staleMs?: number;
  timers?: SemaphoreTimers;
}

const REAL_TIMERS: SemaphoreTimers = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  every: (ms, tick) => {
    const timer = setInterval(tick, ms);
    return () => clearInterval(timer);
  },
};

/** One request's place: waiting in line, or holding its weight. */
interface Entry {
  weight: number;
  held: boolean;
  /** When its request last showed it is alive (a waiter's look, a holder's renewal). */
  seenAt: number;
  /** Wakes the waiter early (set while it waits). */
  wake: (() => void) | null;
}

/**
 * A weighted first-come semaphore shared by the requests of one isolate (module state lives as
 * long as the isolate, and invocations run side by side in it).
 *
 * It never lets one request wait on a promise only another request settles: workerd cancels a
 * request that waits on nothing of its own ("Promise will never complete"), and cancels the
 * continuations of a promise whose creating request has ended. So every waiter waits on its own
 * timer and its own wake-up promise (a release only speeds it up), and looks at the shared line
 * itself. A request can also end without running its `finally` (cancelled, out of CPU): its
 * place is then dropped once it has not been seen for `staleMs`, since a holder renews its place
 * on its own timer while it works and a waiter on every look.
 */
export class SharedSemaphore {
  private readonly line: Entry[] = [];
  private readonly pollMs: number;
  private readonly staleMs: number;
  private readonly timers: SemaphoreTimers;

  constructor(options: SemaphoreOptions) {
    this.capacity = options.capacity;
    this.pollMs = options.pollMs ?? 250;
    this.staleMs = options.staleMs ?? 10_000;
    this.timers = options.timers ?? REAL_TIMERS;
  }

  readonly capacity: number;

  /** Weight held right now by holders still alive. */
  get inUse(): number {
    this.prune();
    return this.line.reduce((sum, e) => sum + (e.held ? e.weight : 0), 0);
  }

  /** Whether no request holds or waits (a holder of many semaphores may then forget this one). */
  get idle(): boolean {
    this.prune();
    return this.line.length === 0;
  }

  /** Runs `work` while holding `weight`, and gives it back however `work` ends. */
  async use<T>(weight: number, work: () => Promise<T>): Promise<T> {
    const { timers } = this;
    const entry: Entry = {
      weight: Math.max(0, weight),
      held: false,
      seenAt: timers.now(),
      wake: null,
    };
    this.line.push(entry);
    while (!this.admit(entry)) {
      entry.seenAt = timers.now();
      const woken = new Promise<void>((resolve) => {
        entry.wake = resolve;
      });
      await Promise.race([woken, timers.sleep(this.pollMs)]);
      entry.wake = null;
    }
    entry.seenAt = timers.now();
    // Whoever is next may fit beside this holder.
    this.wakeFirstWaiter();
    const stop = timers.every(Math.max(1, Math.floor(this.staleMs / 4)), () => {
      entry.seenAt = timers.now();
    });
    try {
      return await work();
    } finally {
      stop();
      this.remove(entry);
      this.wakeFirstWaiter();
    }
  }

  /** Takes `entry`'s weight if it is the first waiter and fits beside the holders. */
  private admit(entry: Entry): boolean {
    this.prune();
    if (!this.line.includes(entry)) this.line.push(entry);
    let held = 0;
    let holders = 0;
    for (const e of this.line) {
      if (!e.held) continue;
      held += e.weight;
      holders++;
    }
    if (this.line.find((e) => !e.held) !== entry) return false;
    if (holders > 0 && held + entry.weight > this.capacity) return false;
    entry.held = true;
    return true;
  }

  /** Drops the places of requests not seen for `staleMs`. */
  private prune(): void {
    const cutoff = this.timers.now() - this.staleMs;
    for (let i = this.line.length - 1; i >= 0; i--) {
      if ((this.line[i]?.seenAt ?? cutoff) < cutoff) this.line.splice(i, 1);
    }
  }

  private remove(entry: Entry): void {
    const at = this.line.indexOf(entry);
    if (at >= 0) this.line.splice(at, 1);
  }

  private wakeFirstWaiter(): void {
    this.line.find((e) => !e.held)?.wake?.();
  }
}
