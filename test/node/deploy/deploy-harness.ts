import { execFile } from "node:child_process";
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fakeCloudflareApi } from "./fake-cloudflare-api";

export const ROOT = path.resolve(import.meta.dirname, "../../..");
const FAKE = path.join(import.meta.dirname, "fake-wrangler.mjs");

/** The R2 token pair an operator exports before the first deploy. */
export const R2_TOKEN = {
  R2_ACCESS_KEY_ID: "r2-access-key-id-for-the-test",
  R2_SECRET_ACCESS_KEY: "r2-secret-access-key-for-the-test-0123456789",
};

/** A copy of the committed production configuration and the fake account it deploys to. */
export interface Workspace {
  dir: string;
  config: string;
  cors: string;
  state: string;
}

/** Copies wrangler.toml and deploy/ into a temporary folder, with an empty fake account. */
export function workspace(): Workspace {
  const dir = mkdtempSync(path.join(tmpdir(), "vas-deploy-"));
  mkdirSync(path.join(dir, "deploy"));
  for (const file of ["wrangler.toml", "deploy/r2-cors.json", "deploy/r2-lifecycle.json"])
    copyFileSync(path.join(ROOT, file), path.join(dir, file));
  const state = path.join(dir, "account");
  mkdirSync(state);
  chmodSync(FAKE, 0o755);
  return {
    dir,
    config: path.join(dir, "wrangler.toml"),
    cors: path.join(dir, "deploy/r2-cors.json"),
    state,
  };
}

/** What one `node scripts/deploy.mjs` run printed, how it exited, and the commands it ran. */
export interface DeployRun {
  code: number;
  stdout: string;
  stderr: string;
  commands: string[][];
}

/** The commands the fake recorded so far. */
export function recorded(ws: Workspace): string[][] {
  try {
    return readFileSync(path.join(ws.state, "commands.jsonl"), "utf8")
      .trim()
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as string[]);
  } catch {
    return [];
  }
}

/**
 * Runs the deploy script against the workspace's fake account (wrangler and the API reads it
 * makes beside wrangler); resolves whatever the exit.
 */
export async function deploy(
  ws: Workspace,
  args: string[],
  env: Record<string, string> = {},
): Promise<DeployRun> {
  const before = recorded(ws).length;
  const {
    R2_ACCESS_KEY_ID: _id,
    R2_SECRET_ACCESS_KEY: _secret,
    ADMIN_TOKEN: _admin,
    ...base
  } = process.env;
  const api = await fakeCloudflareApi(ws.state);
  try {
    return await new Promise((resolve) => {
      execFile(
        process.execPath,
        ["scripts/deploy.mjs", "--config", ws.config, ...args],
        {
          cwd: ROOT,
          env: {
            ...base,
            WRANGLER_BIN: FAKE,
            FAKE_WRANGLER_DIR: ws.state,
            CLOUDFLARE_API_BASE_URL: api.base,
            ...env,
          },
        },
        (error, stdout, stderr) =>
          resolve({
            code: error ? Number(error.code ?? 1) : 0,
            stdout,
            stderr,
            commands: recorded(ws).slice(before),
          }),
      );
    });
  } finally {
    api.server.close();
  }
}

/** Writes the fake account's state before a run (what a new or odd account looks like). */
export function setAccount(ws: Workspace, state: Record<string, unknown>): void {
  writeFileSync(path.join(ws.state, "state.json"), JSON.stringify(state));
}

/** The commands that create or change something in the account. */
export function changes(commands: string[][]): string[] {
  return commands
    .map((argv) => argv.filter((a) => !a.startsWith("/") && a !== "--config").join(" "))
    .filter((line) => /\b(create|create-metadata-index|set|bulk|deploy)\b/.test(line))
    .filter((line) => !/^d1 migrations apply/.test(line));
}

/** The fake account's state. */
export function account(ws: Workspace) {
  return JSON.parse(readFileSync(path.join(ws.state, "state.json"), "utf8")) as {
    d1: { uuid: string; name: string }[];
    secrets: Record<string, string> | null;
    buckets: Record<string, { cors: unknown[]; lifecycle: { id: string }[] }>;
    vectorize: { name: string; config: { dimensions: number; metric: string } }[];
    queues: string[];
  };
}
