// `npm run admin -- webhooks listen`: a local receiver, like `stripe listen`. It makes a
// short-lived key for the workspace, registers a loopback endpoint, verifies every delivery's
// Standard Webhooks signature with node:crypto and prints one line per event; Ctrl-C removes
// the endpoint and revokes the key.
import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer } from "node:http";

/** Whether a delivery carries a valid signature by `secret`, within 5 minutes. */
export function verifyDelivery(secret, headers, raw) {
  const id = headers["webhook-id"];
  const timestamp = headers["webhook-timestamp"];
  if (!id || !timestamp || Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return false;
  const key = Buffer.from(secret.slice("whsec_".length), "base64");
  const mac = createHmac("sha256", key).update(`${id}.${timestamp}.${raw}`).digest();
  return (headers["webhook-signature"] ?? "").split(" ").some((signature) => {
    const given = Buffer.from(signature.slice(3), "base64");
    return (
      signature.startsWith("v1,") && given.length === mac.length && timingSafeEqual(given, mac)
    );
  });
}

/** Runs the listener until SIGINT or SIGTERM; `admin` calls the admin API, `fail` exits. */
export async function listen({ baseUrl, admin, workspace, events, fail }) {
  const key = await admin("POST", "/keys", {
    workspace_id: workspace,
    type: "alpha",
    permissions: ["MANAGE_WEBHOOKS"],
  });
  const api = async (method, route, body) => {
    const res = await fetch(`${baseUrl}/api/v1alpha1${route}`, {
      method,
      headers: { authorization: `Bearer ${key.key}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    // A service keeping production's webhook URL policy refuses this loopback receiver.
    const hint = /loopback/.test(text)
      ? " (start the service with WEBHOOK_ALLOW_LOOPBACK_HTTP=true to deliver to this machine)"
      : "";
    if (!res.ok) fail(`${method} ${route} failed with ${res.status}: ${text.slice(0, 200)}${hint}`);
    return text === "" ? null : JSON.parse(text);
  };
  let secret = "";
  const server = createServer((req, res) => {
    const chunks = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      const valid = verifyDelivery(secret, req.headers, raw);
      let line = "unreadable body";
      try {
        const event = JSON.parse(raw);
        line = `${event.created_at}  ${event.type}  ${event.id}`;
      } catch {}
      process.stdout.write(`${line}  ${valid ? "signature ok" : "SIGNATURE INVALID"}\n`);
      res.writeHead(valid ? 204 : 400).end();
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${server.address().port}/`;
  const endpoint = await api("POST", "/webhooks", {
    url,
    event_types: events,
    description: "npm run admin -- webhooks listen",
  });
  secret = endpoint.secret;
  process.stdout.write(`listening on ${url} as ${endpoint.id} for ${events.join(",")}\n`);
  const stop = async () => {
    server.close();
    await api("DELETE", `/webhooks/${endpoint.id}`);
    await admin("DELETE", `/keys/${key.id}`);
    process.stdout.write(`removed ${endpoint.id}\n`);
    process.exit(0);
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  await new Promise(() => {});
}
