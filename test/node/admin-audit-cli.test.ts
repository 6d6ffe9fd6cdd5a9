import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminCli } from "./local-client";
import { freePort, LocalProcess } from "./local-process";

// The operator reads a workspace's audit trail with the admin CLI, over the real local process.
const ADMIN_TOKEN = "audit-cli-admin-token";
let service: LocalProcess;
let stateDir: string;

const admin = (args: string[]) => adminCli(service, ADMIN_TOKEN)(args);

async function adminJson<T>(args: string[]): Promise<T> {
  return JSON.parse((await admin(args)).stdout) as T;
}

beforeAll(async () => {
  stateDir = mkdtempSync(path.join(tmpdir(), "vas-audit-cli-"));
  service = new LocalProcess(await freePort(), { STATE_DIR: stateDir, ADMIN_TOKEN });
  await service.start();
}, 180_000);

afterAll(async () => {
  await service.stop("SIGTERM");
  rmSync(stateDir, { recursive: true, force: true });
});

describe("npm run admin -- audit", () => {
  it("prints a workspace's trail newest first, filtered by action, as a table or JSON", async () => {
    const workspace = await adminJson<{ id: string }>(["workspaces", "create", "--name", "Audit"]);
    const key = await adminJson<{ id: string; key: string }>([
      "keys",
      "create",
      "--workspace",
      workspace.id,
    ]);
    await admin(["keys", "revoke", key.id]);
    await admin(["workspaces", "update", workspace.id, "--retention-days", "30"]);

    const entries = await adminJson<{ action: string; actor: string; request_id: string }[]>([
      "audit",
      workspace.id,
      "--json",
    ]);
    expect(entries.map((entry) => entry.action)).toEqual([
      "workspace.retention_changed",
      "api_key.revoked",
      "api_key.created",
      "workspace.created",
    ]);
    for (const entry of entries) {
      expect(entry.actor).toBe("admin");
      expect(entry.request_id).toEqual(expect.any(String));
    }
    expect(JSON.stringify(entries)).not.toContain(key.key);

    const lines = (
      await admin(["audit", workspace.id, "--action", "workspace.retention_changed"])
    ).stdout
      .trimEnd()
      .split("\n");
    expect(lines[0]).toMatch(/^TIME\s+ACTION\s+ACTOR\s+TARGET\s+REQUEST\s+CHANGES$/);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(
      new RegExp(
        `workspace\\.retention_changed\\s+admin\\s+${workspace.id}\\s+\\S+\\s+retention_days: null → 30$`,
      ),
    );
    const newest = await adminJson<unknown[]>(["audit", workspace.id, "--limit", "1", "--json"]);
    expect(newest).toHaveLength(1);
  });

  it("says in one line what is wrong with an unknown action", async () => {
    const workspace = await adminJson<{ id: string }>(["workspaces", "create", "--name", "Bad"]);
    const failure = await admin(["audit", workspace.id, "--action", "key.stolen"]).then(
      () => null,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failure?.code).toBe(1);
    expect(failure?.stderr).toMatch(/failed with 400: .*action: /);
    expect(failure?.stderr.trimEnd().split("\n")).toHaveLength(1);
  });
});
