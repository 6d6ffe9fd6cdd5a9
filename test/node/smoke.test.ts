import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminClient, apiClient, newTenant, runNode } from "./local-client";
import { freePort, LocalProcess } from "./local-process";

// `npm run smoke` against the real local process, as an operator runs it against a deployment:
// with the production adapters over the simulators it passes, and fails naming the part when a
// simulated service is broken; with the local adapters, which hear and see nothing, it fails.
// And the deploy's own smoke step, which mints its key.
const ADMIN_TOKEN = "smoke-admin-token-0123456789";

const node = (args: string[], env: Record<string, string> = {}) =>
  runNode(args, { env, timeout: 170_000 });

/** A workspace and a key holding every permission, through the admin API. */
async function mintKey(service: LocalProcess): Promise<string> {
  return (await newTenant(adminClient(service, ADMIN_TOKEN), "Smoke")).key;
}

const smoke = (service: LocalProcess, key: string, extra: string[] = []) =>
  node([
    "scripts/smoke.mjs",
    "--base-url",
    service.baseUrl,
    "--key",
    key,
    "--timeout",
    "60",
    ...extra,
  ]);

/** Each line's step and verdict: `heard ok`, `seen FAILED`. */
const verdicts = (stdout: string) =>
  stdout
    .trimEnd()
    .split("\n")
    .map((line) => line.split(/\s+/).slice(0, 2).join(" "));

async function startIn(adapters: string): Promise<{ service: LocalProcess; stateDir: string }> {
  const stateDir = mkdtempSync(path.join(tmpdir(), "vas-smoke-"));
  const service = new LocalProcess(await freePort(), {
    STATE_DIR: stateDir,
    ADMIN_TOKEN,
    ADAPTERS: adapters,
    // `--webhook-receiver local` registers a loopback URL, which production's policy refuses.
    WEBHOOK_ALLOW_LOOPBACK_HTTP: "true",
  });
  await service.start();
  return { service, stateDir };
}

