import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// Code, tests and docs cite decision records by path, and docs link each other: a record
// renamed or a doc moved must fail here, not leave a reader at a dead end.
const ROOT = path.resolve(import.meta.dirname, "../..");
const SKIPPED = new Set([
  "node_modules",
  ".git",
  ".wrangler",
  "dist",
  "test-output",
  "trial-output",
]);
const TEXT = /\.(ts|mjs|js|md|toml|json|sh|sql|wat|ya?ml)$/;
const CITED_RECORD = /docs\/decisions\/([A-Za-z0-9_.-]+\.md)/g;
// The notebook the records replaced; spelled in two parts so this file does not cite it.
const RETIRED = new RegExp(`\\b${"decisions"}\\.md\\b`);

/** Repository-relative paths of the text files under `dir`, skipping installs and outputs. */
function textFiles(dir = ""): string[] {
  return readdirSync(path.join(ROOT, dir)).flatMap((name) => {
    if (SKIPPED.has(name)) return [];
    const file = dir === "" ? name : `${dir}/${name}`;
    if (statSync(path.join(ROOT, file)).isDirectory()) return textFiles(file);
    return TEXT.test(name) ? [file] : [];
  });
}

/** The relative link targets of a Markdown text, outside code, without their `#fragment`. */
function relativeLinks(markdown: string): string[] {
  const prose = markdown.replace(/```[\s\S]*?```/g, "").replace(/`[^`\n]*`/g, "");
  const inline = [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1] ?? "");
  const defined = [...prose.matchAll(/^\[[^\]]+\]:\s*(\S+)/gm)].map((m) => m[1] ?? "");
  return [...inline, ...defined]
    .filter((target) => !/^([a-z][a-z0-9+.-]*:|#)/i.test(target))
    .map((target) => target.replace(/[#?].*$/, ""));
}

const files = textFiles();
const markdown = files.filter(
  (file) => file === "README.md" || (file.startsWith("docs/") && file.endsWith(".md")),
);

describe("citations of decision records", () => {
  it("name records that exist", () => {
    const missing = files.flatMap((file) =>
      [...readFileSync(path.join(ROOT, file), "utf8").matchAll(CITED_RECORD)]
        .map((m) => `docs/decisions/${m[1]}`)
        .filter((record) => !existsSync(path.join(ROOT, record)))
        .map((record) => `${file} cites ${record}`),
    );
    expect(missing).toEqual([]);
  });

  it("never name the retired notebook", () => {
    const stale = files.filter((file) => RETIRED.test(readFileSync(path.join(ROOT, file), "utf8")));
    expect(stale).toEqual([]);
  });

  it("reach every record from the index", () => {
    const index = readFileSync(path.join(ROOT, "docs/decisions/README.md"), "utf8");
    const listed = new Set(relativeLinks(index));
    const records = readdirSync(path.join(ROOT, "docs/decisions")).filter((n) => n !== "README.md");
    expect(records.filter((name) => !listed.has(name))).toEqual([]);
  });
});

describe("relative links in README.md and docs/", () => {
  it("point at files that exist", () => {
    expect(markdown.length).toBeGreaterThan(10);
    const broken = markdown.flatMap((file) =>
      relativeLinks(readFileSync(path.join(ROOT, file), "utf8"))
        .filter((target) => !existsSync(path.join(ROOT, path.dirname(file), target)))
        .map((target) => `${file} → ${target}`),
    );
    expect(broken).toEqual([]);
  });

  it("are found inline and in definitions, and code is left alone", () => {
    const text = [
      "See [a](a.md#x), [b](https://x.org), [c](#here) and `[d](d.md)`.",
      "```js\nf[0](e.md)\n```",
      "[ref]: ../f.md",
    ].join("\n");
    expect(relativeLinks(text)).toEqual(["a.md", "../f.md"]);
  });
});
