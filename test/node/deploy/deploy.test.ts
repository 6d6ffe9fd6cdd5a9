import { readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  account,
  changes,
  type DeployRun,
  deploy,
  R2_TOKEN,
  recorded,
  type Workspace,
  workspace,
} from "./deploy-harness";
import { wranglerCommandProblems } from "./wrangler-commands";

// `npm run deploy` against a fake wrangler that keeps a simulated account: the first run
// creates everything, the second creates nothing and leaves the configuration byte for byte.
const made: Workspace[] = [];
function fresh(): Workspace {
  const ws = workspace();
  made.push(ws);
  return ws;
}

afterAll(() => {
  for (const ws of made) rmSync(ws.dir, { recursive: true, force: true });
});

const shown = (run: DeployRun) => `${run.stdout}\n${run.stderr}`;
// Each deploy starts node, wrangler's configuration reader and ~30 fake wrangler processes:
// seconds on a quiet machine, minutes on a busy one.
const SEVERAL_DEPLOYS = 480_000;

describe("npm run deploy", () => {
  it(
    "provisions every resource, records ids and deploys; run again, it changes nothing",
    async () => {
      const ws = fresh();
      const first = await deploy(ws, ["--domain", "api.acme.test", "--skip-smoke"], R2_TOKEN);
      expect(first.code, shown(first)).toBe(0);
      expect(changes(first.commands)).toEqual([
        "d1 create video-analysis",
        "r2 bucket create video-analysis-media",
        "r2 bucket lifecycle set video-analysis-media --file --force",
        "vectorize create video-segments --dimensions 1024 --metric cosine",
        "vectorize create-metadata-index video-segments --propertyName video_id --type string",
        ...[
          "video-processing",
          "media-windows",
          "media-frames",
          "search-indexing",
          "analysis-runs",
          "webhook-deliveries",
          "webhook-slow",
          "video-processing-dlq",
          "media-windows-dlq",
          "media-frames-dlq",
          "search-indexing-dlq",
          "analysis-runs-dlq",
        ].map((queue) => `queues create ${queue}`),
        "secret bulk --env production",
        "deploy --env production",
        "r2 bucket cors set video-analysis-media --file --force",
      ]);
      const migrate = first.commands.findIndex(
        (c) => c.slice(0, 3).join(" ") === "d1 migrations apply",
      );
      const ship = first.commands.findIndex((c) => c[0] === "deploy");
      expect(migrate, "migrations are applied before the code ships").toBeGreaterThan(-1);
      expect(migrate).toBeLessThan(ship);

      const state = account(ws);
      const toml = readFileSync(ws.config, "utf8");
      expect(toml).toContain(`database_id = "${state.d1[0]?.uuid}"`);
      expect(toml).toContain('account_id = "a1b2c3d4e5f60718293a4b5c6d7e8f90"');
      expect(toml).toContain('R2_ACCOUNT_ID = "a1b2c3d4e5f60718293a4b5c6d7e8f90"');
      expect(toml).toContain('routes = [{ pattern = "api.acme.test", custom_domain = true }]');
      expect(toml).not.toContain("replace-with-your");
      expect(JSON.parse(readFileSync(ws.cors, "utf8")).rules[0].allowed.origins).toEqual([
        "https://api.acme.test",
      ]);
      expect(state.buckets["video-analysis-media"]?.lifecycle.map((r) => r.id)).toEqual([
        "abort-incomplete-multipart-uploads",
        "expire-upload-staging",
        "expire-csv-imports",
      ]);
      expect(Object.keys(state.secrets ?? {}).sort()).toEqual([
        "ADMIN_TOKEN",
        "R2_ACCESS_KEY_ID",
        "R2_SECRET_ACCESS_KEY",
        "SIGNING_SECRET",
      ]);
      const vars = path.join(ws.dir, ".production.vars");
      expect(readFileSync(vars, "utf8")).toContain(`ADMIN_TOKEN=${state.secrets?.ADMIN_TOKEN}`);
      expect(statSync(vars).mode & 0o777).toBe(0o600);
      const everything = `${shown(first)}\n${JSON.stringify(recorded(ws))}`;
      for (const value of Object.values(state.secrets ?? {}))
        expect(everything, "a secret value reached the output or argv").not.toContain(value);

      const configBefore = readFileSync(ws.config);
      const corsBefore = readFileSync(ws.cors);
      const second = await deploy(ws, ["--skip-smoke"]);
      expect(second.code, shown(second)).toBe(0);
      expect(changes(second.commands)).toEqual(["deploy --env production"]);
      expect(second.stdout).toMatch(/^config\s+wrangler\.toml unchanged$/m);
      expect(second.stdout).toMatch(/^secrets\s+unchanged$/m);
      expect(second.stdout).toMatch(/^migrations\s+none pending$/m);
      expect(readFileSync(ws.config).equals(configBefore), "wrangler.toml changed").toBe(true);
      expect(readFileSync(ws.cors).equals(corsBefore), "deploy/r2-cors.json changed").toBe(true);
      expect(account(ws).secrets).toEqual(state.secrets);
    },
    SEVERAL_DEPLOYS,
  );

  it(
    "deploys to workers.dev, allowing its URL and other origins; rotates one secret",
    async () => {
      const ws = fresh();
      const run = await deploy(ws, ["--workers-dev", "--skip-smoke"], R2_TOKEN);
      expect(run.code, shown(run)).toBe(0);
      const url = "https://video-analysis-service-production.acme-sub.workers.dev";
      expect(run.stdout).toMatch(new RegExp(`^deploy\\s+${url}$`, "m"));
      const toml = readFileSync(ws.config, "utf8");
      expect(toml).toMatch(/^workers_dev = true$/m);
      expect(toml).toMatch(/^routes = \[\]$/m);
      expect(JSON.parse(readFileSync(ws.cors, "utf8")).rules[0].allowed.origins).toEqual([url]);
      const before = account(ws).secrets ?? {};
      const again = await deploy(ws, [
        "--skip-smoke",
        "--cors-origin",
        "https://app.acme.test",
        "--rotate-signing-secret",
      ]);
      expect(again.code, shown(again)).toBe(0);
      expect(changes(again.commands)).toEqual([
        "secret bulk --env production",
        "deploy --env production",
        "r2 bucket cors set video-analysis-media --file --force",
      ]);
      expect(JSON.parse(readFileSync(ws.cors, "utf8")).rules[0].allowed.origins).toEqual([
        url,
        "https://app.acme.test",
      ]);
      expect(again.stdout).toMatch(/^secrets\s+set SIGNING_SECRET$/m);
      const after = account(ws).secrets ?? {};
      expect(after.SIGNING_SECRET).not.toBe(before.SIGNING_SECRET);
      expect({ ...after, SIGNING_SECRET: "" }).toEqual({ ...before, SIGNING_SECRET: "" });
    },
    SEVERAL_DEPLOYS,
  );

  it(
    "refuses what it cannot decide, and stops for the R2 token once the bucket exists",
    async () => {
      const ws = fresh();
      const noReach = await deploy(ws, ["--skip-smoke"], R2_TOKEN);
      expect(noReach.code).toBe(2);
      expect(noReach.stderr.trim()).toBe(
        "choose where the API answers: --domain HOST, --route HOST or --workers-dev",
      );
      expect(noReach.commands).toEqual([]);

      // The R2 token is scoped to the bucket the first run creates: it provisions, then stops.
      const noToken = await deploy(ws, ["--domain", "api.acme.test", "--skip-smoke"]);
      expect(noToken.code).toBe(1);
      expect(noToken.stderr.trim().split("\n")).toEqual([
        'deploy failed: create an R2 API token for bucket video-analysis-media (docs/deploy.md, "The R2 token"), set R2_ACCESS_KEY_ID and R2_SECRET_ACCESS_KEY, and run npm run deploy again',
      ]);
      expect(changes(noToken.commands)).toContain("r2 bucket create video-analysis-media");
      expect(changes(noToken.commands).filter((c) => /^(secret|deploy)/.test(c))).toEqual([]);
      const resumed = await deploy(ws, ["--skip-smoke"], R2_TOKEN);
      expect(resumed.code, shown(resumed)).toBe(0);
      expect(changes(resumed.commands)).toEqual([
        "secret bulk --env production",
        "deploy --env production",
        "r2 bucket cors set video-analysis-media --file --force",
      ]);

      // A Worker deployed from elsewhere: its ADMIN_TOKEN is not in this checkout.
      const deployed = fresh();
      writeFileSync(
        path.join(deployed.state, "state.json"),
        JSON.stringify({
          accounts: [{ id: "a1b2c3d4e5f60718293a4b5c6d7e8f90", name: "Acme" }],
          d1: [],
          buckets: {},
          secrets: { ADMIN_TOKEN: "a", SIGNING_SECRET: "b", ...R2_TOKEN },
          vectorize: [
            { name: "video-segments", config: { dimensions: 768, metric: "cosine" }, metadata: [] },
          ],
        }),
      );
      const noAdmin = await deploy(deployed, ["--domain", "api.acme.test"]);
      expect(noAdmin.code).toBe(1);
      expect(noAdmin.stderr.trim()).toBe(
        "deploy failed: the smoke check needs the Worker's ADMIN_TOKEN: set ADMIN_TOKEN, --rotate-admin-token or --skip-smoke",
      );
      expect(changes(noAdmin.commands)).toEqual([]);

      // Its Vectorize index was made for another embedder: dimensions cannot change.
      const mismatched = await deploy(deployed, ["--domain", "api.acme.test"], {
        ADMIN_TOKEN: "a",
      });
      expect(mismatched.code).toBe(1);
      expect(mismatched.stderr).toMatch(
        /^deploy failed: Vectorize index video-segments has 768 dimensions and cosine; the embedder needs 1024 and cosine/,
      );
      expect(changes(mismatched.commands)).not.toContain("deploy --env production");
    },
    SEVERAL_DEPLOYS,
  );

  it("uses only commands and flags wrangler 4.155 has", async () => {
    const all = made.flatMap((ws) => recorded(ws));
    expect(all.length).toBeGreaterThan(40);
    expect(await wranglerCommandProblems(all)).toEqual([]);
  });
});
