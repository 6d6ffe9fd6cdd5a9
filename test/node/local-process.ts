import { type ChildProcess, spawn } from "node:child_process";
import { cpSync, existsSync, readdirSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { inject } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** The adapters the processes of this test run use: the node-production project sets them. */
export const ADAPTERS = process.env.ADAPTERS === "production" ? "production" : "local";

/** A free TCP port on the loopback interface. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address
          ? resolve(address.port)
          : reject(new Error("no port")),
      );
    });
  });
}

/** How long a start may take on a copy of the migrated state. */
const START_MS = 150_000;
/**
 * A first start on an empty state folder runs every migration, a runtime each; beside three
 * other node files starting theirs on 2 busy cores, that alone took over 150 s.
 */
export const FIRST_START_MS = 300_000;

function isEmpty(dir: string): boolean {
  return !existsSync(dir) || readdirSync(dir).length === 0;
}

/**
 * `npm run dev` as its own process group (npm, the start script, wrangler and workerd), so a
 * test can start it on a state folder, kill the whole group as a crash would, and start it
 * again on the same state.
 */
export class LocalProcess {
  private child: ChildProcess | null = null;
  output = "";

  /**
   * `env.STATE_DIR` names the state folder. An empty one starts as a copy of the project's
   * migrated state, so `npm run dev` finds no migration to apply; `emptyState` keeps it empty
   * for a test of the first start.
   */
  constructor(
    /** Where it listens; another free port when this one is taken before it binds. */
    public port: number,
    private readonly env: Record<string, string>,
    private readonly options: { emptyState?: boolean } = {},
  ) {}

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /**
   * Starts it and waits until it answers. A free port can be taken by another process between
   * `freePort` and the bind (test files start side by side): then it starts again on another.
   */
  async start(extra: Record<string, string> = {}): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.startOnce(extra);
      } catch (error) {
        // Refused by the start script's check, or by wrangler when it lost the race to bind.
        const taken =
          error instanceof Error &&
          /is in use; set PORT|Address already in use/.test(error.message);
        if (!taken || attempt >= 3) throw error;
        this.port = await freePort();
      }
    }
  }

  private async startOnce(extra: Record<string, string>): Promise<void> {
    const stateDir = this.env.STATE_DIR;
    const migrated = inject("migratedState");
    if (!this.options.emptyState && stateDir && migrated && isEmpty(stateDir))
      cpSync(migrated, stateDir, { recursive: true });
    // `output` keeps every start's words (tests read them all); an error quotes this one's.
    const from = this.output.length;
    const child = spawn("npm", ["run", "dev"], {
      cwd: ROOT,
      env: { ...process.env, ...this.env, ...extra, PORT: String(this.port) },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    this.child = child;
    child.stdout?.on("data", (chunk) => {
      this.output += chunk;
    });
    child.stderr?.on("data", (chunk) => {
      this.output += chunk;
    });
    const deadline = Date.now() + (this.options.emptyState ? FIRST_START_MS : START_MS);
    while (Date.now() < deadline) {
      if (child.exitCode !== null) {
        throw new Error(`npm run dev exited early:\n${this.output.slice(from)}`);
      }
      try {
        if ((await fetch(`${this.baseUrl}/healthz`)).ok) return;
      } catch {
        // Still starting.
      }
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    throw new Error(`npm run dev did not become ready:\n${this.output.slice(from)}`);
  }

  /** Ends the whole process group with `signal` and waits until the port is free again. */
  async stop(signal: NodeJS.Signals = "SIGKILL"): Promise<void> {
    const child = this.child;
    this.child = null;
    if (!child?.pid || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    try {
      process.kill(-child.pid, signal);
    } catch {
      // Already gone.
    }
    await exited;
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline) {
      try {
        await fetch(`${this.baseUrl}/healthz`);
      } catch {
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    throw new Error(`port ${this.port} still answers after the kill`);
  }
}
