import { describe, expect, it } from "vitest";
import { VasClient, VasError } from "../src/index.js";

const PERIOD = {
  start: "2026-11-01",
  end: "2026-11-30",
  videos_uploaded: 2,
  bytes_stored: 1024,
  bytes_stored_peak: 2048,
  processed_seconds: 48,
  heard_seconds: 0,
  seen_seconds: 0,
  models: [],
  searches: 3,
  runs: 1,
  findings: 6,
  webhook_attempts: 2,
  webhook_deliveries: 1,
};

describe("usage", () => {
  it("reads GET /usage with the range and granularity asked for", async () => {
    const urls: string[] = [];
    const report = {
      workspace_id: "ws_1",
      from: "2026-11-01",
      to: "2026-11-30",
      granularity: "month",
      bytes_stored_now: 1024,
      data: [PERIOD],
      totals: PERIOD,
    };
    const client = new VasClient({
      baseUrl: "http://vas.test",
      apiKey: "vas_secret",
      fetch: async (request) => {
        urls.push(request.url);
        return Response.json(report);
      },
    });
    const got = await client.usage({ from: "2026-11-01", to: "2026-11-30", granularity: "month" });
    expect(got).toEqual(report);
    expect(urls).toEqual([
      "http://vas.test/api/v1alpha1/usage?from=2026-11-01&to=2026-11-30&granularity=month",
    ]);
  });

  it("rejects with the field the service names", async () => {
    const client = new VasClient({
      baseUrl: "http://vas.test",
      apiKey: "vas_secret",
      fetch: async () =>
        Response.json(
          {
            type: "/problems/invalid-request",
            title: "Invalid request",
            status: 400,
            detail: "to must not be before from (2026-11-30).",
            code: "invalid-request",
            errors: [{ path: "to", message: "must not be before from (2026-11-30)" }],
          },
          { status: 400, headers: { "content-type": "application/problem+json" } },
        ),
    });
    const error = await client.usage({ from: "2026-11-30", to: "2026-11-01" }).catch((e) => e);
    expect(error).toBeInstanceOf(VasError);
    expect(error).toMatchObject({ kind: "http", fields: ["to"] });
  });
});
