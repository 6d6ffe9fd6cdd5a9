// Types of consumer-concurrency.mjs for the node tests.
import type { ResolvedConfig } from "./production-config.mjs";

export type ModelRate = "speech-recognition" | "text-generation" | "text-embeddings";
export const PLATFORM_MAX_CONCURRENCY: number;
export const PACED_PER_MINUTE: Record<ModelRate, number>;
export const CALL_DEADLINE_SECONDS: number;
export const MODEL_CONSUMERS: Record<
  string,
  { rate: ModelRate; callsPerMinute: number; inFlight: number }
>;
export function derivedConcurrency(queue: string): number;
export function worstSlotWaitSeconds(
  rate: ModelRate,
  concurrency?: (queue: string) => number,
): number;
export function checkConsumerConcurrency(config: ResolvedConfig): string | null;
