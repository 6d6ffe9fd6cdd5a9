// Webhook events fanned out to 10 endpoints on a local receiver: deliveries per second, and
// the lag from the state change (the event's created_at) to the receiver, also while another
// workspace's endpoint hangs (never answers) on deliveries of its own: first while its first
// attempts are cut off in the fast lane, then once they go to the slow lane. Locally every
// queue hop waits for its batch (max_batch_timeout = 1 s in wrangler.toml); that wait is part
// of the lag and reported beside it.
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import path from "node:path";
import { ROOT } from "../../scripts/lib/local.mjs";
import { fmt } from "../lib.mjs";

export const name = "webhooks";

const ENDPOINTS = 10;
const TEST_EVENTS = 200;
const VIDEOS = 3;
/** Test events each phase of the hanging-endpoint comparison sends to the healthy endpoints. */
const COMPARED_EVENTS = 100;
/** Deliveries queued for the hanging endpoint just before the second phase. */
const HANGING_EVENTS = 20;

function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

async function json(res) {
  const text = await res.text();
  if (!res.ok) throw new Error(`${res.status}: ${text}`);
  return text ? JSON.parse(text) : null;
}

async function waitFor(check, what, ms = 120_000) {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Runs the suite against a started service; returns its Markdown section. */
export async function run(service) {
  const received = [];
  const hanging = [];
  const receiver = createServer((req, res) => {
    // The other workspace's endpoint takes the request and never answers.
    if (req.url?.startsWith("/hang")) {
      hanging.push(res);
      return;
    }
    const chunks = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", () => {
      const at = Date.now();
      const event = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      received.push({ type: event.type, lag: at - Date.parse(event.created_at), at });
      res.writeHead(204).end();
    });
  });
  await new Promise((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const receiverUrl = `http://127.0.0.1:${receiver.address().port}`;
  try {
    const workspace = await service.admin("POST", "/workspaces", {
      name: "bench-webhooks",
      alpha_opt_in: true,
    });
    const { key } = await service.admin("POST", "/keys", {
      workspace_id: workspace.id,
      type: "alpha",
      permissions: ["*"],
    });
    const api = (route, method = "GET", body) =>
      fetch(`${service.baseUrl}/api/v1alpha1${route}`, {
        method,
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      }).then(json);
    const endpoints = [];
    for (let i = 0; i < ENDPOINTS; i++) {
      endpoints.push(
        await api("/webhooks", "POST", { url: `${receiverUrl}/${i}`, event_types: ["*"] }),
      );
    }

    // Real state changes: each video.indexed fans out to every endpoint.
    const bytes = readFileSync(path.join(ROOT, "test/fixtures/media/talk.mp4"));
    for (let v = 0; v < VIDEOS; v++) {
      const session = await api("/videos", "POST", {
        filename: "talk.mp4",
        file_size: bytes.length,
      });
      const put = await fetch(session.target.url, {
        method: "PUT",
        headers: session.target.headers,
        body: bytes,
      });
      if (!put.ok) throw new Error(`PUT ${put.status}`);
      await api(`/videos/${session.video_id}/upload/complete`, "POST", {});
      await waitFor(
        () => received.filter((r) => r.type === "video.indexed").length >= (v + 1) * ENDPOINTS,
        "video.indexed at every endpoint",
      );
    }
    const indexed = received.filter((r) => r.type === "video.indexed").map((r) => r.lag);

    // Throughput: test events sent as fast as 10 clients can, one per endpoint in turn.
    const started = Date.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: ENDPOINTS }, async () => {
        while (next < TEST_EVENTS) {
          const endpoint = endpoints[next++ % ENDPOINTS];
          await api(`/webhooks/${endpoint.id}/test`, "POST");
        }
      }),
    );
    const sentSeconds = (Date.now() - started) / 1000;
    await waitFor(
      () => received.filter((r) => r.type === "webhook.test").length >= TEST_EVENTS,
      "every test event",
    );
    const tests = received.filter((r) => r.type === "webhook.test");
    const seconds = (Math.max(...tests.map((r) => r.at)) - started) / 1000;
    const lags = tests.map((r) => r.lag);

    // The same healthy deliveries, alone and then while another workspace's endpoint hangs.
    const sendTests = async (count) => {
      const from = received.length;
      let sent = 0;
      await Promise.all(
        Array.from({ length: ENDPOINTS }, async () => {
          while (sent < count) {
            const endpoint = endpoints[sent++ % ENDPOINTS];
            await api(`/webhooks/${endpoint.id}/test`, "POST");
          }
        }),
      );
      await waitFor(() => received.length - from >= count, "the compared test events");
      return received.slice(from).map((r) => r.lag);
    };
    const alone = await sendTests(COMPARED_EVENTS);
    const other = await service.admin("POST", "/workspaces", {
      name: "bench-webhooks-hanging",
      alpha_opt_in: true,
    });
    const otherKey = (
      await service.admin("POST", "/keys", {
        workspace_id: other.id,
        type: "alpha",
        permissions: ["*"],
      })
    ).key;
    const otherApi = (route, method = "GET", body) =>
      fetch(`${service.baseUrl}/api/v1alpha1${route}`, {
        method,
        headers: { authorization: `Bearer ${otherKey}`, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      }).then(json);
    const stuck = await otherApi("/webhooks", "POST", {
      url: `${receiverUrl}/hang`,
      event_types: ["*"],
    });
    const queueForStuck = async () => {
      for (let i = 0; i < HANGING_EVENTS; i++) {
        await otherApi(`/webhooks/${stuck.id}/test`, "POST");
      }
    };
    await queueForStuck();
    await waitFor(() => hanging.length > 0, "the hanging endpoint to be reached");
    const besideHanging = await sendTests(COMPARED_EVENTS);
    const reached = hanging.length;
    // Its first attempts have outlasted the fast lane by now: what follows is steady state.
    await queueForStuck();
    const besideSlowLane = await sendTests(COMPARED_EVENTS);
    const reachedLater = hanging.length - reached;
    return [
      `### Webhooks: ${ENDPOINTS} endpoints on a local receiver`,
      "",
      "| measurement | deliveries | accepted by the API /s | delivered /s | lag p50 (ms) | lag p99 (ms) |",
      "| --- | ---: | ---: | ---: | ---: | ---: |",
      `| video.indexed fanned out to every endpoint (${VIDEOS} uploads) | ${indexed.length} | | | ${fmt(percentile(indexed, 50), 0)} | ${fmt(percentile(indexed, 99), 0)} |`,
      `| webhook.test, ${TEST_EVENTS} sent by 10 clients | ${tests.length} | ${fmt(TEST_EVENTS / sentSeconds)} | ${fmt(tests.length / seconds)} | ${fmt(percentile(lags, 50), 0)} | ${fmt(percentile(lags, 99), 0)} |`,
      `| webhook.test, ${COMPARED_EVENTS} to the healthy endpoints alone | ${alone.length} | | | ${fmt(percentile(alone, 50), 0)} | ${fmt(percentile(alone, 99), 0)} |`,
      `| the same while another workspace's endpoint starts hanging (${HANGING_EVENTS} deliveries queued for it, ${reached} requests reached it meanwhile) | ${besideHanging.length} | | | ${fmt(percentile(besideHanging, 50), 0)} | ${fmt(percentile(besideHanging, 99), 0)} |`,
      `| the same once its attempts go to the slow lane (${HANGING_EVENTS} more queued for it, ${reachedLater} requests reached it meanwhile) | ${besideSlowLane.length} | | | ${fmt(percentile(besideSlowLane, 50), 0)} | ${fmt(percentile(besideSlowLane, 99), 0)} |`,
      "",
      "",
      "Lag is the receiver's clock minus the event's `created_at`. It includes the local queue's batch wait (up to 1 s per hop, `max_batch_timeout`); a `video.indexed` takes one hop (the indexing batch dispatches it, then the webhook queue), a test event one. The hanging endpoint takes each request and never answers: the fast lane gives up on an attempt after 2 s and sends it to the slow lane (`webhook-slow`, 15 s timeout); an endpoint that outlasted the fast lane goes there directly until it answers within 2 s. Healthy test events are sent from the moment the hanging endpoint is first reached, so the first comparison includes the fast-lane batch that waits 2 s on its first attempts.",
    ].join("\n");
  } finally {
    for (const res of hanging) res.destroy();
    receiver.closeAllConnections();
    receiver.close();
  }
}
