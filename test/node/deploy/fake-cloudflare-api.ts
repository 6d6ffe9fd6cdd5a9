import { existsSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";

/**
 * The account as the API's reads see it, kept beside the fake wrangler's state: its plan
 * (`paid`, `free`, or `unreadable` for a login without Billing Read), its workers.dev
 * subdomain (null: never registered) and its zones.
 */
export interface ApiAccount {
  plan?: "paid" | "free" | "unreadable";
  subdomain?: string | null;
  zones?: string[];
}

const FAKE_TOKEN = "fake-oauth-token";

const envelope = (result: unknown) => ({ success: true, errors: [], messages: [], result });
const failure = (code: number, message: string) => ({
  success: false,
  errors: [{ code, message }],
  messages: [],
  result: null,
});

/**
 * The reads of the Cloudflare API the deploy's preflight makes, answered in the shapes of
 * the API reference (envelope `success`/`errors`/`result`; a missing subdomain is 10007 as
 * wrangler reads it; a token without Billing Read gets 403 with 10000), from
 * `<stateDir>/state.json` at each request, so a test changes the account between runs.
 */
export async function fakeCloudflareApi(
  stateDir: string,
): Promise<{ base: string; server: Server }> {
  const server = createServer((request, response) => {
    const send = (status: number, body: unknown) => {
      response.writeHead(status, { "content-type": "application/json" });
      response.end(JSON.stringify(body));
    };
    if (request.headers.authorization !== `Bearer ${FAKE_TOKEN}`)
      return send(401, failure(10000, "Authentication error"));
    const file = path.join(stateDir, "state.json");
    const state = (existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : {}) as ApiAccount & {
      accounts?: { id: string }[];
    };
    const accountId = state.accounts?.[0]?.id ?? "a1b2c3d4e5f60718293a4b5c6d7e8f90";
    const url = new URL(request.url ?? "/", "http://fake");
    const route = url.pathname.replace(/^\/client\/v4/, "");
    if (route === `/accounts/${accountId}/subscriptions`) {
      const plan = state.plan ?? "paid";
      if (plan === "unreadable") return send(403, failure(10000, "Authentication error"));
      const zonePlan = {
        id: "sub-zone",
        state: "Paid",
        rate_plan: { id: "free", public_name: "Free Website", scope: "zone" },
      };
      const workers = {
        id: "sub-workers",
        state: "Paid",
        rate_plan: { id: "workers_paid", public_name: "Workers Paid", scope: "account" },
      };
      return send(200, envelope(plan === "paid" ? [zonePlan, workers] : [zonePlan]));
    }
    if (route === `/accounts/${accountId}/workers/subdomain`) {
      const subdomain = state.subdomain === undefined ? "acme-sub" : state.subdomain;
      return subdomain === null
        ? send(404, failure(10007, "This subdomain does not exist."))
        : send(200, envelope({ subdomain }));
    }
    if (route === "/zones") {
      const name = url.searchParams.get("name");
      const zones = (state.zones ?? ["acme.test"]).filter((zone) => zone === name);
      return send(200, envelope(zones.map((zone) => ({ id: `zone-${zone}`, name: zone }))));
    }
    send(404, failure(7003, `No route for that URI: ${route}`));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { base: `http://127.0.0.1:${port}/client/v4`, server };
}