// The production adapters over the simulators, as a deployment runs them: one process, started
// again with each simulated service broken in turn, its tests one after the other. The local
// adapters' process runs beside it.
describe.concurrent("npm run smoke", () => {
  describe("production adapters over the simulators", () => {
    let service: LocalProcess;
    let stateDir: string;
    let key: string;

    beforeAll(async () => {
      ({ service, stateDir } = await startIn("production"));
      key = await mintKey(service);
    });

    afterAll(async () => {
      await service?.stop("SIGTERM");
      if (stateDir) rmSync(stateDir, { recursive: true, force: true });
    });

    it.sequential("proves the clip heard, seen, found by a spoken word and answered from speech, one line a step", async () => {
      const ran = await smoke(service, key, ["--webhook-receiver", "local"]);
      const output = `${ran.stdout}${ran.stderr}`;
      expect(ran.code, output).toBe(0);
      expect(verdicts(ran.stdout)).toEqual([
        "health ok",
        "webhook ok",
        "upload ok",
        "indexed ok",
        "heard ok",
        "seen ok",
        "search ok",
        "run ok",
        "answer ok",
        "report ok",
        "webhook ok",
      ]);
      const lines = ran.stdout.trimEnd().split("\n");
      expect(lines[0]).toContain('{"status":"ok","adapters":"production"');
      expect(lines[4]).toMatch(/^heard\s+ok\s+12 s of 12 s from whisper$/);
      expect(lines[5]).toMatch(/^seen\s+ok\s+12 s of 12 s through described frames$/);
      expect(lines[6]).toMatch(
        /"forklift" found vid_\w+ at 1 s in its speech: "The forklift is parked/,
      );
      expect(lines[8]).toMatch(
        /found \(true\), citing speech at 6–8\.58 s: "Every visitor wears a yellow helmet\."/,
      );
      expect(lines[10]).toMatch(/^webhook\s+ok\s+run\.completed evt_\w+ verified/);
      expect(output).not.toContain(key);
      expect(output).not.toMatch(/X-Amz-|\/storage\//);
      // The smoke check leaves no endpoint behind to send later events to.
      const hooks = await apiClient(service, key).fetch("GET", "/webhooks");
      expect((await hooks.json()).data).toEqual([]);
    });

    it.sequential("stops at the first failure of the plumbing with a non-zero exit and a line naming it", async () => {
      const ran = await node(["scripts/smoke.mjs", "--base-url", service.baseUrl], {
        VAS_API_KEY: "vas_not_a_key",
      });
      expect(ran.code).toBe(1);
      const lines = ran.stdout.trimEnd().split("\n");
      expect(lines).toHaveLength(2);
      expect(lines[1]).toMatch(/^upload\s+FAILED\s+POST \/videos answered 401: /);
      expect(ran.stdout).not.toContain("vas_not_a_key");
    });

    it.sequential("runs as the deploy's last step with a key it mints and then revokes", async () => {
      const script = [
        'import { deploySmoke } from "./scripts/lib/deploy-smoke.mjs";',
        "const [baseUrl, adminToken] = process.argv.slice(1);",
        "process.exit((await deploySmoke({ baseUrl, adminToken })) ? 0 : 3);",
      ].join("\n");
      const ran = await node(
        ["--input-type=module", "-e", script, service.baseUrl, ADMIN_TOKEN],
        {},
      );
      expect(ran.code, `${ran.stdout}${ran.stderr}`).toBe(0);
      expect(ran.stdout).toMatch(/^answer\s+ok/m);
      expect(ran.stdout).toMatch(/^report\s+ok/m);
      const workspaces = await adminClient(service, ADMIN_TOKEN).get("/workspaces?limit=100");
      const smokeSpaces = workspaces.data.filter(
        (w: { name: string }) => w.name === "Smoke checks",
      );
      expect(smokeSpaces).toHaveLength(1);
      const keys = await adminClient(service, ADMIN_TOKEN).get(
        `/keys?workspace_id=${smokeSpaces[0].id}`,
      );
      expect(keys.data).toHaveLength(1);
      expect(keys.data[0].revoked_at).toEqual(expect.any(String));
    });

    // What breaks, the lines that fail, and what the failed line must name.
    const broken = [
      {
        part: "speech",
        failed: ["heard FAILED", "search FAILED", "answer FAILED"],
        names:
          /^heard\s+FAILED\s+0 s of 12 s\. Heard nothing.*speech-recognition-failed, speech-recognition-refused:aac; from Whisper\)$/m,
      },
      {
        part: "vision",
        failed: ["seen FAILED"],
        names:
          /^seen\s+FAILED\s+0 s of 12 s\. Saw nothing.*vision-failed; from the vision model\)$/m,
      },
      {
        part: "media",
        failed: ["seen FAILED"],
        names:
          /^seen\s+FAILED\s+0 s of 12 s\. Saw nothing.*frame-extraction-refused:avc.*; from Media Transformations\)$/m,
      },
    ];
    for (const { part, failed, names } of broken) {
      it.sequential(`exits non-zero naming what is broken with SIMULATE_BROKEN=${part}, and goes on to the end`, async () => {
        await service.stop("SIGTERM");
        await service.start({ SIMULATE_BROKEN: part });
        const ran = await smoke(service, key);
        expect(ran.code, ran.stdout).toBe(1);
        expect(ran.stdout).toMatch(names);
        const steps = verdicts(ran.stdout);
        expect(steps.filter((s) => s.endsWith("FAILED"))).toEqual(failed);
        expect(steps.at(-1)).toBe("report ok");
      });
    }
  });

  describe("local adapters", () => {
    let service: LocalProcess;
    let stateDir: string;

    beforeAll(async () => {
      ({ service, stateDir } = await startIn("local"));
    });

    afterAll(async () => {
      await service?.stop("SIGTERM");
      if (stateDir) rmSync(stateDir, { recursive: true, force: true });
    });

    it("fails, naming that the local engine neither hears speech nor describes pictures", async () => {
      const ran = await smoke(service, await mintKey(service));
      expect(ran.code, ran.stdout).toBe(1);
      expect(verdicts(ran.stdout)).toEqual([
        "health ok",
        "upload ok",
        "indexed ok",
        "heard FAILED",
        "seen FAILED",
        "search FAILED",
        "run ok",
        "answer FAILED",
        "report ok",
      ]);
      expect(ran.stdout).toMatch(
        /^heard\s+FAILED\s+0 s of 12 s\. Speech present for [\d.]+ s \(at .+\), not transcribed locally\./m,
      );
      expect(ran.stdout).toMatch(
        /^seen\s+FAILED\s+Saw 12 s of 12 s through frames read for on-screen text \(pictures are not described\)/m,
      );
      expect(ran.stdout).toMatch(/^answer\s+FAILED\s+.*not_checked \(speech_not_transcribed\)/m);
    });
  });
});
