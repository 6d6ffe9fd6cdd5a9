/**
 * Bytes of frame cuts one isolate holds at once. A Worker has 128 MB; cuts are held while the
 * edge extracts their frame, and one may be up to the Media binding's 100 MB input limit, so
 * with many frames in flight they are counted against this share of it.
 */
export const CUT_BYTES_IN_FLIGHT = 48 * 1024 * 1024;

interface Waiter {
  bytes: number;
  grant: () => void;
}

/**
 * A semaphore weighted by bytes: `use` waits until its bytes fit beside what is held, first
 * come first served (a large request is never passed over by smaller ones behind it). A
 * request larger than the whole budget waits until nothing is held, then runs alone.
 */
export class ByteBudget {
  private held = 0;
  private holders = 0;
  private readonly waiting: Waiter[] = [];

  constructor(readonly limit: number) {}

  /** Bytes held right now. */
  get inUse(): number {
    return this.held;
  }

  /** Runs `work` while holding `bytes` of the budget, and gives them back however it ends. */
  async use<T>(bytes: number, work: () => Promise<T>): Promise<T> {
    const weight = Math.max(0, bytes);
    if (this.waiting.length === 0 && this.fits(weight)) this.take(weight);
    else await new Promise<void>((grant) => this.waiting.push({ bytes: weight, grant }));
    try {
      return await work();
    } finally {
      this.held -= weight;
      this.holders--;
      this.admit();
    }
  }

  private fits(bytes: number): boolean {
    return this.holders === 0 || this.held + bytes <= this.limit;
  }

  private take(bytes: number): void {
    this.held += bytes;
    this.holders++;
  }

  /** Lets waiters in, in order, while the first of them fits. */
  private admit(): void {
    for (let next = this.waiting[0]; next && this.fits(next.bytes); next = this.waiting[0]) {
      this.waiting.shift();
      this.take(next.bytes);
      next.grant();
    }
  }
}

/** The budget every engine of this isolate shares (the module lives as long as the isolate). */
export const isolateCutBudget = new ByteBudget(CUT_BYTES_IN_FLIGHT);
