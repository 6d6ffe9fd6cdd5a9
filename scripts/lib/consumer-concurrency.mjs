// How many invocations of each queue consumer may run at once (`max_concurrency`), derived
// from the Workers AI rate each one spends (docs/decisions/consumer-concurrency.md). Left
// unset, the platform runs up to 250 of a consumer at once; past the few that fill a model's
// rate, more only wait on the limiter, and a call still waiting at its deadline fails its window.

/** The platform's most invocations of one push consumer at once (queues/platform/limits). */
export const PLATFORM_MAX_CONCURRENCY = 250;

/**
 * Workers AI's published rates a minute per task type (workers-ai/platform/limits), paced at
 * 95 % by the limiter: `src/ports/ai/rate-limits.ts`, which a test keeps these equal to.
 */
export const PACED_PER_MINUTE = {
  "speech-recognition": 720 * 0.95,
  "text-generation": 300 * 0.95,
  "text-embeddings": 3000 * 0.95,
};

/** How long one model call may wait for its slot and retry (`DEFAULT_CALL_POLICY.deadlineMs`). */
export const CALL_DEADLINE_SECONDS = 120;

/**
 * The consumers that spend a model rate: the rate, the calls a minute one invocation makes
 * when the limiter does not hold it back (the busiest minute of one batch at a time in the
 * production-sim and long-runs benches, docs/benchmarks.md; for indexing, embedding calls of
 * ~150 ms one after another), and the calls one invocation has in flight at most.
 */
export const MODEL_CONSUMERS = {
  // Five audio windows side by side, one Whisper call each.
  "media-windows": { rate: "speech-recognition", callsPerMinute: 111, inFlight: 5 },
  // Five frames windows side by side, four frames at a time each.
  "media-frames": { rate: "text-generation", callsPerMinute: 200, inFlight: 20 },
  // Twenty lanes a batch (production), one answer call each at a time.
  "analysis-runs": { rate: "text-generation", callsPerMinute: 262, inFlight: 20 },
  // One video at a time, one embedding call (100 texts) at a time.
  "search-indexing": { rate: "text-embeddings", callsPerMinute: 400, inFlight: 1 },
};

/**
 * A consumer's `max_concurrency`: for one that spends a model rate, the invocations that fill
 * that rate and one more (for batches starting and ending); for one that spends none, the
 * platform's maximum, as no shared rate is at stake.
 */
export function derivedConcurrency(queue) {
  const spends = MODEL_CONSUMERS[queue];
  if (!spends) return PLATFORM_MAX_CONCURRENCY;
  return Math.ceil(PACED_PER_MINUTE[spends.rate] / spends.callsPerMinute) + 1;
}

/**
 * The longest a call can wait for its slot when every consumer spending `rate` runs as many
 * invocations as `concurrency` allows, each with its most calls in flight: those calls are
 * served one slot after another at the paced rate.
 */
export function worstSlotWaitSeconds(rate, concurrency = derivedConcurrency) {
  let waiting = 0;
  for (const [queue, spends] of Object.entries(MODEL_CONSUMERS))
    if (spends.rate === rate) waiting += concurrency(queue) * spends.inFlight;
  return (waiting / PACED_PER_MINUTE[rate]) * 60;
}

/**
 * Null when every consumer of a resolved configuration has its derived `max_concurrency`,
 * else one line naming each that does not.
 */
export function checkConsumerConcurrency(config) {
  const wrong = (config.queues?.consumers ?? [])
    .filter((consumer) => consumer.max_concurrency !== derivedConcurrency(consumer.queue))
    .map(
      (c) => `${c.queue} has ${c.max_concurrency ?? "none"}, not ${derivedConcurrency(c.queue)}`,
    );
  if (wrong.length > 0)
    return `max_concurrency: ${wrong.join("; ")} (derived from the model rates each spends, docs/decisions/consumer-concurrency.md)`;
  const late = Object.keys(PACED_PER_MINUTE).filter(
    (rate) => worstSlotWaitSeconds(rate) >= CALL_DEADLINE_SECONDS,
  );
  return late.length > 0
    ? `max_concurrency: calls of ${late.join(", ")} could wait out their ${CALL_DEADLINE_SECONDS} s deadline for a slot`
    : null;
}
