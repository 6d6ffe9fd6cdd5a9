import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { captionKey } from "../../../src/lib/object-keys";
import { type Client, expectJson, expectProblem, newTenant } from "../../helpers/harness";
import { uploadFixture, waitForFinal } from "../../helpers/processing";

let api: Client;
let videoId: string;

beforeAll(async () => {
  ({ api } = await newTenant(["UPLOAD_VIDEOS", "READ_VIDEOS"]));
  videoId = (await waitForFinal(api, (await uploadFixture(api, "silent.mp4")).id)).id;
});

function put(id: string, language: string, body: string, type = "text/vtt", client = api) {
  return client.request("PUT", `/videos/${id}/captions/${language}`, {
    body,
    headers: { "content-type": type },
  });
}

describe("PUT /videos/{video_id}/captions/{language} refusals", () => {
  it("names the line of a malformed WebVTT cue and keeps nothing", async () => {
    const file =
      "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nFine.\n\n00:00:03 --> 00:00:04.000\nBroken.\n";
    const problem = await expectProblem(await put(videoId, "en", file), 400, "invalid-request");
    expect(problem.detail).toMatch(/line 6/);
    expect(problem.detail).toMatch(/cue timing line/);
    expect(await env.MEDIA_BUCKET.head(captionKey(videoId, "en"))).toBeNull();
    const video = await expectJson<{ status: string }>(await api.get(`/videos/${videoId}`), 200);
    expect(video.status).toBe("completed");
  });

  it("names the line of a malformed SRT cue, and of a WebVTT file without its header", async () => {
    const srt =
      "1\n00:00:01,000 --> 00:00:02,000\nFine.\n\n2\n00:00:04,000 --> 00:00:03,000\nBack.\n";
    const backwards = await expectProblem(
      await put(videoId, "en", srt, "application/x-subrip"),
      400,
      "invalid-request",
    );
    expect(backwards.detail).toMatch(/line 6: the cue ends before it starts/);
    const headless = await expectProblem(await put(videoId, "en", srt), 400, "invalid-request");
    expect(headless.detail).toMatch(/line 1: .*WEBVTT/);
  });

  it("refuses a file over 1 MiB with 413", async () => {
    const cue = "00:00:01.000 --> 00:00:02.000\nWords words words words words words.\n\n";
    const file = `WEBVTT\n\n${cue.repeat(Math.ceil((1024 * 1024) / cue.length) + 1)}`;
    await expectProblem(await put(videoId, "en", file), 413, "payload-too-large");
  });

  it("refuses a content type that is neither WebVTT nor SRT with 415", async () => {
    const problem = await expectProblem(
      await put(videoId, "en", "WEBVTT\n", "text/plain"),
      415,
      "unsupported-media-type",
    );
    expect(problem.detail).toMatch(/text\/vtt.*application\/x-subrip/);
  });

  it("refuses a language that is not a BCP 47 tag", async () => {
    for (const tag of ["english!", "e", "en_US", "x-", "toolongtag"]) {
      const problem = await expectProblem(
        await put(videoId, tag, "WEBVTT\n"),
        400,
        "invalid-request",
      );
      expect(problem.detail, tag).toMatch(/BCP 47/);
    }
  });

  it("answers 404 for an unknown video and for a video of another workspace", async () => {
    const file = "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nHello.\n";
    await expectProblem(
      await put("vid_00000000000000000000000000", "en", file),
      404,
      "resource-not-found",
    );
    const other = await newTenant(["UPLOAD_VIDEOS", "READ_VIDEOS"]);
    await expectProblem(
      await put(videoId, "en", file, "text/vtt", other.api),
      404,
      "resource-not-found",
    );
    await expectProblem(
      await other.api.get(`/videos/${videoId}/captions`),
      404,
      "resource-not-found",
    );
    await expectProblem(
      await other.api.get(`/videos/${videoId}/captions/en`),
      404,
      "resource-not-found",
    );
    expect(await env.MEDIA_BUCKET.head(captionKey(videoId, "en"))).toBeNull();
  });

  it("answers 409 while the video is processing", async () => {
    const file = "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nHello.\n";
    const { api: own } = await newTenant(["UPLOAD_VIDEOS", "READ_VIDEOS"]);
    const id = (await waitForFinal(own, (await uploadFixture(own, "silent.mp4")).id)).id;
    await expectJson(await put(id, "en", file, "text/vtt", own), 202);
    const problem = await expectProblem(
      await put(id, "de", file, "text/vtt", own),
      409,
      "conflict",
    );
    expect(problem.detail).toMatch(/processing/);
    await waitForFinal(own, id);
  });

  it("answers 404 for a language the index holds no transcript in", async () => {
    const problem = await expectProblem(
      await api.get(`/videos/${videoId}/captions/fr`),
      404,
      "resource-not-found",
    );
    expect(problem.detail).toMatch(/Captions in fr/);
    const list = await expectJson<{ data: unknown[] }>(
      await api.get(`/videos/${videoId}/captions`),
      200,
    );
    expect(list.data).toEqual([]);
  });
});
