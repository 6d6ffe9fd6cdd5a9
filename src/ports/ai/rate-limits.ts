/**
 * Workers AI's published rate limits per account, "per task type"
 * (developers.cloudflare.com/workers-ai/platform/limits): text generation 300 requests a
 * minute (the answer model and the vision model are both text generation), automatic speech
 * recognition 720, text embeddings 3,000. The limiter paces by task, not by model.
 */
export const PUBLISHED_RATES_PER_MINUTE = {
  "text-generation": 300,
  "speech-recognition": 720,
  "text-embeddings": 3000,
} as const;

/** A rate limit of the platform: the models that share one budget. */
export type RateGroup = keyof typeof PUBLISHED_RATES_PER_MINUTE;

/**
 * The limiter keeps this share of each published rate. The platform publishes requests per
 * minute without saying how the minute is cut, so the limit is kept in every 60 s window: slots
 * are evenly spaced, and a call starting up to 60 s × (1 / 0.95 − 1) ≈ 3.1 s after its slot
 * (the limiter's answer travelling back, a late timer, a clock skew between data centres) still
 * leaves at most the published count in any minute. A retry takes a slot of its own.
 */
export const RATE_HEADROOM = 0.95;

const GROUP_OF_MODEL: Record<string, RateGroup> = {
  "@cf/openai/whisper-large-v3-turbo": "speech-recognition",
  "@cf/openai/whisper": "speech-recognition",
  "@cf/baai/bge-m3": "text-embeddings",
  "@cf/baai/bge-base-en-v1.5": "text-embeddings",
};

/** The rate limit a model counts against; unknown models count as text generation (the tightest). */
export function rateGroupOf(model: string): RateGroup {
  return GROUP_OF_MODEL[model] ?? "text-generation";
}

/** Calls a minute the limiter allows for `group`. */
export function pacedRatePerMinute(group: RateGroup): number {
  return PUBLISHED_RATES_PER_MINUTE[group] * RATE_HEADROOM;
}
