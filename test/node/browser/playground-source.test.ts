import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { renderMarkdown } from "../../../playground/src/markdown";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const run = promisify(execFile);

describe("the playground's source", () => {
  it("type-checks as browser code and is what the served script was built from", async () => {
    await run(path.join(ROOT, "node_modules/.bin/tsc"), ["-p", "playground/tsconfig.json"], {
      cwd: ROOT,
    });
    await expect(
      run(process.execPath, ["playground/build.mjs", "--check"], { cwd: ROOT }),
    ).resolves.toBeDefined();
  });
});

/** The elements Markdown itself makes; nothing else may come out of a report. */
const MARKDOWN_TAGS = new Set(
  "p h1 h2 h3 h4 h5 h6 ul ol li em strong code pre blockquote a hr br img table thead tbody tr th td s".split(
    " ",
  ),
);

describe("renderMarkdown", () => {
  it("escapes HTML in a report and refuses script links", () => {
    const html = renderMarkdown(
      '# Report\n\n<img src=x onerror="alert(1)">\n\n<script>alert(2)</script>\n\n[click](javascript:alert(3))',
    );
    expect(html).toContain("<h1>Report</h1>");
    expect(html).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;");
    expect(html).toContain("&lt;script&gt;");
    expect(html).not.toContain('javascript:alert(3)"');
    expect(html).not.toMatch(/<a [^>]*href="javascript:/);
  });

  it("makes only Markdown's own elements, with no event handler, from any text", () => {
    const pieces = fc.constantFrom(
      "<script>",
      "<img src=x onerror=alert(1)>",
      '<a href="javascript:x">',
      "<svg onload=x>",
      "# ",
      "**",
      "`",
      "\n\n",
      "[a](",
      ")",
      "![i](",
      "| a | b |\n|---|---|\n",
      "- ",
      "> ",
      '"',
      "'",
      "&",
    );
    const text = fc.array(fc.oneof(pieces, fc.string()), { maxLength: 30 }).map((p) => p.join(""));
    fc.assert(
      fc.property(text, (source) => {
        const html = renderMarkdown(source);
        for (const match of html.matchAll(/<\/?([a-zA-Z][a-zA-Z0-9]*)/g))
          expect(MARKDOWN_TAGS, html).toContain(match[1]?.toLowerCase());
        expect(html).not.toMatch(/<[^>]*\son[a-z]+\s*=/i);
        expect(html).not.toMatch(/(href|src)="\s*(javascript|vbscript|data):/i);
      }),
    );
  });
});
