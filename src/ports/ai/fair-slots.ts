/**
 * Call slots of one rate limit, shared fairly between tenants. Time is cut into slots one
 * call long at the paced rate; a reservation takes the first free slot at or after both now
 * and the tenant's own next turn. While several tenants are active each may take only every
 * n-th slot (n = active tenants), so a tenant with fifty calls waiting cannot push a tenant
 * with one behind all of them: the small one fills the gaps.
 */
export class FairSlots {
  private readonly taken = new Set<number>();
  /** Per tenant: the first slot it may take next, and the last slot it took. */
  private readonly tenants = new Map<string, { nextTurn: number; last: number }>();

  /**
   * @param slotMs one call's share of the rate (60,000 / calls a minute)
   * @param activeMs a tenant counts as active this long after its last slot
   */
  constructor(
    private readonly slotMs: number,
    private readonly activeMs = 10_000,
  ) {}

  /** Wait in ms for the reserved slot, or null when none is free within `maxWaitMs`. */
  reserve(tenant: string, now: number, maxWaitMs: number): number | null {
    const current = Math.floor(now / this.slotMs);
    this.forget(current);
    const own = this.tenants.get(tenant);
    let slot = Math.max(current, own?.nextTurn ?? current);
    while (this.taken.has(slot)) slot++;
    const wait = Math.max(0, slot * this.slotMs - now);
    if (wait > maxWaitMs) return null;
    this.taken.add(slot);
    const active = this.activeTenants(current, tenant);
    this.tenants.set(tenant, { nextTurn: slot + active, last: slot });
    return wait;
  }

  /** Tenants with a slot in the recent past or the future, counting `tenant` itself. */
  private activeTenants(current: number, tenant: string): number {
    const since = current - Math.ceil(this.activeMs / this.slotMs);
    let count = 1;
    for (const [name, state] of this.tenants) if (name !== tenant && state.last >= since) count++;
    return count;
  }

  private forget(current: number): void {
    for (const slot of this.taken) if (slot < current) this.taken.delete(slot);
    const since = current - Math.ceil(this.activeMs / this.slotMs);
    for (const [name, state] of this.tenants) if (state.last < since) this.tenants.delete(name);
  }
}
