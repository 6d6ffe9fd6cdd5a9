import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type SemaphoreTimers, SharedSemaphore } from "../../../src/lib/shared-semaphore";

/**
 * Timers that move only when the test says: sleeps end and renewals tick as `advance` passes
 * their time. `stopRenewals` silences the renewals already running, as a request that ended
 * without running its `finally` (cancelled, out of CPU) stops its own timers.
 */
class ManualTimers implements SemaphoreTimers {
  private time = 0;
  private sleeps: { at: number; done: () => void }[] = [];
  private renewals: { every: number; next: number; tick: () => void; live: boolean }[] = [];

  now = () => this.time;

  sleep = (ms: number) =>
    new Promise<void>((done) => {
      this.sleeps.push({ at: this.time + ms, done });
    });

  every = (ms: number, tick: () => void) => {
    const renewal = { every: ms, next: this.time + ms, tick, live: true };
    this.renewals.push(renewal);
    return () => {
      renewal.live = false;
    };
  };

  stopRenewals(): void {
    for (const r of this.renewals) r.live = false;
  }

  /** Moves time on by `ms` in steps of `step`, letting promises settle after each. */
  async advance(ms: number, step = 50): Promise<void> {
    for (let passed = 0; passed < ms; passed += step) {
      this.time += step;
      for (const r of this.renewals) {
        while (r.live && r.next <= this.time) {
          r.tick();
          r.next += r.every;
        }
      }
      const due = this.sleeps.filter((s) => s.at <= this.time);
      this.sleeps = this.sleeps.filter((s) => s.at > this.time);
      for (const s of due) s.done();
      await settle();
    }
  }
}

const settle = async () => {
  for (let i = 0; i < 20; i++) await Promise.resolve();
};

describe("a semaphore shared by the invocations of an isolate", () => {
  it("admits in arrival order, never past its capacity unless one holder is alone", async () => {
    const request = fc.record({ weight: fc.integer({ min: 0, max: 15 }), hold: fc.nat(4) });
    await fc.assert(
      fc.asyncProperty(fc.array(request, { minLength: 1, maxLength: 20 }), async (requests) => {
        const timers = new ManualTimers();
        const semaphore = new SharedSemaphore({ capacity: 10, pollMs: 100, timers });
        let held = 0;
        let holders = 0;
        const starts: { index: number; ok: boolean }[] = [];
        const all = Promise.all(
          requests.map((r, index) =>
            semaphore.use(r.weight, async () => {
              held += r.weight;
              holders++;
              starts.push({ index, ok: held <= 10 || holders === 1 });
              await timers.sleep(r.hold * 100);
              held -= r.weight;
              holders--;
            }),
          ),
        );
        await timers.advance(requests.length * 600);
        await all;
        expect(starts.map((s) => s.index)).toEqual(requests.map((_, i) => i));
        expect(starts.every((s) => s.ok)).toBe(true);
        expect(semaphore.idle).toBe(true);
      }),
      { numRuns: 40 },
    );
  });

  it("hands the turn on at once when a holder finishes, without waiting for a poll", async () => {
    const timers = new ManualTimers();
    const turn = new SharedSemaphore({ capacity: 1, pollMs: 10_000, timers });
    const order: string[] = [];
    const first = turn.use(1, async () => {
      order.push("first");
    });
    const second = turn.use(1, async () => {
      order.push("second");
    });
    await settle();
    await Promise.all([first, second]);
    expect(order).toEqual(["first", "second"]);
    expect(timers.now()).toBe(0);
  });

  it("takes a holder whose request ended without letting go for gone, and lets the next in", async () => {
    const timers = new ManualTimers();
    const turn = new SharedSemaphore({ capacity: 1, pollMs: 250, staleMs: 10_000, timers });
    // The first holder's work never ends, as when its invocation is cancelled mid-call.
    void turn.use(1, () => new Promise<void>(() => {}));
    let admitted = false;
    const next = turn.use(1, async () => {
      admitted = true;
    });
    // While the holder's request lives, it renews its place and keeps the turn.
    await timers.advance(30_000);
    expect(admitted).toBe(false);
    // Its request ends: its timers stop, nothing releases the turn, and no one wakes the waiter.
    timers.stopRenewals();
    await timers.advance(9_000);
    expect(admitted).toBe(false);
    await timers.advance(2_000);
    await next;
    expect(admitted).toBe(true);
    expect(turn.idle).toBe(true);
  });

  it("gives the weight back when the work fails", async () => {
    const semaphore = new SharedSemaphore({ capacity: 100 });
    await expect(semaphore.use(80, () => Promise.reject(new Error("edge down")))).rejects.toThrow(
      "edge down",
    );
    expect(semaphore.inUse).toBe(0);
    expect(await semaphore.use(80, async () => semaphore.inUse)).toBe(80);
  });
});
