// Runs wrangler as the deploy steps need it: captured, non-interactive, one account, and a
// failure as one line naming the command. `WRANGLER_BIN` replaces the project's wrangler
// (the deploy test's fake keeps a simulated account in a folder).
import { spawn } from "node:child_process";
import path from "node:path";
import { stripVTControlCharacters } from "node:util";
import { ROOT } from "./local.mjs";

const DEFAULT_BIN = path.join(ROOT, "node_modules", ".bin", "wrangler");

/** A wrangler command that exited non-zero; `output` is its stdout and stderr. */
export class WranglerError extends Error {
  constructor(args, code, output) {
    super(`wrangler ${args.join(" ")} exited with ${code}: ${saidLine(output)}`);
    this.name = "WranglerError";
    this.code = code;
    this.output = output;
  }
}

/**
 * The line of wrangler's output that says what went wrong: its first `[ERROR]` line, else the
 * last line that says something, without wrangler's decorations.
 */
export function saidLine(output) {
  const lines = output.split("\n").map((line) => stripVTControlCharacters(line).trim());
  const error = lines.find((line) => /^✘\s*\[ERROR\]/u.test(line));
  if (error) return error.replace(/^✘\s*\[ERROR\]\s*/u, "");
  const said = lines.filter(
    (line) => line !== "" && !/^[─🪵▲]/u.test(line) && !line.startsWith("If you think"),
  );
  return said.at(-1) ?? "(no output)";
}

/**
 * Makes `run(args)` for one account and configuration file: it resolves with stdout and
 * stderr, or rejects with a WranglerError. Nothing secret is ever an argument.
 */
export function wranglerRunner({
  config,
  accountId,
  bin = process.env.WRANGLER_BIN ?? DEFAULT_BIN,
}) {
  return (args, { env: extraEnv = {} } = {}) =>
    new Promise((resolve, reject) => {
      const child = spawn(bin, [...args, "--config", config], {
        cwd: path.dirname(config),
        stdio: ["ignore", "pipe", "pipe"],
        env: {
          ...process.env,
          ...(accountId ? { CLOUDFLARE_ACCOUNT_ID: accountId } : {}),
          // No prompts: confirmations take their non-interactive answer.
          CI: "true",
          WRANGLER_SEND_METRICS: "false",
          ...extraEnv,
        },
      });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (chunk) => {
        stdout += chunk;
      });
      child.stderr.on("data", (chunk) => {
        stderr += chunk;
      });
      child.once("error", reject);
      child.once("close", (code) => {
        if (code === 0) resolve({ stdout, stderr });
        else reject(new WranglerError(args, code, `${stdout}\n${stderr}`));
      });
    });
}

/** The JSON value a `--json` command printed (wrangler may print notices before it). */
export function jsonOutput(stdout) {
  const start = stdout.search(/^[[{]/m);
  if (start < 0) throw new Error(`expected JSON from wrangler, got: ${saidLine(stdout)}`);
  return JSON.parse(stdout.slice(start));
}
