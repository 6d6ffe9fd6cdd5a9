// npm start: the whole service locally, plus a demo workspace and key (made once, kept in
// the state folder) printed with the base URL.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { adaptersBanner, healthOf, pagesBanner, understandingBanner } from "./lib/banner.mjs";
import { launchLocal, refuse, waitForReady } from "./lib/local.mjs";

const { config, child } = await launchLocal((config) => {
  if (!config.secrets.ADMIN_TOKEN)
    refuse("npm start needs an ADMIN_TOKEN (set it or keep .dev.vars)");
});
try {
  // The port was free a moment ago, so what answers now is this wrangler; it must also
  // still be running, or whatever answers is not ours.
  await waitForReady(config.baseUrl, child);
  if (child.exitCode !== null) throw new Error(`wrangler dev exited with ${child.exitCode}`);
} catch (error) {
  child.kill("SIGTERM");
  refuse(`the service did not start: ${error.message}`);
}

const demoFile = path.join(config.stateDir, "demo-key.json");

async function admin(method, route, body) {
  const res = await fetch(`${config.baseUrl}/admin/v1${route}`, {
    method,
    headers: {
      authorization: `Bearer ${config.secrets.ADMIN_TOKEN}`,
      "content-type": "application/json",
    },
    body: JSON.stringify(body),
  });
  if (!res.ok)
    throw new Error(`admin ${method} ${route} answered ${res.status}: ${await res.text()}`);
  return res.json();
}

async function stillWorks(key) {
  const res = await fetch(`${config.baseUrl}/api/v1alpha1/videos?limit=1`, {
    headers: { authorization: `Bearer ${key}` },
  });
  return res.status === 200;
}

let demo = existsSync(demoFile) ? JSON.parse(readFileSync(demoFile, "utf8")) : null;
if (!demo || !(await stillWorks(demo.key))) {
  const workspace = await admin("POST", "/workspaces", {
    name: "Demo workspace",
    alpha_opt_in: true,
  });
  const key = await admin("POST", "/keys", {
    workspace_id: workspace.id,
    type: "alpha",
    permissions: ["*"],
  });
  demo = { workspace_id: workspace.id, key_id: key.id, key: key.key };
  writeFileSync(demoFile, JSON.stringify(demo, null, 2), { mode: 0o600 });
}

const base = `${config.baseUrl}/api/v1alpha1`;
const health = await healthOf(config.baseUrl);
const pages = pagesBanner(config.baseUrl).join("\n");
const adapters = [...adaptersBanner(health, config.secrets), ...understandingBanner(health)].join(
  "\n",
);
console.log(`
Video Analysis Service is running.
  Base URL:   ${base}
${pages}
  Demo key:   ${demo.key}
  Workspace:  ${demo.workspace_id}
${adapters}

Try: curl -H "Authorization: Bearer ${demo.key}" ${base}/videos
`);
