import { mkdtempSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Page } from "playwright-core";
import { apiClient } from "../local-client";
import { vestsProfile } from "../profiles";
import { SHOTS_DIR } from "./harness";

/** The fixture the playground test uploads: 24 s, captions about forklifts and vests. */
export const TALK = path.resolve(import.meta.dirname, "../../fixtures/media/talk.mp4");
/** 6 s of pictures with no sound and no captions: nothing in it is heard or seen. */
export const BLANK = path.resolve(import.meta.dirname, "../../fixtures/media/blank.mp4");

/** A profile for the run, stored through the API as a user's script would. */
export async function createProfile(baseUrl: string, key: string, name: string): Promise<string> {
  const profile = await apiClient({ baseUrl }, key).expect(201, "POST", "/profiles", {
    ...vestsProfile(),
    name,
  });
  return profile.id;
}

/** A one-rule rulebook and a workflow binding it to the video, through the API. */
export async function createWorkflow(baseUrl: string, key: string, videoId: string) {
  const api = apiClient({ baseUrl }, key);
  const post = (route: string, body: unknown): Promise<{ id: string }> =>
    api.expect(201, "POST", route, body);
  const rulebook = await post("/rulebooks", {
    name: "Dock safety",
    rules: [
      {
        id: "vests",
        title: "Fire exits are kept clear",
        description: "Fire exits are kept clear.",
        severity: "high",
      },
    ],
  });
  const workflow = await post("/workflows", {
    name: "Dock review",
    rulebook_id: rulebook.id,
    source_ids: [videoId],
  });
  return workflow.id;
}

/** Saves a full-page screenshot of the step under the git-ignored test output folder. */
export function shoot(page: Page, step: string): Promise<Buffer> {
  return page.screenshot({ path: path.join(SHOTS_DIR, `playground-${step}.png`), fullPage: true });
}

/** A sparse file of `bytes` zeros in a fresh temporary folder (costs no disk until read). */
export function largeFile(bytes: number): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), "vas-large-")), "large.mp4");
  writeFileSync(file, "");
  truncateSync(file, bytes);
  return file;
}
