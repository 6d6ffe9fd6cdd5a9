import { createServer, type Server } from "node:http";
import type { Socket } from "node:net";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  interface ProvidedContext {
    /** Base URL of the loopback webhook receivers (`http://127.0.0.1:<port>`). */
    webhookReceivers: string;
  }
}

interface Log {
  /** `webhook-id` of every request, in arrival order. */
  requests: string[];
  /** Connections this receiver closed for being idle. */
  idleClosed: number;
}

/**
 * The receivers: `POST /<name>` records the request's `webhook-id` and answers 204 at once,
 * or after `?delay=<ms>`. `?idle=<ms>` closes the connection once it has been idle that long after an answer (what
 * a server's keep-alive timeout does); `?drop=<ms>` takes the request and closes the
 * connection after that long without answering. `GET /<name>` answers the receiver's log.
 */
function receivers(): Server {
  const logs = new Map<string, Log>();
  const idleTimers = new WeakMap<Socket, ReturnType<typeof setTimeout>>();
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://receiver");
    const log = logs.get(url.pathname) ?? { requests: [], idleClosed: 0 };
    logs.set(url.pathname, log);
    clearTimeout(idleTimers.get(req.socket));
    if (req.method === "GET") {
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(log));
      return;
    }
    req.resume();
    req.on("end", () => {
      log.requests.push(String(req.headers["webhook-id"] ?? ""));
      const drop = url.searchParams.get("drop");
      if (drop !== null) {
        setTimeout(() => req.socket.destroy(), Number(drop));
        return;
      }
      const idle = url.searchParams.get("idle");
      const answer = () =>
        res.writeHead(204).end(() => {
          if (idle === null) return;
          const socket = req.socket;
          idleTimers.set(
            socket,
            setTimeout(() => {
              log.idleClosed++;
              socket.destroy();
            }, Number(idle)),
          );
        });
      setTimeout(answer, Number(url.searchParams.get("delay") ?? 0));
    });
  });
  // Idle connections close only when a receiver asks for it (`?idle`), never on Node's timer.
  server.keepAliveTimeout = 600_000;
  return server;
}

/**
 * Global setup of the workers project: webhook receivers on loopback, reached through the
 * runtime's own fetch (its connection pool, keep-alive and event loop), which a scripted
 * transport cannot stand in for.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = receivers();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no receiver port");
  project.provide("webhookReceivers", `http://127.0.0.1:${address.port}`);
  return async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
}
