import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { freePort, LocalProcess } from "./local-process";

describe("the tests' local process", () => {
  it("starts on another free port when its port is taken before it binds", async () => {
    const taken = await freePort();
    const sockets = new Set<Socket>();
    // Not ours: a plain TCP server that hangs up on whoever connects.
    const server = createServer((socket) => {
      sockets.add(socket);
      socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(taken, "0.0.0.0", resolve));
    const stateDir = mkdtempSync(path.join(tmpdir(), "vas-port-moved-"));
    const service = new LocalProcess(taken, { STATE_DIR: stateDir, ADMIN_TOKEN: "port-moved" });
    try {
      await service.start();
      expect(service.port).not.toBe(taken);
      expect((await fetch(`${service.baseUrl}/healthz`)).status).toBe(200);
    } finally {
      await service.stop("SIGTERM");
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
      rmSync(stateDir, { recursive: true, force: true });
    }
  }, 120_000);
});
