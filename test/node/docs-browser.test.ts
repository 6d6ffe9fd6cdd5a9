import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type Browser, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, LocalProcess } from "./local-process";

// /docs in a real browser against the real local process, with every request that would
// leave the machine refused and recorded: the reference must render from the Worker alone.

/** Where Debian, Ubuntu and Chrome put a Chromium; CHROMIUM_PATH names another. */
const BROWSERS = [
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
  "/usr/bin/google-chrome",
  "/usr/bin/google-chrome-stable",
];

function findBrowser(): string {
  const found = [process.env.CHROMIUM_PATH, ...BROWSERS].find(
    (candidate) => candidate !== undefined && candidate !== "" && existsSync(candidate),
  );
  if (found === undefined) {
    throw new Error(
      "No Chromium found for the /docs browser test: `apt-get install -y chromium` (.ci/run does it) or set CHROMIUM_PATH",
    );
  }
  return found;
}

let service: LocalProcess;
let stateDir: string;
let browser: Browser;

beforeAll(async () => {
  stateDir = mkdtempSync(path.join(tmpdir(), "vas-docs-"));
  service = new LocalProcess(await freePort(), { STATE_DIR: stateDir });
  await service.start();
  browser = await chromium.launch({ executablePath: findBrowser(), args: ["--no-sandbox"] });
});

afterAll(async () => {
  await browser?.close();
  await service?.stop("SIGTERM");
  rmSync(stateDir, { recursive: true, force: true });
});

describe("GET /docs in a browser", () => {
  it("renders every tag and a request example with no network beyond the service", async () => {
    const document = (await (
      await fetch(`${service.baseUrl}/api/v1alpha1/openapi.json`)
    ).json()) as { tags: { name: string }[] };
    const context = await browser.newContext();
    const outside: string[] = [];
    await context.route("**/*", (route) => {
      const url = new URL(route.request().url());
      if (url.hostname === "127.0.0.1" || url.protocol === "data:" || url.protocol === "blob:")
        return route.continue();
      outside.push(url.href);
      return route.abort();
    });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    await page.goto(`${service.baseUrl}/docs`);

    // The operations list: the sidebar names each operation by its summary.
    await page.getByText("List videos").first().waitFor({ timeout: 60_000 });
    for (const tag of document.tags) {
      await expect(page.getByText(tag.name, { exact: true }).first().isVisible()).resolves.toBe(
        true,
      );
    }
    // A request example: the generated curl call of POST /videos, with its example body.
    await page.getByText("Request Example for").first().waitFor({ timeout: 30_000 });
    const text = await page.locator("body").innerText();
    expect(text).toContain(`curl ${service.baseUrl}/api/v1alpha1/videos`);
    expect(text).toMatch(/--data '\{\s*"filename": "warehouse-walkthrough\.mp4"/);
    expect(errors, errors.join("\n")).toEqual([]);
    expect(outside, outside.join("\n")).toEqual([]);
    await context.close();
  });
});
