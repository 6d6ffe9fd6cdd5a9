import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { setTomlKey } from "../../../scripts/lib/production-config.mjs";
import {
  account,
  changes,
  type DeployRun,
  deploy,
  R2_TOKEN,
  setAccount,
  type Workspace,
  workspace,
} from "./deploy-harness";

// `npm run deploy` checks the account before it creates anything: each missing prerequisite
// is one line naming the dashboard step, and a refused run leaves the account as it was.
const made: Workspace[] = [];
function fresh(state: Record<string, unknown> = {}): Workspace {
  const ws = workspace();
  made.push(ws);
  setAccount(ws, {
    accounts: [{ id: "a1b2c3d4e5f60718293a4b5c6d7e8f90", name: "Acme" }],
    d1: [],
    buckets: {},
    ...state,
  });
  return ws;
}

afterAll(() => {
  for (const ws of made) rmSync(ws.dir, { recursive: true, force: true });
});

const shown = (run: DeployRun) => `${run.stdout}\n${run.stderr}`;
const READS = new Set([
  "whoami",
  "auth token",
  "r2 bucket list",
  "vectorize list",
  "queues list",
  "ai models list",
]);
const commandOf = (argv: string[]) =>
  argv.filter((a, i) => !a.startsWith("-") && !argv[i - 1]?.startsWith("--")).join(" ");
const PLANS = "https://dash.cloudflare.com/a1b2c3d4e5f60718293a4b5c6d7e8f90/workers/plans";
const REFUSED = "deploy refused: nothing was created";
const SEVERAL_DEPLOYS = 300_000;

/** A refused run: exit 1, exactly these lines on stderr, nothing but reads, an untouched account. */
function expectRefused(ws: Workspace, run: DeployRun, lines: string[]) {
  expect(run.code, shown(run)).toBe(1);
  expect(run.stderr.trimEnd().split("\n")).toEqual([...lines, REFUSED]);
  expect(run.commands.map(commandOf).filter((c) => !READS.has(c))).toEqual([]);
  expect(changes(run.commands)).toEqual([]);
  const state = account(ws);
  expect([state.d1, state.buckets, state.queues, state.vectorize]).toEqual([[], {}, [], []]);
}

describe("npm run deploy's preflight", () => {
  it(
    "refuses a Free plan, an account without R2, and says each step",
    async () => {
      const free = fresh({ plan: "free" });
      expectRefused(free, await deploy(free, ["--domain", "api.acme.test"], R2_TOKEN), [
        `missing plan: the account is not on Workers Paid (its subscriptions: Free Website); the service needs Paid's limits: dashboard, Workers & Pages, Plans, Workers Paid (${PLANS})`,
      ]);

      const noR2 = fresh({ r2: false });
      expectRefused(noR2, await deploy(noR2, ["--domain", "api.acme.test"], R2_TOKEN), [
        "missing r2: R2 is not enabled on the account: dashboard, R2 Object Storage, Overview, add R2 to the account (a subscription whose free tier costs nothing)",
      ]);
    },
    SEVERAL_DEPLOYS,
  );

  it(
    "names every missing prerequisite at once, one line each",
    async () => {
      const ws = fresh({
        plan: "unreadable",
        subdomain: null,
        refuse: {
          "queues list":
            "A request to the Cloudflare API (/accounts/a1b2c3d4e5f60718293a4b5c6d7e8f90/queues) failed.\n\n  Queues are unavailable on the free plan. [code: 100129]",
        },
        catalog: ["@cf/openai/whisper-large-v3-turbo", "@cf/baai/bge-m3"],
      });
      expectRefused(ws, await deploy(ws, ["--workers-dev"], R2_TOKEN), [
        `missing plan: this login cannot read the account's plan (the subscriptions API needs Billing Read, which wrangler login does not grant): check that Workers & Pages, Plans shows Workers Paid (${PLANS}), then run again with --workers-paid`,
        `missing queues: wrangler queues list failed: Queues are unavailable on the free plan. [code: 100129]: dashboard, Workers & Pages, Plans, Workers Paid (${PLANS})`,
        "missing workers-ai: the account's Workers AI catalog lacks @cf/meta/llama-4-scout-17b-16e-instruct, @cf/meta/llama-3.3-70b-instruct-fp8-fast, which the service calls: choose another model in src/ports (docs/media-understanding.md)",
        "missing workers.dev: the account has no workers.dev subdomain: dashboard, Workers & Pages, register one (https://dash.cloudflare.com/a1b2c3d4e5f60718293a4b5c6d7e8f90/workers/onboarding), or choose --domain HOST",
      ]);

      const elsewhere = fresh();
      expectRefused(elsewhere, await deploy(elsewhere, ["--route", "api.other.test"]), [
        "missing zone: no zone of the account holds api.other.test: dashboard, Add a domain, or choose --workers-dev",
      ]);
    },
    SEVERAL_DEPLOYS,
  );

  it(
    "refuses a placeholder it would ship, before it runs anything",
    async () => {
      const ws = fresh();
      const toml = readFileSync(ws.config, "utf8");
      writeFileSync(
        ws.config,
        setTomlKey(toml, "[env.production.vars]", "SUPPORT_URL", "https://help.example.com/video"),
      );
      const run = await deploy(ws, ["--domain", "api.acme.test"], R2_TOKEN);
      expect(run.code, shown(run)).toBe(1);
      expect(run.stderr.trimEnd().split("\n")).toEqual([
        "missing value: [env.production] vars.SUPPORT_URL is the template's placeholder https://help.example.com/video: set it in wrangler.toml",
        REFUSED,
      ]);
      expect(run.commands).toEqual([]);
    },
    SEVERAL_DEPLOYS,
  );

  it(
    "proceeds when every prerequisite is there, checking all of them before the first create",
    async () => {
      const ws = fresh({ plan: "unreadable" });
      const run = await deploy(
        ws,
        ["--domain", "api.acme.test", "--skip-smoke", "--workers-paid"],
        R2_TOKEN,
      );
      expect(run.code, shown(run)).toBe(0);
      for (const line of [
        /^plan\s+Workers Paid \(--workers-paid\)$/m,
        /^r2\s+enabled$/m,
        /^vectorize\s+available$/m,
        /^queues\s+available$/m,
        /^workers-ai\s+@cf\/openai\/whisper-large-v3-turbo, @cf\/meta\/llama-4-scout-17b-16e-instruct, @cf\/meta\/llama-3\.3-70b-instruct-fp8-fast, @cf\/baai\/bge-m3$/m,
        /^zone\s+acme\.test holds api\.acme\.test$/m,
        /^media\s+no API reads the Media binding before a deploy: the smoke check's frames prove it$/m,
      ])
        expect(run.stdout).toMatch(line);
      const commands = run.commands.map(commandOf);
      const firstCreate = commands.findIndex((c) => /\b(create|set|bulk)\b|^deploy$/.test(c));
      expect(firstCreate, commands.join("\n")).toBeGreaterThan(0);
      for (const read of READS) expect(commands.indexOf(read)).toBeLessThan(firstCreate);
      expect(run.stdout.indexOf("media ")).toBeLessThan(run.stdout.indexOf("d1 "));
      expect(changes(run.commands)).toContain("d1 create video-analysis");
    },
    SEVERAL_DEPLOYS,
  );
});
