import { existsSync, mkdirSync, mkdtempSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { memoryScratch } from "../../scripts/lib/test-scratch.mjs";

describe("npm test's scratch folder", () => {
  const root = mkdtempSync(path.join(tmpdir(), "scratch-root-"));

  it("is a new folder under the root when the root has room, and is removed with what it holds", () => {
    const scratch = memoryScratch(root, "vas-test-", 1);
    expect(scratch).not.toBeNull();
    if (!scratch) return;
    expect(path.dirname(scratch.dir)).toBe(root);
    expect(path.basename(scratch.dir)).toMatch(new RegExp(`^vas-test-${process.pid}-`));
    expect(statSync(scratch.dir).isDirectory()).toBe(true);
    writeFileSync(path.join(scratch.dir, "d1.sqlite"), "x");
    scratch.remove();
    expect(existsSync(scratch.dir)).toBe(false);
  });

  it("is none when the root has less room than asked, is missing, or is a file", () => {
    expect(memoryScratch(root, "vas-test-", Number.MAX_SAFE_INTEGER)).toBeNull();
    expect(memoryScratch(path.join(root, "missing"))).toBeNull();
    const file = path.join(root, "a-file");
    writeFileSync(file, "");
    expect(memoryScratch(file)).toBeNull();
  });

  it("removes the folders of runs whose process is gone, and keeps those of live ones", () => {
    // A pid above Linux's largest (2^22) is never a running process.
    const gone = path.join(root, "vas-test-4194400-abc");
    const live = path.join(root, `vas-test-${process.pid}-def`);
    const other = path.join(root, "someone-else-4194400-x");
    for (const dir of [gone, live, other]) mkdirSync(dir);
    writeFileSync(path.join(gone, "d1.sqlite"), "x");
    const scratch = memoryScratch(root, "vas-test-", 1);
    expect(existsSync(gone)).toBe(false);
    expect(existsSync(live)).toBe(true);
    expect(existsSync(other)).toBe(true);
    scratch?.remove();
  });
});
