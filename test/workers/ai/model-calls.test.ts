import { describe, expect, it } from "vitest";
import {
  callModel,
  classifyModelError,
  errorText,
  type ModelRateLimiter,
  pacedAi,
  TransientModelError,
  UnknownModelError,
} from "../../../src/ports/ai/model-calls";
import { NO_WAIT } from "../../helpers/instant-calls";

/** A clock that moves only when the code under test sleeps. */
function fakeTime() {
  let now = 0;
  const sleeps: number[] = [];
  return {
    now: () => now,
    sleep: async (ms: number) => {
      sleeps.push(ms);
      now += ms;
    },
    sleeps,
  };
}

const error = (message: string, fields: Record<string, unknown> = {}) =>
  Object.assign(new Error(message), fields);

describe("classifyModelError", () => {
  it.each([
    ["3040: Capacity temporarily exceeded", "transient"],
    ["3007: Request timeout", "transient"],
    ["InferenceUpstreamError: 3008: Request was aborted", "transient"],
    ["5004: Invalid data type for base64 input", "permanent"],
    ["5007: No such model", "permanent"],
    ["3036: You have used up your daily free allocation", "permanent"],
    ["JSON Mode couldn't be met", "permanent"],
    ["5025: JSON Mode couldn't be met", "permanent"],
    ["Too many requests", "transient"],
    ["5025: something else", "unknown"],
    ["network connection lost", "unknown"],
    ["input does not match the schema", "unknown"],
  ])("%s → %s", (message, kind) => {
    expect(classifyModelError(new Error(message)).kind).toBe(kind);
  });

  it("reads HTTP statuses and Retry-After from fields and messages", () => {
    expect(classifyModelError(error("x", { status: 503 })).kind).toBe("transient");
    expect(classifyModelError(error("x", { status: 400 })).kind).toBe("permanent");
    expect(classifyModelError(error("x", { status: 500 })).kind).toBe("unknown");
    expect(classifyModelError(error("x", { code: 9422 })).kind).toBe("permanent");
    expect(classifyModelError(error("x", { code: 9409 })).kind).toBe("unknown");
    expect(classifyModelError(error("x", { code: 415 })).kind).toBe("permanent");
    expect(
      classifyModelError(error("slow down, retry after 7 s", { status: 429 })).retryAfterMs,
    ).toBe(7000);
    expect(classifyModelError(error("x", { status: 429, retryAfter: 2 })).retryAfterMs).toBe(2000);
  });

  it("keeps keys, URLs and long tokens out of an error's text, and keeps it short", () => {
    const text = errorText(
      new Error(
        `failed: fetch https://api.cloudflare.com/client/v4/accounts/abc/ai/run\nAuthorization: Bearer sk_live_1234 token=abcd ${"A".repeat(40)} ${"x ".repeat(200)}`,
      ),
    );
    expect(text).not.toMatch(/https|cloudflare\.com|sk_live|abcd|AAAA|\n/);
    expect(text.length).toBeLessThanOrEqual(120);
    expect(text).toMatch(/^failed: fetch \[url\]/);
  });
});

