import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** `npm test`'s runner over the fixture project, whose one file stops Vitest the first time. */
function runWatched(env: Record<string, string> = {}) {
  const marker = path.join(mkdtempSync(path.join(tmpdir(), "watchdog-")), "runs");
  const run = spawnSync(
    "node",
    ["scripts/test.mjs", "--config", "test/fixtures/watchdog/vitest.config.mjs"],
    {
      cwd: ROOT,
      encoding: "utf8",
      timeout: 90_000,
      env: { ...process.env, WATCHDOG_MARKER: marker, VAS_TEST_STALL_IDLE_SECONDS: "6", ...env },
    },
  );
  const runs = readFileSync(marker, "utf8").trim().split("\n");
  return { status: run.status, stderr: run.stderr, runs };
}

describe("npm test's watchdog over a Vitest run that stops", () => {
  it("stops the run and runs only the unfinished file again: green when it passes", () => {
    const { status, stderr, runs } = runWatched();
    expect(stderr).toContain("Vitest made no progress");
    expect(stderr).toContain(
      "running the 1 unfinished file(s) again: test/fixtures/watchdog/stops-once.test.mjs",
    );
    expect(runs.filter((r) => r === "stops-once")).toHaveLength(2);
    expect(runs.filter((r) => r === "counted")).toHaveLength(1);
    expect(status).toBe(0);
  }, 90_000);

  it("keeps a failure from before the stall: red, and the failed file is not run again", () => {
    const { status, stderr, runs } = runWatched({ WATCHDOG_FAIL: "1" });
    expect(stderr).toContain("1 of 2 files had finished (1 failed)");
    expect(runs.filter((r) => r === "counted")).toHaveLength(1);
    expect(status).toBe(1);
  }, 90_000);

  it("stops a run that stays open after every file finished, with the files' result", () => {
    const linger = { WATCHDOG_LINGER: "1", VAS_TEST_FINISHED_SECONDS: "3" };
    const green = runWatched({ ...linger, VAS_TEST_STALL_IDLE_SECONDS: "600" });
    expect(green.stderr).toContain("every file had finished");
    expect(green.stderr).not.toContain("running the");
    expect(green.runs).toEqual(["counted"]);
    expect(green.status).toBe(0);
    const red = runWatched({ ...linger, VAS_TEST_STALL_IDLE_SECONDS: "600", WATCHDOG_FAIL: "1" });
    expect(red.stderr).toContain("every file had finished");
    expect(red.status).toBe(1);
  }, 90_000);

  it("runs again a file that failed before collecting a test, when no other file failed", () => {
    const once = runWatched({ WATCHDOG_UNLOADED: "once" });
    expect(once.stderr).toContain(
      "1 file(s) failed before collecting a test, and no other file failed; running them again: " +
        "test/fixtures/watchdog/unloaded.test.mjs",
    );
    expect(once.runs.filter((r) => r === "unloaded")).toHaveLength(2);
    expect(once.runs.filter((r) => r === "counted")).toHaveLength(1);
    expect(once.status).toBe(0);

    // A file that cannot load fails every time: red, after the last run.
    const always = runWatched({ WATCHDOG_UNLOADED: "always" });
    expect(always.runs.filter((r) => r === "unloaded")).toHaveLength(3);
    expect(always.status).toBe(1);

    // Beside a test that failed, nothing is run again: red at once.
    const beside = runWatched({ WATCHDOG_UNLOADED: "once", WATCHDOG_FAIL: "1" });
    expect(beside.stderr).not.toContain("running them again");
    expect(beside.runs.filter((r) => r === "unloaded")).toHaveLength(1);
    expect(beside.status).toBe(1);
  }, 120_000);
});
