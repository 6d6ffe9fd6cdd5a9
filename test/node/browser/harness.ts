import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type Browser, type BrowserContext, chromium } from "playwright-core";
import { adminClient, newTenant } from "../local-client";
import { freePort, LocalProcess } from "../local-process";
import { chromiumLaunchOptions } from "./chromium";

/** Screenshots of the browser tests land here (git-ignored). */
export const SHOTS_DIR = path.resolve(import.meta.dirname, "../../../test-output/browser");

const ADMIN_TOKEN = "browser-test-admin-token";

/** One local process, one browser and one key holding every permission, for a test file. */
export interface PagesWorld {
  service: LocalProcess;
  browser: Browser;
  key: string;
  close(): Promise<void>;
}

/** Starts `npm run dev` on a fresh state folder and a headless Chromium beside it. */
export async function startPagesWorld(): Promise<PagesWorld> {
  const stateDir = mkdtempSync(path.join(tmpdir(), "vas-browser-"));
  const service = new LocalProcess(await freePort(), { STATE_DIR: stateDir, ADMIN_TOKEN });
  const [, browser] = await Promise.all([
    service.start(),
    chromiumLaunchOptions().then((options) => chromium.launch(options)),
  ]);
  const { key } = await newTenant(adminClient(service, ADMIN_TOKEN), "Browser");
  mkdirSync(SHOTS_DIR, { recursive: true });
  return {
    service,
    browser,
    key,
    async close() {
      await browser.close();
      await service.stop("SIGTERM");
      rmSync(stateDir, { recursive: true, force: true });
    },
  };
}

/**
 * Records every request of the context that leaves `origin` (and refuses it, so nothing
 * outside is ever reached); the list a test asserts empty.
 */
export async function outsideRequests(context: BrowserContext, origin: string): Promise<string[]> {
  const outside: string[] = [];
  const inside = (url: URL) =>
    url.origin === origin || url.protocol === "data:" || url.protocol === "blob:";
  context.on("request", (request) => {
    const url = new URL(request.url());
    if (!inside(url)) outside.push(url.href);
  });
  await context.route("**/*", (route) =>
    inside(new URL(route.request().url())) ? route.continue() : route.abort(),
  );
  return outside;
}
