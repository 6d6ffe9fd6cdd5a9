import { beforeAll, describe, expect, it } from "vitest";
import { describeUnderstanding } from "../../../src/services/media/understood";
import type { VideoDto } from "../../../src/services/presenters/video";
import { type Client, expectJson, newTenant } from "../../helpers/harness";
import { uploadFixture, waitForFinal } from "../../helpers/processing";

let api: Client;

beforeAll(async () => {
  ({ api } = await newTenant(["UPLOAD_VIDEOS", "READ_VIDEOS"]));
});

async function processed(name: "talk.mp4" | "silent.mp4"): Promise<VideoDto> {
  const id = (await waitForFinal(api, (await uploadFixture(api, name)).id)).id;
  return expectJson<VideoDto>(await api.get(`/videos/${id}`), 200);
}

describe("media.understood on a video", () => {
  it("says how many seconds were heard, from which track, and that nothing was seen", async () => {
    const video = await processed("talk.mp4");
    expect(video.media?.understood, JSON.stringify(video.media)).toEqual({
      heard_seconds: 23.5,
      seen_seconds: 0,
      heard_from: ["text-track:0:eng"],
      summary:
        "Heard 23.5 s of 24 s from text track 0 (eng). Saw nothing: on-screen text was not read (the screen reader was not running), and this service's media engine does not describe pictures.",
    });
    expect(video.media?.limitations).toContain("no-visual-analysis");
  });

  it("warns in plain words when nothing was heard or seen, and says what to do", async () => {
    const video = await processed("silent.mp4");
    const understood = video.media?.understood;
    expect(understood, JSON.stringify(video.media)).toMatchObject({
      heard_seconds: 0,
      seen_seconds: 0,
      heard_from: [],
    });
    expect(understood?.summary).toBe(
      "Heard nothing: the file has no caption or subtitle track, and no audio track. Saw nothing: on-screen text was not read (the screen reader was not running), and this service's media engine does not describe pictures.",
    );
    expect(understood?.warning).toMatch(/^Nothing in this video was heard or seen/);
    expect(understood?.warning).toMatch(/caption or subtitle track/);
    expect(understood?.warning).toMatch(/production adapters/);
    expect(video.media?.limitations).toEqual(expect.arrayContaining(["no-timed-text"]));
  });
});

describe("describeUnderstanding", () => {
  const none = { seconds: 0, share: 0 };
  it("names recognised speech and described frames of the production engine", () => {
    const understood = describeUnderstanding(
      {
        engine: "workers-ai@3",
        extent: {
          transcript: [
            { origin: "speech", source: "whisper:en", language: "en", seconds: 58, share: 0.97 },
          ],
          scene: { seconds: 60, share: 1 },
          ocr: { seconds: 60, share: 1 },
        },
      },
      60,
    );
    expect(understood).toEqual({
      heard_seconds: 58,
      seen_seconds: 60,
      heard_from: ["whisper:en"],
      summary:
        "Heard 58 s of 60 s from recognised speech. Saw 60 s of 60 s through described frames.",
    });
  });

  it("gives the production engine's reason when a file was too large for the edge", () => {
    const understood = describeUnderstanding(
      {
        engine: "workers-ai@3",
        limitations: ["input-too-large-for-edge", "no-timed-text"],
        extent: { transcript: [], scene: none, ocr: none },
      },
      600,
    );
    expect(understood?.summary).toBe(
      "Heard nothing: the file has no caption or subtitle track, and the file is too large for speech recognition at the edge. Saw nothing: the file is too large for frame extraction at the edge.",
    );
    expect(understood?.warning).not.toMatch(/production adapters/);
  });

  it("warns of a local video whose frames were read and held no text: inspected, not seen", () => {
    const media = (limitations: string[]) => ({
      engine: "local-media@3",
      limitations,
      extent: { transcript: [], scene: none, ocr: { seconds: 16, share: 1 } },
    });
    const blank = describeUnderstanding(media(["no-text-on-screen", "no-timed-text"]), 16);
    expect(blank?.seen_seconds).toBe(0);
    expect(blank?.summary).toMatch(
      /Saw nothing: no text was read in the frames read for on-screen text, and this service's media engine does not describe pictures\.$/,
    );
    expect(blank?.warning).toMatch(/^Nothing in this video was heard or seen/);
    const read = describeUnderstanding(media(["no-timed-text"]), 16);
    expect(read?.seen_seconds).toBe(16);
    expect(read?.warning).toBeUndefined();
  });

  it("says nothing before processing measured the video", () => {
    expect(describeUnderstanding({}, null)).toBeUndefined();
  });
});
