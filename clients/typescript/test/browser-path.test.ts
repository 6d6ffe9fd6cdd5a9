import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const SRC = path.join(import.meta.dirname, "..", "src");

/** Every module the browser entry reaches, following relative imports. */
function reachable(entry: string): Map<string, string[]> {
  const seen = new Map<string, string[]>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    const text = readFileSync(file, "utf8");
    const specifiers = [...text.matchAll(/(?:from|import)\s+"([^"]+)"/g)].map((m) => m[1] ?? "");
    seen.set(file, specifiers);
    for (const spec of specifiers.filter((s) => s.startsWith(".")))
      visit(path.join(path.dirname(file), spec.replace(/\.js$/, ".ts")));
  };
  visit(path.join(SRC, entry));
  return seen;
}

describe("the browser entry", () => {
  it("reaches no Node module, only openapi-fetch besides its own files", () => {
    const modules = reachable("index.ts");
    const external = [...modules.values()].flat().filter((s) => !s.startsWith("."));
    expect(new Set(external)).toEqual(new Set(["openapi-fetch"]));
    expect([...modules.keys()].map((f) => path.relative(SRC, f))).not.toContain("node.ts");
  });

  it("is what the Node entry re-exports, plus file paths", () => {
    const modules = reachable("node.ts");
    const external = new Set([...modules.values()].flat().filter((s) => !s.startsWith(".")));
    expect(external).toEqual(new Set(["openapi-fetch", "node:fs", "node:path"]));
  });
});
