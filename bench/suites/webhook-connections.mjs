// Webhook deliveries to receivers on loopback that close idle keep-alive connections after
// 1 s and after 5 s (Node's `keepAliveTimeout`), side by side in the same rounds while the
// isolate is kept busy by short stalls (a CPU-bound neighbour); then a receiver that answers
// at once while the isolate stalls for longer than the fast lane's 2 s cut-off. Reported:
// lag (receiver clock minus the event's created_at), requests the receivers got, and what
// the attempt logs say.
import { createServer } from "node:http";
import { benchClient, fmt, json, percentile } from "../lib.mjs";

export const name = "webhook-connections";

/** Endpoints per keep-alive receiver. */
const ENDPOINTS = 4;
const ROUNDS = 60;
/** Pauses between rounds, in turn: connections sit idle across both receivers' closes. */
const GAPS_MS = [500, 1_000, 1_500, 2_000, 2_500, 3_000];
/** The busy neighbour of the keep-alive comparison: a stall this long every STALL_EVERY_MS. */
const BUSY_STALL_MS = 150;
const BUSY_EVERY_MS = 500;
/** The stalled-service phase: events at this pace while the isolate stalls past the cut-off. */
const STALLED_EVENTS = 60;
const STALLED_EVENT_EVERY_MS = 250;
const LONG_STALL_MS = 3_000;
const LONG_STALL_EVERY_MS = 5_000;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** A receiver that answers 204 at once and closes connections idle for `keepAliveMs`. */
async function receiver(keepAliveMs) {
  const firstSeen = new Map();
  let requests = 0;
  const server = createServer((req, res) => {
    const chunks = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", () => {
      const at = Date.now();
      const event = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      requests++;
      if (!firstSeen.has(event.id)) firstSeen.set(event.id, at - Date.parse(event.created_at));
      res.writeHead(204).end();
    });
  });
  server.keepAliveTimeout = keepAliveMs;
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    firstSeen,
    requests: () => requests,
    close() {
      server.closeAllConnections();
      server.close();
    },
  };
}

/** Calls the stall route every `everyMs` until `stop()`; returns the stopper. */
function stalls(service, ms, everyMs) {
  let running = true;
  const loop = (async () => {
    while (running) {
      await fetch(`${service.baseUrl}/__bench/stall?ms=${ms}`, { method: "POST" }).then(json);
      await sleep(everyMs);
    }
  })();
  return async () => {
    running = false;
    await loop;
  };
}

