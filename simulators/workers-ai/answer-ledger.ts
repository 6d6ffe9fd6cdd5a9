import type { AnswerError } from "./answer-errors";

/**
 * Where the adversarial answer model records the errors it made, in the media bucket: a prefix
 * no S3 request may touch (simulators/reserved-prefixes.ts), like the R2 S3 simulator's ledger.
 */
export const ANSWER_LEDGER_PREFIX = "__answer-simulator/";

const errorKey = (fingerprint: string) => `${ANSWER_LEDGER_PREFIX}errors/${fingerprint}`;

/** An error as the ledger keeps it: made `made` times, first and last at these times. */
export interface RecordedAnswerError extends AnswerError {
  made: number;
  first_made_at: string;
  last_made_at: string;
}

/**
 * Records errors, one object per fingerprint: the same error made again (a retried step, or
 * the same question over the same evidence) raises its count. Counting is read-then-write, so
 * two calls making the same error at once may count it once.
 */
export async function recordAnswerErrors(
  bucket: R2Bucket,
  errors: AnswerError[],
  now: Date = new Date(),
): Promise<void> {
  await Promise.all(
    errors.map(async (error) => {
      const key = errorKey(error.fingerprint);
      const before = await bucket.get(key);
      const earlier = before ? ((await before.json()) as RecordedAnswerError) : null;
      const entry: RecordedAnswerError = {
        ...error,
        made: (earlier?.made ?? 0) + 1,
        first_made_at: earlier?.first_made_at ?? now.toISOString(),
        last_made_at: now.toISOString(),
      };
      await bucket.put(key, JSON.stringify(entry), {
        httpMetadata: { contentType: "application/json" },
      });
    }),
  );
}

/** Every recorded error, oldest first. */
export async function listAnswerErrors(bucket: R2Bucket): Promise<RecordedAnswerError[]> {
  const keys: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await bucket.list({
      prefix: `${ANSWER_LEDGER_PREFIX}errors/`,
      ...(cursor === undefined ? {} : { cursor }),
    });
    keys.push(...page.objects.map((o) => o.key));
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor !== undefined);
  const entries = await Promise.all(
    keys.map(async (key) => {
      const object = await bucket.get(key);
      return object ? ((await object.json()) as RecordedAnswerError) : null;
    }),
  );
  return entries
    .filter((e): e is RecordedAnswerError => e !== null)
    .sort(
      (a, b) =>
        a.first_made_at.localeCompare(b.first_made_at) ||
        a.fingerprint.localeCompare(b.fingerprint),
    );
}
