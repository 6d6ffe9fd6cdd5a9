// The Worker's secrets as the deploy sets them: which, from where, and how they travel (a
// private temporary file for `wrangler secret bulk`, never a command line).
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { jsonOutput, WranglerError } from "./wrangler-cli.mjs";

/**
 * The secrets the deploy sets: exactly src/env.ts `DeployedSecrets` (deploy:check compares).
 * The first two are generated when the Worker lacks them, the R2 token's pair comes from
 * the operator's environment.
 */
export const DEPLOYED_SECRETS = [
  "ADMIN_TOKEN",
  "SIGNING_SECRET",
  "R2_ACCESS_KEY_ID",
  "R2_SECRET_ACCESS_KEY",
];
export const GENERATED_SECRETS = ["ADMIN_TOKEN", "SIGNING_SECRET"];

/**
 * What a deploy sets: generated secrets the Worker lacks or `rotate` names, and the
 * operator's R2 token pair (`env`) when the Worker lacks it or it is rotated. `needsR2Token`
 * says the pair is wanted; it is in `secrets` only when the environment has it.
 */
export function planSecrets(present, rotate, env) {
  const secrets = {};
  for (const name of GENERATED_SECRETS)
    if (!present.has(name) || rotate.has(name)) secrets[name] = generateSecret();
  const needsR2Token =
    !present.has("R2_ACCESS_KEY_ID") ||
    !present.has("R2_SECRET_ACCESS_KEY") ||
    rotate.has("R2_TOKEN");
  const { R2_ACCESS_KEY_ID, R2_SECRET_ACCESS_KEY } = env;
  if (needsR2Token && R2_ACCESS_KEY_ID && R2_SECRET_ACCESS_KEY)
    Object.assign(secrets, { R2_ACCESS_KEY_ID, R2_SECRET_ACCESS_KEY });
  return { secrets, needsR2Token };
}

/** The names of the secrets the production Worker has (none before its first upload). */
export async function workerSecrets(run) {
  try {
    const listed = jsonOutput((await run(["secret", "list", "--env", "production"])).stdout);
    return new Set(listed.map((s) => s.name));
  } catch (error) {
    if (error instanceof WranglerError && /not found/i.test(error.output)) return new Set();
    throw error;
  }
}

/** A fresh random secret value (48 hex characters). */
export const generateSecret = () => randomBytes(24).toString("hex");

/** Sets secrets in one `secret bulk` call through a private temporary file, never argv. */
export async function putSecrets(run, values) {
  const dir = mkdtempSync(path.join(tmpdir(), "vas-secrets-"));
  const file = path.join(dir, "secrets.json");
  try {
    writeFileSync(file, JSON.stringify(values), { mode: 0o600 });
    await run(["secret", "bulk", file, "--env", "production"]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
