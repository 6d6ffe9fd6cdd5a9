// Starts the screen reader (screen-reader/server.mjs) next to `wrangler dev` for the local
// adapters: the Node process that decodes frames and reads their on-screen text, which the
// Worker calls over loopback with a secret made for this start.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const SERVER = path.join(ROOT, "screen-reader", "server.mjs");
/** Loading the OCR models takes seconds on an idle machine; a busy one gets more. */
const START_TIMEOUT_MS = 90_000;

/**
 * Starts the screen reader and resolves once it serves: `{ child, url, secret, pid, speech }`
 * (`speech` the speech detector's name, or null with `speechNotice` saying why), or
 * `{ notice }`, one line saying why on-screen text will not be read (`SCREEN_READER=off`, or
 * native parts that do not load here). It never throws: without it the service runs as
 * before, reading only caption tracks and tags.
 */
export function startScreenReader(env = process.env) {
  if (env.SCREEN_READER === "off")
    return Promise.resolve({ notice: "On-screen text is not read: SCREEN_READER=off." });
  const secret = randomBytes(24).toString("hex");
  const child = spawn(process.execPath, [SERVER], {
    cwd: ROOT,
    env: {
      ...env,
      SCREEN_READER_SECRET: secret,
      SCREEN_READER_PORT: env.SCREEN_READER_PORT ?? "0",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  return new Promise((resolve) => {
    let settled = false;
    let stderr = "";
    let serving = false;
    const settle = (value) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(value);
    };
    const notice = (why) => {
      child.kill("SIGKILL");
      settle({ notice: `On-screen text is not read: the screen reader did not start (${why}).` });
    };
    const timer = setTimeout(() => notice("it took too long to load"), START_TIMEOUT_MS);
    child.stderr.on("data", (chunk) => {
      if (serving) process.stderr.write(chunk);
      else if (stderr.length < 4000) stderr += chunk;
    });
    child.once("error", (error) => notice(error.message));
    child.once("exit", (code) =>
      notice(stderr.trim().split("\n").at(-1) || `it exited with ${code}`),
    );
    createInterface({ input: child.stdout }).on("line", (line) => {
      const ready = line.match(/^SCREEN_READER_READY (.*)$/);
      const failed = line.match(/^SCREEN_READER_FAILED (.*)$/);
      if (failed) return notice(failed[1]);
      if (!ready) return process.stdout.write(`${line}\n`);
      const { port, speech, speech_notice, transcribes } = JSON.parse(ready[1]);
      child.removeAllListeners("exit");
      serving = true;
      const url = `http://127.0.0.1:${port}`;
      const started = {
        child,
        url,
        secret,
        pid: child.pid,
        speech: speech ?? null,
        transcribes: transcribes === true,
      };
      if (!speech) started.speechNotice = `Speech is not found locally: ${speech_notice}.`;
      settle(started);
    });
  });
}

/** Posts `bytes` to a started reader's `route` with its secret; the response, unread. */
export function postToReader(reader, route, bytes) {
  return fetch(new URL(route, reader.url), {
    method: "POST",
    headers: {
      authorization: `Bearer ${reader.secret}`,
      "content-type": "application/octet-stream",
    },
    body: bytes,
  });
}