describe("callModel", () => {
  it("retries transient failures with growing backoff and answers the success", async () => {
    const time = fakeTime();
    let calls = 0;
    const answer = await callModel(
      { limiter: NO_WAIT, ...time, random: () => 1 },
      "@cf/x",
      async () => {
        if (++calls < 4) throw error("3040: capacity");
        return "ok";
      },
    );
    expect(answer).toBe("ok");
    expect(calls).toBe(4);
    expect(time.sleeps).toEqual([1000, 2000, 4000]);
  });

  it("waits at least what Retry-After asks", async () => {
    const time = fakeTime();
    let calls = 0;
    await callModel({ limiter: NO_WAIT, ...time, random: () => 0 }, "@cf/x", async () => {
      if (++calls === 1) throw error("rate limited", { status: 429, retryAfter: 9 });
      return "ok";
    });
    expect(time.sleeps).toEqual([9000]);
  });

  it("throws a permanent failure at once, unchanged", async () => {
    const time = fakeTime();
    const refusal = error("5004: Invalid data");
    let calls = 0;
    await expect(
      callModel({ limiter: NO_WAIT, ...time }, "@cf/x", async () => {
        calls++;
        throw refusal;
      }),
    ).rejects.toBe(refusal);
    expect(calls).toBe(1);
  });

  it("tries an undocumented error three times, then throws UnknownModelError with its text", async () => {
    const time = fakeTime();
    let calls = 0;
    const failing = callModel({ limiter: NO_WAIT, ...time, random: () => 1 }, "@cf/x", async () => {
      calls++;
      throw error("upstream went away at https://internal.example/x");
    });
    await expect(failing).rejects.toBeInstanceOf(UnknownModelError);
    await expect(failing).rejects.toMatchObject({
      attempts: 3,
      text: "upstream went away at [url]",
    });
    expect(calls).toBe(3);
    expect(time.sleeps).toEqual([1000, 2000]);
  });

  it("gives up at the deadline with TransientModelError, never a result", async () => {
    const time = fakeTime();
    const failing = callModel(
      { limiter: NO_WAIT, ...time, policy: { deadlineMs: 30_000 } },
      "@cf/x",
      async () => {
        throw error("3040: capacity");
      },
    );
    await expect(failing).rejects.toBeInstanceOf(TransientModelError);
    expect(time.now()).toBeLessThanOrEqual(30_000);
  });

  it("waits for the limiter's slot, and fails for later when no slot is free in time", async () => {
    const time = fakeTime();
    const waits: number[] = [];
    const limiter: ModelRateLimiter = {
      reserve: async (_group, _tenant, maxWaitMs) => {
        waits.push(maxWaitMs);
        return 500;
      },
    };
    await callModel({ limiter, ...time }, "@cf/x", async () => "ok");
    expect(time.sleeps).toEqual([500]);
    const full: ModelRateLimiter = { reserve: async () => null };
    await expect(
      callModel({ limiter: full, ...time }, "@cf/x", async () => "ok"),
    ).rejects.toBeInstanceOf(TransientModelError);
  });

  it("asks the limiter one caller at a time per tenant, so polls grow with the wait, not the calls", async () => {
    const opensAt = Date.now() + 200;
    let requests = 0;
    const limiter: ModelRateLimiter = {
      reserve: async () => {
        requests++;
        return Date.now() >= opensAt ? 0 : null;
      },
    };
    const env = { limiter, tenant: "ws_many", policy: { slotPollMs: 10 } };
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => callModel(env, "@cf/x", async () => i)),
    );
    expect(answers).toEqual(Array.from({ length: 20 }, (_, i) => i));
    // About 20 polls by the first caller while closed, then one request per call; twenty
    // callers polling on their own would make about 400.
    expect(requests).toBeLessThan(60);
  });

  it("never makes one tenant's callers wait behind another tenant's", async () => {
    const limiter: ModelRateLimiter = {
      reserve: async (_group, tenant) => (tenant === "ws_full" ? null : 0),
    };
    const policy = { slotPollMs: 10, deadlineMs: 300 };
    const refused = callModel({ limiter, tenant: "ws_full", policy }, "@cf/x", async () => "x");
    const started = Date.now();
    expect(await callModel({ limiter, tenant: "ws_free", policy }, "@cf/x", async () => "y")).toBe(
      "y",
    );
    expect(Date.now() - started).toBeLessThan(150);
    await expect(refused).rejects.toBeInstanceOf(TransientModelError);
  });

  it("paces every call of a wrapped binding through the limiter, by rate group", async () => {
    const groups: string[] = [];
    const limiter: ModelRateLimiter = {
      reserve: async (group) => {
        groups.push(group);
        return 0;
      },
    };
    const ai = pacedAi({ run: async (model) => model }, { limiter });
    expect(await ai.run("@cf/openai/whisper-large-v3-turbo", {})).toBe(
      "@cf/openai/whisper-large-v3-turbo",
    );
    await ai.run("@cf/baai/bge-m3", {});
    await ai.run("@cf/meta/llama-3.3-70b-instruct-fp8-fast", {});
    expect(groups).toEqual(["speech-recognition", "text-embeddings", "text-generation"]);
  });
});
