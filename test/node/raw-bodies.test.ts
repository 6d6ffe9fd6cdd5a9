import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminClient, apiClient, newTenant } from "./local-client";
import { freePort, LocalProcess } from "./local-process";
import { chunkedGet, hangUpMidBody, rawExchange } from "./raw-http";

// Bodies as clients really break them, over raw sockets to the real local process. The
// Worker's own answers are in test/workers/foundation/body-limit.test.ts; here it is what a
// client of `npm run dev` meets, where wrangler's proxy stands between it and the Worker.
const ADMIN_TOKEN = "raw-bodies-admin-token";
let service: LocalProcess;
let stateDir: string;
let key: string;

beforeAll(async () => {
  stateDir = mkdtempSync(path.join(tmpdir(), "vas-raw-bodies-"));
  service = new LocalProcess(await freePort(), { STATE_DIR: stateDir, ADMIN_TOKEN });
  await service.start();
  ({ key } = await newTenant(adminClient(service, ADMIN_TOKEN), "Raw bodies"));
});

afterAll(async () => {
  await service?.stop("SIGTERM");
  if (stateDir) rmSync(stateDir, { recursive: true, force: true });
});

/** The lines the Worker logged as internal errors: a request id and an error with its stack. */
function internalErrors(from: number): string[] {
  return service.output
    .slice(from)
    .split("\n")
    .filter((line) => line.includes('"request_id"') && line.includes('"error"'));
}

describe("bodies cut off or out of bounds, over a raw connection", () => {
  it("takes a hang-up 17 bytes into a 100-byte body without an internal error, and goes on serving", async () => {
    const from = service.output.length;
    const head = `POST /api/v1alpha1/profiles HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n`;
    await hangUpMidBody(service.baseUrl, head, '{"name":"seventee');
    const next = await apiClient(service, key).fetch("GET", "/videos");
    expect(next.status).toBe(200);
    // Logs arrive through wrangler's output a moment after the request.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(internalErrors(from)).toEqual([]);
  });

  it("never answers a chunked GET with a 500 nor leaves its connection hanging", async () => {
    const from = service.output.length;
    const headers = { Authorization: `Bearer ${key}` };
    const videos = `GET /api/v1alpha1/videos HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${key}\r\n\r\n`;
    const small = await rawExchange(service.baseUrl, [
      chunkedGet("/api/v1alpha1/videos", 5, headers),
      videos,
    ]);
    expect(small).toEqual({ statuses: [200, 200], ended: "answered" });
    // Over the limit. Locally wrangler's entry hands the Worker the GET without its body, so
    // the answer is the bodiless one's and the runtime closes the connection rather than read
    // the rest; deployed, workerd gives the Worker the body and the limit answers 413.
    const over = await rawExchange(service.baseUrl, [
      chunkedGet("/api/v1alpha1/videos", 2 * 1024 * 1024, headers),
      videos,
    ]);
    expect([200, 413], JSON.stringify(over)).toContain(over.statuses[0]);
    expect(over.statuses).not.toContain(500);
    expect(over.ended, JSON.stringify(over)).not.toBe("timeout");
    expect(internalErrors(from)).toEqual([]);
  });
});
