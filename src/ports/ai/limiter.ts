import type { ModelRateLimiter, RateGroup } from "./model-calls";

/** The limiter object's RPC surface, as a namespace stub exposes it. */
interface LimiterStub {
  reserve(group: RateGroup, tenant: string, maxWaitMs: number): Promise<number | null>;
}

/** The namespace of the limiter objects (`env.MODEL_LIMITER`). */
export interface LimiterNamespace {
  getByName(name: string): LimiterStub;
}

/** Paces calls through one Durable Object per rate group: one limiter for the whole account. */
export class DurableObjectRateLimiter implements ModelRateLimiter {
  constructor(private readonly namespace: LimiterNamespace) {}

  reserve(group: RateGroup, tenant: string, maxWaitMs: number): Promise<number | null> {
    return this.namespace.getByName(group).reserve(group, tenant, maxWaitMs);
  }
}
