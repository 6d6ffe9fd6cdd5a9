import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { Socket } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminClient, type Client, newTenant, poll, upload } from "../local-client";
import { freePort, LocalProcess } from "../local-process";
import { vestsProfile } from "../profiles";

// End to end over the real local process: a real HTTP receiver on loopback gets signed events
// after real state changes; retries run on a schedule shortened to seconds.
const ROOT = path.resolve(import.meta.dirname, "../../..");
const ADMIN_TOKEN = "webhook-e2e-admin-token";
const ANSWERS: Record<string, number> = { "/ok": 204, "/fail": 500, "/gone": 410, "/runs": 204 };

interface Hit {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

const hits: Hit[] = [];
let receiver: Server;
let receiverUrl: string;
let service: LocalProcess;
let stateDir: string;
let client: Client;
let api: string;
let workspaceId: string;

async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined) {
  const value = await poll(probe, (read) => read !== undefined, { ms: 60_000 });
  if (value !== undefined) return value;
  throw new Error(
    `timed out waiting for ${what}; receiver saw ${JSON.stringify(hits.map((h) => h.path))}`,
  );
}

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      hits.push({ path: req.url ?? "", headers: req.headers, body });
      res.writeHead(ANSWERS[req.url ?? ""] ?? 404).end("thanks");
    });
  });
  const port = await freePort();
  await new Promise<void>((resolve) => receiver.listen(port, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${port}`;
  stateDir = mkdtempSync(path.join(tmpdir(), "vas-webhooks-"));
  service = new LocalProcess(await freePort(), {
    STATE_DIR: stateDir,
    ADMIN_TOKEN,
    // The receiver is on loopback, which production's policy (ADAPTERS=production) refuses.
    WEBHOOK_ALLOW_LOOPBACK_HTTP: "true",
    WEBHOOK_RETRY_SCHEDULE: "0,1,1",
    WEBHOOK_RETRY_JITTER: "0",
  });
  await service.start();
  ({ workspaceId, api: client } = await newTenant(adminClient(service, ADMIN_TOKEN), "Webhooks"));
  api = client.root;
});

afterAll(async () => {
  await service?.stop("SIGTERM");
  await new Promise((resolve) => receiver?.close(resolve));
  if (stateDir) rmSync(stateDir, { recursive: true, force: true });
});

async function register(pathname: string, eventTypes: string[]) {
  const res = await client.call("POST", `${api}/webhooks`, {
    url: `${receiverUrl}${pathname}`,
    event_types: eventTypes,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; secret: string };
}

async function uploadAndIndex(): Promise<string> {
  return (await upload(client, "talk.mp4")).videoId;
}

describe("webhooks over the local process", () => {
  it("delivers signed events, retries then fails, disables on 410, filters by type", async () => {
    const ok = await register("/ok", ["video.indexed"]);
    const failing = await register("/fail", ["*"]);
    const gone = await register("/gone", ["*"]);
    const runs = await register("/runs", ["run.completed"]);
    const videoId = await uploadAndIndex();

    const indexed = await until("video.indexed at /ok", () => hits.find((h) => h.path === "/ok"));
    const event = new Webhook(ok.secret).verify(
      indexed.body,
      indexed.headers as Record<string, string>,
    );
    expect(event).toMatchObject({
      type: "video.indexed",
      data: { video: { id: videoId, status: "completed" } },
    });

    const failed = await until("three attempts then failed", async () => {
      const page = await client.call("GET", `${api}/webhooks/${failing.id}/deliveries`);
      const [delivery] = page.body.data;
      return delivery?.status === "failed" ? delivery : undefined;
    });
    expect(failed).toMatchObject({
      attempts: 3,
      response_status: 500,
      event_type: "video.indexed",
    });
    expect(hits.filter((h) => h.path === "/fail")).toHaveLength(3);

    const disabled = await until("the 410 endpoint disabled", async () => {
      const res = await client.call("GET", `${api}/webhooks/${gone.id}`);
      return res.body.enabled === false ? res.body : undefined;
    });
    expect(disabled).toMatchObject({
      disabled_reason: "gone",
      last_delivery: { response_status: 410 },
    });
    expect(hits.filter((h) => h.path === "/gone")).toHaveLength(1);
    expect(hits.filter((h) => h.path === "/runs")).toEqual([]);

    const test = await client.call("POST", `${api}/webhooks/${ok.id}/test`);
    expect(test.status).toBe(202);
    const received = await until("webhook.test", () =>
      hits.find((h) => h.path === "/ok" && JSON.parse(h.body).type === "webhook.test"),
    );
    expect(() =>
      new Webhook(ok.secret).verify(received.body, received.headers as Record<string, string>),
    ).not.toThrow();

    const redeliver = await client.call(
      "POST",
      `${api}/webhooks/${failing.id}/deliveries/${failed.id}/redeliver`,
    );
    expect(redeliver.body).toMatchObject({ status: "pending", attempts: 0 });
    await until("the redelivered attempts", () =>
      hits.filter((h) => h.path === "/fail").length >= 4 ? true : undefined,
    );

    // A run over the indexed video announces its end to the endpoint that asked for it.
    const profile = await client.call("POST", `${api}/profiles`, vestsProfile());
    expect(profile.status, JSON.stringify(profile.body)).toBe(201);
    const run = await client.call("POST", `${api}/runs`, {
      source_ids: [videoId],
      profile_id: profile.body.id,
    });
    expect(run.status, JSON.stringify(run.body)).toBe(202);
    const ended = await until("run.completed at /runs", () => hits.find((h) => h.path === "/runs"));
    expect(
      new Webhook(runs.secret).verify(ended.body, ended.headers as Record<string, string>),
    ).toMatchObject({
      type: "run.completed",
      data: { run: { id: run.body.id, status: "completed" } },
    });
    expect(hits.filter((h) => h.path === "/runs")).toHaveLength(1);
  });

  it("sends again at once a request whose idle connection the receiver closed, not counting it", async () => {
    // Like a server whose keep-alive ran out as the request came: a connection idle for more
    // than 500 ms is closed, unanswered, when the next request arrives on it. Its own port,
    // so the runtime's pool holds only the connections made to it here.
    const answeredAt = new WeakMap<Socket, number>();
    const got: string[] = [];
    const closing = createServer((req, res) => {
      const idleSince = answeredAt.get(req.socket);
      if (idleSince !== undefined && Date.now() - idleSince > 500) {
        req.socket.destroy();
        return;
      }
      req.resume();
      req.on("end", () => {
        got.push(String(req.headers["webhook-id"]));
        res.writeHead(204).end(() => answeredAt.set(req.socket, Date.now()));
      });
    });
    const port = await freePort();
    await new Promise<void>((resolve) => closing.listen(port, "127.0.0.1", resolve));
    try {
      const res = await client.call("POST", `${api}/webhooks`, {
        url: `http://127.0.0.1:${port}/hooks`,
        event_types: ["video.indexed"],
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      const id = res.body.id as string;
      const first = await client.call("POST", `${api}/webhooks/${id}/test`);
      await until("the first test event", () => (got.length === 1 ? true : undefined));
      // Idle past the receiver's 500 ms, well inside the runtime's own pool timeout (5 s).
      await new Promise((resolve) => setTimeout(resolve, 700));
      const second = await client.call("POST", `${api}/webhooks/${id}/test`);
      const delivered = await until("the second test event delivered", async () => {
        const detail = await client.call(
          "GET",
          `${api}/webhooks/${id}/deliveries/${second.body.id}`,
        );
        return detail.body.status === "pending" ? undefined : detail.body;
      });
      expect(delivered).toMatchObject({ status: "delivered", attempts: 1, response_status: 204 });
      expect(delivered.attempt_log).toEqual([
        expect.objectContaining({ error: "connection_lost", response_status: null }),
        expect.objectContaining({ error: null, response_status: 204 }),
      ]);
      expect(got).toEqual([first.body.event_id, second.body.event_id]);
      const read = await client.call("GET", `${api}/webhooks/${id}`);
      expect(read.body).toMatchObject({ enabled: true, last_delivery: { outcome: "succeeded" } });
    } finally {
      closing.closeAllConnections();
      await new Promise((resolve) => closing.close(resolve));
    }
  });

  it("npm run admin -- webhooks listen registers a receiver, verifies events, cleans up on Ctrl-C", async () => {
    const args = ["scripts/admin.mjs", "--base-url", service.baseUrl, "--admin-token", ADMIN_TOKEN];
    const listener = spawn("node", [...args, "webhooks", "listen", "--workspace", workspaceId], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    listener.stdout.on("data", (chunk) => {
      output += chunk;
    });
    listener.stderr.on("data", (chunk) => {
      output += chunk;
    });
    try {
      const endpointId = await until(
        "the listener to register",
        () => /as (wh_\w+)/.exec(output)?.[1],
      );
      expect((await client.call("POST", `${api}/webhooks/${endpointId}/test`)).status).toBe(202);
      const line = await until("the test event line", () =>
        output.split("\n").find((l) => l.includes("webhook.test")),
      );
      expect(line).toMatch(/webhook\.test\s+evt_\w+\s+signature ok$/);
      const exited = new Promise((resolve) => listener.once("exit", resolve));
      listener.kill("SIGINT");
      expect(await exited).toBe(0);
      expect(output).toContain(`removed ${endpointId}`);
      expect((await client.call("GET", `${api}/webhooks/${endpointId}`)).status).toBe(404);
    } finally {
      if (listener.exitCode === null) listener.kill("SIGKILL");
    }
  });
});
