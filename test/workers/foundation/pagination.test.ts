import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { insertVideos } from "../../helpers/factories";
import { type Client, expectJson, expectProblem, newTenant } from "../../helpers/harness";

interface Page {
  data: { id: string }[];
  has_more: boolean;
  next_cursor: string | null;
}

async function collect(
  api: Client,
  limit: number,
  between?: () => Promise<void>,
): Promise<string[]> {
  const seen: string[] = [];
  let cursor: string | null = null;
  do {
    const query: string = `/videos?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
    const page: Page = await expectJson<Page>(await api.get(query), 200);
    expect(page.data.length).toBeLessThanOrEqual(limit);
    expect(page.has_more).toBe(page.next_cursor !== null);
    seen.push(...page.data.map((video) => video.id));
    cursor = page.next_cursor;
    await between?.();
  } while (cursor !== null);
  return seen;
}

describe("pagination (the spec's Endpoints section)", () => {
  it("visits every item exactly once, newest first, for any count and limit", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 40 }),
        fc.integer({ min: 1, max: 100 }),
        async (count, limit) => {
          const { api, workspaceId } = await newTenant();
          const ids = await insertVideos(workspaceId, count);
          const seen = await collect(api, limit);
          expect(seen).toEqual([...ids].reverse());
        },
      ),
      { numRuns: 25 },
    );
  });

  it("stays stable while new items arrive between pages", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 30 }),
        fc.integer({ min: 1, max: 10 }),
        async (count, limit) => {
          const { api, workspaceId } = await newTenant();
          const ids = await insertVideos(workspaceId, count);
          const seen = await collect(api, limit, async () => {
            await insertVideos(workspaceId, 2);
          });
          expect(seen).toEqual([...ids].reverse());
        },
      ),
      { numRuns: 15 },
    );
  });

  it("defaults to 25 items", async () => {
    const { api, workspaceId } = await newTenant();
    await insertVideos(workspaceId, 30);
    const page = await expectJson<Page>(await api.get("/videos"), 200);
    expect(page.data).toHaveLength(25);
    expect(page.has_more).toBe(true);
  });

  it("answers an empty list with has_more false and a null cursor", async () => {
    const { api } = await newTenant();
    expect(await expectJson(await api.get("/videos"), 200)).toEqual({
      data: [],
      has_more: false,
      next_cursor: null,
    });
  });

  it("refuses forged, altered and foreign cursors", async () => {
    const one = await newTenant();
    const two = await newTenant();
    await insertVideos(one.workspaceId, 3);
    await insertVideos(two.workspaceId, 3);
    const page = await expectJson<Page>(await one.api.get("/videos?limit=1"), 200);
    const cursor = page.next_cursor ?? "";
    const [payload = "", mac = ""] = cursor.split(".");
    const flipped = `${payload}.${mac.slice(0, -1)}${mac.endsWith("A") ? "B" : "A"}`;
    const forged = `${btoa(JSON.stringify({ s: "x", k: ["vid_zzzzzzzzzzzzzzzzzzzzzzzzzz"] }))}.${mac}`;
    for (const bad of [flipped, forged, "garbage", `${cursor}.x`]) {
      const problem = await expectProblem(
        await one.api.get(`/videos?cursor=${encodeURIComponent(bad)}`),
        400,
        "invalid-request",
      );
      expect(problem.errors?.[0]?.path).toBe("cursor");
    }
    // Another workspace's list, or the same list under another filter, is a foreign list.
    await expectProblem(
      await two.api.get(`/videos?cursor=${encodeURIComponent(cursor)}`),
      400,
      "invalid-request",
    );
    await expectProblem(
      await one.api.get(`/videos?status=failed&cursor=${encodeURIComponent(cursor)}`),
      400,
      "invalid-request",
    );
  });
});
