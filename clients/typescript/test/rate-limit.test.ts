import { describe, expect, it, vi } from "vitest";
import { reportRateLimited } from "../src/cli/output.js";
import { type RateLimitNotice, VasClient, VasError } from "../src/index.js";
import { fakeClock } from "./fake-clock.js";

function limited(retryAfter: string | null): Response {
  const headers: Record<string, string> = {
    "content-type": "application/problem+json",
    ratelimit: '"search";r=0;t=7',
    "ratelimit-policy": '"search";q=2;w=60',
  };
  if (retryAfter !== null) headers["retry-after"] = retryAfter;
  const problem = {
    type: "/problems/rate-limited",
    title: "The workspace has sent too many requests of this kind",
    status: 429,
    detail: "This workspace has used its 2 search requests of this 60 s window; retry in 7 s.",
    code: "rate-limited",
  };
  return new Response(JSON.stringify(problem), { status: 429, headers });
}

const page = { data: [], has_more: false, next_cursor: null };

/** A client whose service answers `answers` in turn, recording every request it sees. */
function clientAnswering(answers: (() => Response)[], options: { start?: number } = {}) {
  const { clock, sleeps } = fakeClock(options.start);
  const seen: { method: string; body: string; key: string | null }[] = [];
  const notices: RateLimitNotice[] = [];
  const client = new VasClient({
    baseUrl: "http://vas.test",
    apiKey: "vas_test",
    clock,
    onRateLimited: (notice) => notices.push(notice),
    fetch: async (request) => {
      seen.push({
        method: request.method,
        body: await request.text(),
        key: request.headers.get("idempotency-key"),
      });
      const answer = answers[Math.min(seen.length - 1, answers.length - 1)];
      return answer ? answer() : Response.json(page);
    },
  });
  return { client, sleeps, seen, notices };
}

describe("a 429 from the API", () => {
  it("is waited out for Retry-After, then the same request is sent again", async () => {
    const { client, sleeps, seen, notices } = clientAnswering([
      () => limited("7"),
      () => Response.json(page),
    ]);
    expect(await client.search({ query: "loading dock" })).toEqual(page);
    expect(sleeps).toEqual([7000]);
    expect(seen).toHaveLength(2);
    // The same body and the same Idempotency-Key: the service may treat it as one request.
    expect(seen[1]).toEqual(seen[0]);
    expect(seen[0]?.body).toBe('{"query":"loading dock"}');
    expect(seen[0]?.key).toMatch(/^[0-9a-f-]{36}$/);
    expect(notices).toEqual([
      {
        method: "POST",
        url: "http://vas.test/api/v1alpha1/search",
        waitMs: 7000,
        attempt: 1,
        rateLimit: '"search";r=0;t=7',
      },
    ]);
  });

  it("reads Retry-After as an HTTP date too, and backs off when an answer has none", async () => {
    const start = Date.parse("2026-11-23T10:00:00Z");
    const { client, sleeps } = clientAnswering(
      [
        () => limited("Mon, 23 Nov 2026 10:00:05 GMT"),
        () => limited(null),
        () => Response.json(page),
      ],
      { start },
    );
    await client.listVideos();
    expect(sleeps).toEqual([5000, 2000]);
  });

  it("gives up after three waits with the problem the service answered", async () => {
    const { client, sleeps, seen } = clientAnswering([() => limited("7")]);
    const failure = await client.listVideos().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(VasError);
    expect(failure).toMatchObject({ status: 429, code: "rate-limited", kind: "http" });
    expect(sleeps).toEqual([7000, 7000, 7000]);
    expect(seen).toHaveLength(4);
  });

  it("is answered at once when Retry-After is longer than the client waits", async () => {
    const { client, sleeps } = clientAnswering([() => limited("3600")]);
    await expect(client.listVideos()).rejects.toMatchObject({ status: 429 });
    expect(sleeps).toEqual([]);
  });
});

describe("vas on a 429", () => {
  it("says on stderr which request waits, how long, and the RateLimit the service sent", async () => {
    const written: string[] = [];
    vi.spyOn(process.stderr, "write").mockImplementation((chunk) => {
      written.push(String(chunk));
      return true;
    });
    const { client, notices } = clientAnswering([() => limited("7"), () => Response.json(page)]);
    await client.search({ query: "dock" });
    for (const notice of notices) reportRateLimited(notice);
    expect(written).toEqual([
      'vas: rate limited ("search";r=0;t=7): POST /api/v1alpha1/search again in 7 s\n',
    ]);
  });
});