async function waitFor(check, what, ms = 120_000) {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

/** Every attempt-log line of the endpoints' deliveries. */
async function attemptLines(api, endpoints) {
  const lines = [];
  for (const endpoint of endpoints) {
    let cursor = null;
    do {
      const page = await api(
        `/webhooks/${endpoint.id}/deliveries?limit=100${cursor ? `&cursor=${cursor}` : ""}`,
      );
      for (const delivery of page.data) {
        const detail = await api(`/webhooks/${endpoint.id}/deliveries/${delivery.id}`);
        lines.push(...detail.attempt_log);
      }
      cursor = page.next_cursor;
    } while (cursor);
  }
  return lines;
}

function row(label, sent, got, lines) {
  const lags = [...got.firstSeen.values()];
  const count = (error) => lines.filter((line) => line.error === error).length;
  return {
    p99: percentile(lags, 0.99),
    text: `| ${label} | ${sent} | ${got.requests()} | ${count("connection_lost")} | ${count("network")} | ${fmt(Math.max(...lines.map((l) => l.duration_ms)), 0)} | ${fmt(percentile(lags, 0.5), 0)} | ${fmt(percentile(lags, 0.99), 0)} |`,
  };
}

/** Runs the suite against a started service; returns its Markdown section. */
export async function run(service) {
  const short = await receiver(1_000);
  const long = await receiver(5_000);
  const prompt = await receiver(5_000);
  try {
    const client = await benchClient(service, "bench-webhook-connections");
    const api = (route, method = "GET", body) =>
      fetch(`${client.api}${route}`, {
        method,
        headers: client.headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      }).then(json);
    const register = async (got, count) => {
      const list = [];
      for (let i = 0; i < count; i++) {
        list.push(await api("/webhooks", "POST", { url: `${got.url}/${i}`, event_types: ["*"] }));
      }
      return list;
    };
    const shortEndpoints = await register(short, ENDPOINTS);
    const longEndpoints = await register(long, ENDPOINTS);
    const [promptEndpoint] = await register(prompt, 1);

    // Keep-alive 1 s against 5 s: the same rounds, the same busy isolate.
    const stopBusy = stalls(service, BUSY_STALL_MS, BUSY_EVERY_MS);
    for (let round = 0; round < ROUNDS; round++) {
      await Promise.all(
        [...shortEndpoints, ...longEndpoints].map((e) => api(`/webhooks/${e.id}/test`, "POST")),
      );
      await sleep(GAPS_MS[round % GAPS_MS.length]);
    }
    await stopBusy();
    const sent = ROUNDS * ENDPOINTS;
    await waitFor(
      () => short.firstSeen.size >= sent && long.firstSeen.size >= sent,
      "every keep-alive event",
    );

    // A receiver that answers at once while the isolate stalls past the cut-off.
    const stopStalls = stalls(service, LONG_STALL_MS, LONG_STALL_EVERY_MS);
    for (let i = 0; i < STALLED_EVENTS; i++) {
      await api(`/webhooks/${promptEndpoint.id}/test`, "POST");
      await sleep(STALLED_EVENT_EVERY_MS);
    }
    await stopStalls();
    await waitFor(() => prompt.firstSeen.size >= STALLED_EVENTS, "every stalled-phase event");
    await sleep(2_000);

    const shortRow = row("keep-alive 1 s", sent, short, await attemptLines(api, shortEndpoints));
    const longRow = row("keep-alive 5 s", sent, long, await attemptLines(api, longEndpoints));
    const promptRow = row(
      `answers at once; ${LONG_STALL_MS / 1000} s stalls every ${LONG_STALL_EVERY_MS / 1000} s`,
      STALLED_EVENTS,
      prompt,
      await attemptLines(api, [promptEndpoint]),
    );
    return [
      `### Webhook receivers that close idle connections, and a stalled service`,
      "",
      "| receiver | events | requests received | resent at once (`connection_lost`) | failed attempts (`network`) | longest attempt (ms) | lag p50 (ms) | lag p99 (ms) |",
      "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
      shortRow.text,
      longRow.text,
      promptRow.text,
      "",
      `p99 lag with a 1 s keep-alive is ${fmt(shortRow.p99 / longRow.p99, 2)}× that with 5 s (aim: at most 1.5×).`,
      "",
      `Each receiver is a Node server on loopback (\`keepAliveTimeout\` 1 s or 5 s) that answers 204 at once. The keep-alive receivers have ${ENDPOINTS} endpoints each and get one test event per endpoint per round, ${ROUNDS} rounds, with pauses of ${GAPS_MS.map((g) => g / 1000).join(", ")} s in turn between rounds, while the isolate stalls for ${BUSY_STALL_MS} ms every ${BUSY_EVERY_MS} ms (\`POST /__bench/stall\`, a synchronous busy-wait in the bench entry). The third receiver gets ${STALLED_EVENTS} events, one every ${STALLED_EVENT_EVERY_MS} ms, while the isolate stalls for ${LONG_STALL_MS / 1000} s every ${LONG_STALL_EVERY_MS / 1000} s, longer than the fast lane's 2 s cut-off. Requests received above events are sent twice. Lag is the receiver's clock minus the event's \`created_at\` at its first receipt and includes the local queue's batch wait (up to 1 s, \`max_batch_timeout\`) and the stalls themselves.`,
    ].join("\n");
  } finally {
    short.close();
    long.close();
    prompt.close();
  }
}
