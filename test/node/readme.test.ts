import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** The shell lines of the README's code blocks, as a reader pastes them. */
function shellLines(markdown: string): string[] {
  const blocks = [...markdown.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1] ?? "");
  return blocks.flatMap((block) => block.split("\n"));
}

/** The `"$BASE/…"` URLs a line sends requests to. */
function apiUrls(line: string): string[] {
  return [...line.matchAll(/"\$BASE\/[^"]*"/g)].map((m) => m[0]);
}

describe("the README's walk-through", () => {
  it("sends no URL holding a <placeholder>, which the runtime refuses as text/plain", () => {
    const lines = shellLines(readFileSync(path.join(ROOT, "README.md"), "utf8"));
    const urls = lines.flatMap(apiUrls);
    expect(urls.length).toBeGreaterThan(20);
    expect(urls.filter((url) => /[<>]/.test(url))).toEqual([]);
  });

  it("finds a placeholder in a URL where there is one", () => {
    expect(apiUrls('curl -s "$BASE/videos?cursor=<next_cursor>" "$BASE/videos"')).toEqual([
      '"$BASE/videos?cursor=<next_cursor>"',
      '"$BASE/videos"',
    ]);
  });
});
