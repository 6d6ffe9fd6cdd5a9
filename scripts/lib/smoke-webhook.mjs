// The smoke check's webhook receiver: an HTTP listener on loopback that keeps what arrives.
// "local" registers the listener's own http://127.0.0.1 URL (a local service allows loopback
// endpoints: with ADAPTERS=production only when started with WEBHOOK_ALLOW_LOOPBACK_HTTP=true);
// a public https URL is registered as given and must forward to the listener
// (a tunnel to --webhook-listen PORT), since a deployment delivers to public addresses only.
import { createServer } from "node:http";
import { Webhook } from "standardwebhooks";

/** Starts the listener; answers its endpoint URL, what it received and `close()`. */
export async function startReceiver({ receiver, listenPort }) {
  const hits = [];
  const server = createServer((req, res) => {
    const chunks = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", () => {
      hits.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(204).end();
    });
  });
  const port = receiver === "local" ? 0 : listenPort;
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", resolve);
  });
  const url = receiver === "local" ? `http://127.0.0.1:${server.address().port}/smoke` : receiver;
  return { url, hits, close: () => new Promise((resolve) => server.close(resolve)) };
}

/** Registers the receiver for run.completed. */
export async function registerWebhook(ctx) {
  const endpoint = await ctx.api(
    "POST",
    "/webhooks",
    { url: ctx.receiver.url, event_types: ["run.completed"], description: "npm run smoke" },
    [201],
  );
  ctx.webhook = { id: endpoint.id, secret: endpoint.secret };
  return `${endpoint.id} registered for run.completed`;
}

/** Waits for the run's run.completed delivery and verifies it with the reference package. */
export async function verifyWebhook(ctx) {
  const verifier = new Webhook(ctx.webhook.secret);
  const deadline = Date.now() + ctx.timeoutMs;
  let rejected = "";
  for (;;) {
    for (const hit of ctx.receiver.hits.splice(0)) {
      try {
        const event = verifier.verify(hit.body, hit.headers);
        if (event.type === "run.completed" && event.data?.run?.id === ctx.runId)
          return `run.completed ${event.id} verified (Standard Webhooks)`;
      } catch (error) {
        rejected = error.message;
      }
    }
    if (Date.now() > deadline)
      throw new Error(
        `no verified run.completed for ${ctx.runId} in ${ctx.timeoutMs / 1000} s${rejected ? ` (a delivery failed verification: ${rejected})` : ""}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** Deletes the endpoint so no later event is sent to a receiver that is gone. */
export async function removeWebhook(ctx) {
  if (ctx.webhook) await ctx.api("DELETE", `/webhooks/${ctx.webhook.id}`, undefined, [204, 404]);
}
