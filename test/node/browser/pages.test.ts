import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { outsideRequests, type PagesWorld, SHOTS_DIR, startPagesWorld } from "./harness";

// The served pages in a real browser against the real local process, one process and one
// browser for the file: every request that would leave the service is recorded and refused.
let world: PagesWorld;

beforeAll(async () => {
  world = await startPagesWorld();
});

afterAll(async () => {
  await world?.close();
});

describe("GET /docs in a browser", () => {
  it("renders every tag and a request example with no request beyond the service", async () => {
    const { baseUrl } = world.service;
    const document = (await (await fetch(`${baseUrl}/api/v1alpha1/openapi.json`)).json()) as {
      tags: { name: string }[];
    };
    const context = await world.browser.newContext();
    const outside = await outsideRequests(context, baseUrl);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    await page.goto(`${baseUrl}/docs`);

    // The operations list: the sidebar names each operation by its summary.
    await page.getByText("List videos").first().waitFor({ timeout: 60_000 });
    for (const tag of document.tags) {
      await expect(page.getByText(tag.name, { exact: true }).first().isVisible()).resolves.toBe(
        true,
      );
    }
    // A request example: the generated curl call of POST /videos with its example body.
    await page.getByText("Request Example for").first().waitFor({ timeout: 30_000 });
    const text = await page.locator("body").innerText();
    expect(text).toContain(`curl ${baseUrl}/api/v1alpha1/videos`);
    expect(text).toMatch(/--data '\{\s*"filename": "/);
    await page.screenshot({ path: path.join(SHOTS_DIR, "docs.png") });
    expect(errors, errors.join("\n")).toEqual([]);
    expect(outside, outside.join("\n")).toEqual([]);
    await context.close();
  });
});
