import { rmSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient } from "../local-client";
import { outsideRequests, type PagesWorld, SHOTS_DIR, startPagesWorld } from "./harness";
import { BLANK, createProfile, createWorkflow, largeFile, shoot, TALK } from "./playground";

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

describe("GET /playground in a browser", () => {
  it("uploads a video, watches it, searches, plays a result and renders a run's report", async () => {
    const { baseUrl } = world.service;
    const profileName = "Vests <img src=x onerror=alert(1)>";
    const context = await world.browser.newContext();
    const outside = await outsideRequests(context, baseUrl);
    const page = await context.newPage();
    const problems: string[] = [];
    page.on("pageerror", (error) => problems.push(error.message));
    page.on("console", (message) => {
      if (message.type() === "error") problems.push(message.text());
    });
    const answer = await page.goto(`${baseUrl}/playground`);
    expect(answer?.headers()["content-security-policy"]).toContain("default-src 'none'");

    await page.fill("#key", world.key);
    await page.click("#key-form button");
    await page.getByText("Key set for this tab.").waitFor();
    expect(await page.evaluate(() => Object.keys(sessionStorage))).toEqual(["vas-playground-key"]);
    expect(await page.evaluate(() => Object.keys(localStorage))).toEqual([]);
    // No profile yet: the run form says how to make one.
    await page.getByText("No profile yet: create one with POST /profiles").waitFor();
    const profileId = await createProfile(baseUrl, world.key, profileName);

    await page.setInputFiles("#file", TALK);
    await page.click("#upload-form button");
    await page.waitForFunction(
      () => document.getElementById("processing-status")?.textContent === "completed",
      undefined,
      { timeout: 90_000 },
    );
    expect(await page.locator("#upload-progress").getAttribute("value")).toBe("100");
    // What was understood of it shows as processing ends, and on its card.
    expect(await page.locator("#processing-understood").textContent()).toMatch(
      /^Heard [\d.]+ s of 24 s from text track/,
    );
    expect(await page.locator("#processing-understood .warning").count()).toBe(0);
    const video = page.locator('#videos li[data-status="completed"]');
    await video.first().waitFor();
    expect(await video.locator(".name").first().textContent()).toBe("talk.mp4");
    expect(await video.locator(".understood").first().textContent()).toMatch(
      /^Heard [\d.]+ s of 24 s/,
    );
    await shoot(page, "1-uploaded");

    await page.fill("#query", "forklift vests");
    await page.click("#search-form button");
    const result = page.locator("#results button.result").first();
    await result.waitFor();
    expect(await result.locator(".score").textContent()).toMatch(/^score (0|1)\.\d\d$/);
    expect(await result.locator(".said").textContent()).toContain("high visibility vests");
    const time = Number(await result.getAttribute("data-time"));
    await result.click();
    const player = page.locator("#player video");
    await player.waitFor();
    expect(await player.getAttribute("src")).toContain(`#t=${time}`);
    await shoot(page, "2-search");

    // A search with nothing above the threshold says why, with the best score it saw.
    await page.fill("#query", "zeppelin hangar");
    await page.click("#search-form button");
    await page.locator("#results .explanation").waitFor();
    expect(await page.locator("#results .explanation").textContent()).toMatch(
      /^No moment of the \d+ videos? searched holds a word of the query/,
    );

    await page.selectOption("#run-profile", profileId);
    await page.click("#run-form button");
    const report = page.locator("#report");
    await report.locator("h1").first().waitFor({ timeout: 90_000 });
    expect(await page.locator("#run-status").textContent()).toMatch(/: completed$/);
    expect(await report.innerText()).toMatch(/vests\s+Verdict: Pass/);
    // The Markdown renders as a document: the header is a list holding the summary and the
    // limitations, the quoted sentence is text, and no Markdown syntax shows through.
    expect(await report.locator("li", { hasText: "Summary:" }).first().innerText()).toBe(
      "Summary: 1 found (1 answer)",
    );
    expect(await report.locator("li", { hasText: "Limitations:" }).first().innerText()).toBe(
      "Limitations: None",
    );
    expect(await report.locator("strong", { hasText: "Verdict:" }).count()).toBe(1);
    expect(await report.innerText()).not.toMatch(/\*\*|^#|\| ---/m);
    // Names from the API are shown as text, never parsed as markup.
    expect(await page.locator("#run-profile option").first().textContent()).toBe(profileName);
    await shoot(page, "3-report");

    // A workflow over the video: run it from the page and read its findings.
    await page.getByText("No workflow yet: import a rulebook").waitFor();
    const videoId = (await video.first().getAttribute("data-video-id")) ?? "";
    const workflowId = await createWorkflow(baseUrl, world.key, videoId);
    await page.click("#refresh-videos");
    await page.locator(`#workflow option[value="${workflowId}"]`).waitFor({ state: "attached" });
    await page.click("#workflow-form button");
    const finding = page.locator("#findings li.finding").first();
    await finding.waitFor({ timeout: 90_000 });
    expect(await finding.locator("strong").textContent()).toBe("Fire exits are kept clear");
    expect(await page.locator("#workflow-status").textContent()).toMatch(
      /: completed — .+ over 1 video\./,
    );
    await shoot(page, "4-findings");

    // Deleted from its card: it leaves the list at once, and the API no longer has it.
    const card = page.locator(`#videos li[data-video-id="${videoId}"]`);
    await card.locator("button.delete").click();
    await page.getByText("Deleted talk.mp4; its data is being erased.").waitFor();
    await card.waitFor({ state: "detached" });
    const gone = await apiClient(world.service, world.key).fetch("GET", `/videos/${videoId}`);
    expect(gone.status, await gone.text()).toBe(404);
    await shoot(page, "5-deleted");

    // What all this used: the upload stays counted, its bytes are no longer stored.
    await page.click("#usage-form button");
    const total = page.locator("#usage tbody tr", { hasText: "Total" });
    await total.waitFor();
    const [uploads, stored, , , , , , runs] = await total.locator("td").allInnerTexts();
    expect([uploads, stored, runs]).toEqual(["1", "0.0", "2"]);
    await shoot(page, "6-usage");

    // A video nothing is heard or seen of says so with a warning, and is found by its filename.
    await page.setInputFiles("#file", BLANK);
    await page.click("#upload-form button");
    const warning = page.locator("#processing-understood .warning");
    await warning.waitFor({ timeout: 90_000 });
    expect(await warning.textContent()).toMatch(/^Nothing in this video was heard or seen/);
    const blank = page.locator('#videos li[data-status="completed"]', { hasText: "blank.mp4" });
    await blank.locator(".warning").waitFor();
    await page.fill("#query", "blank");
    await page.click("#search-form button");
    const named = page.locator("#results button.result").first();
    await named.waitFor();
    expect(await named.locator(".kind").textContent()).toBe("found by its filename");
    expect(await named.locator(".said").textContent()).toBe("blank.mp4");
    await shoot(page, "7-nothing-understood");

    expect(problems, problems.join("\n")).toEqual([]);
    expect(outside, outside.join("\n")).toEqual([]);
    await context.close();
    // Two uploads, two runs and a search, each waited for through the page, in one story.
  }, 240_000);

  it("says a refused key was refused, and keeps no such key", async () => {
    const page = await world.browser.newPage();
    await page.goto(`${world.service.baseUrl}/playground`);
    await page.fill("#key", "vas_not_a_real_key");
    await page.click("#key-form button");
    await page.getByText(/^This key was refused \(401/).waitFor();
    expect(await page.evaluate(() => Object.keys(sessionStorage))).toEqual([]);
    await page.close();
  });

  it("uploads a file over 200 MiB in parts, each PUT straight to its target", async () => {
    const { baseUrl } = world.service;
    const big = largeFile(210 * 1024 * 1024);
    const page = await world.browser.newPage();
    await page.goto(`${baseUrl}/playground`);
    await page.fill("#key", world.key);
    await page.click("#key-form button");
    const puts: string[] = [];
    page.on("request", (request) => {
      if (request.method() === "PUT") puts.push(new URL(request.url()).pathname);
    });
    await page.setInputFiles("#file", big);
    await page.click("#upload-form button");
    // Zeros are no video: processing fails, and the page says why.
    await page.waitForFunction(
      () => document.getElementById("processing-status")?.textContent?.startsWith("failed: "),
      undefined,
      { timeout: 120_000 },
    );
    const id = (await page.locator("#upload-status").textContent())?.replace("Uploaded as ", "");
    const res = await apiClient(world.service, world.key).fetch("GET", `/videos/${id}/upload`);
    expect(await res.json()).toMatchObject({
      strategy: "multipart",
      state: "completed",
      total_chunks: 21,
      completed_parts: 21,
      verified_bytes: 210 * 1024 * 1024,
    });
    expect(await page.locator("#upload-progress").getAttribute("value")).toBe("100");
    // 21 parts to storage and 21 receipts recorded with the API.
    expect(puts.filter((p) => !p.startsWith("/api/")).length).toBe(21);
    expect(puts.filter((p) => p === `/api/v1alpha1/videos/${id}/upload/parts`).length).toBe(21);
    await page.close();
    rmSync(path.dirname(big), { recursive: true, force: true });
  });
});
