import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  CALL_DEADLINE_SECONDS,
  checkConsumerConcurrency,
  derivedConcurrency,
  PACED_PER_MINUTE,
  PLATFORM_MAX_CONCURRENCY,
  worstSlotWaitSeconds,
} from "../../../scripts/lib/consumer-concurrency.mjs";
import { resolvedConfig } from "../../../scripts/lib/production-config.mjs";
import { pacedRatePerMinute, type RateGroup } from "../../../src/ports/ai/rate-limits";

// Every queue consumer runs at most as many invocations at once as fill the model rate it
// spends; the deploy check refuses a configuration where one does not.
const ROOT = path.resolve(import.meta.dirname, "../../..");
const toml = readFileSync(path.join(ROOT, "wrangler.toml"), "utf8");
const dir = mkdtempSync(path.join(tmpdir(), "vas-concurrency-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function configWith(text: string, env?: string) {
  const file = path.join(dir, `wrangler-${Math.random().toString(36).slice(2)}.toml`);
  writeFileSync(file, text);
  return resolvedConfig(file, env);
}

describe("queue consumers' max_concurrency", () => {
  it("holds in the local, production and simulated configurations", async () => {
    for (const env of [undefined, "production", "simulated"]) {
      const config = await resolvedConfig(path.join(ROOT, "wrangler.toml"), env);
      const { consumers } = config.queues as { consumers?: unknown[] };
      expect(consumers?.length, String(env)).toBe(12);
      expect(checkConsumerConcurrency(config), String(env)).toBeNull();
    }
  });

  it("fills each model rate with one invocation to spare, and nothing else is held back", () => {
    // Whisper: 684 paced ÷ 111 a batch = 6.2; vision and answers: 285 ÷ 200 and ÷ 262;
    // embeddings: 2,850 ÷ 400 = 7.1.
    expect(derivedConcurrency("media-windows")).toBe(8);
    expect(derivedConcurrency("media-frames")).toBe(3);
    expect(derivedConcurrency("analysis-runs")).toBe(3);
    expect(derivedConcurrency("search-indexing")).toBe(9);
    for (const queue of ["video-processing", "media-frames-dlq", "webhook-slow"])
      expect(derivedConcurrency(queue)).toBe(PLATFORM_MAX_CONCURRENCY);
  });

  it("keeps every call's wait for a slot inside its deadline, which 250 invocations would not", () => {
    // The calls' own deadline, read from the source (its module needs the Worker's types).
    const calls = readFileSync(path.join(ROOT, "src/ports/ai/model-calls.ts"), "utf8");
    const deadline = /DEFAULT_CALL_POLICY[^}]*deadlineMs: ([\d_]+),/.exec(calls)?.[1];
    expect(Number(deadline?.replaceAll("_", ""))).toBe(CALL_DEADLINE_SECONDS * 1000);
    for (const rate of Object.keys(PACED_PER_MINUTE) as RateGroup[]) {
      expect(PACED_PER_MINUTE[rate]).toBe(pacedRatePerMinute(rate));
      expect(worstSlotWaitSeconds(rate)).toBeLessThan(CALL_DEADLINE_SECONDS / 2);
    }
    // 250 frames and 250 analysis invocations: 10,000 calls queued for 285 slots a minute.
    const unset = worstSlotWaitSeconds("text-generation", () => PLATFORM_MAX_CONCURRENCY);
    expect(unset / 60).toBeGreaterThan(30);
  });

  it("is refused by the deploy check when a consumer has none or another", async () => {
    const unset = await configWith(
      toml.replace(
        '[[env.production.queues.consumers]]\nqueue = "media-frames"\nmax_concurrency = 3\n',
        '[[env.production.queues.consumers]]\nqueue = "media-frames"\n',
      ),
      "production",
    );
    expect(checkConsumerConcurrency(unset)).toBe(
      "max_concurrency: media-frames has none, not 3 (derived from the model rates each spends, " +
        "docs/decisions/consumer-concurrency.md)",
    );
    const raised = await configWith(
      toml.replace(
        '[[queues.consumers]]\nqueue = "media-windows"\nmax_concurrency = 8\n',
        '[[queues.consumers]]\nqueue = "media-windows"\nmax_concurrency = 40\n',
      ),
    );
    expect(checkConsumerConcurrency(raised)).toMatch(
      /^max_concurrency: media-windows has 40, not 8 /,
    );
  });
});
