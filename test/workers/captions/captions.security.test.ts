import { beforeAll, describe, expect, it } from "vitest";
import {
  type Client,
  client,
  createKey,
  expectJson,
  expectProblem,
  newTenant,
} from "../../helpers/harness";
import { uploadFixture, waitForFinal } from "../../helpers/processing";

// The shared auth suite (test/workers/security/auth-matrix.test.ts) runs every caption route;
// here: uploading needs UPLOAD_VIDEOS, reading READ_VIDEOS, within one workspace.
const FILE = "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nHello there.\n";
let videoId: string;
let reader: Client;
let uploader: Client;

beforeAll(async () => {
  const { api, workspaceId } = await newTenant(["UPLOAD_VIDEOS", "READ_VIDEOS"]);
  videoId = (await waitForFinal(api, (await uploadFixture(api, "silent.mp4")).id)).id;
  await expectJson(await put(api, "en"), 202);
  await waitForFinal(api, videoId);
  reader = client((await createKey(workspaceId, { permissions: ["READ_VIDEOS"] })).key);
  uploader = client((await createKey(workspaceId, { permissions: ["UPLOAD_VIDEOS"] })).key);
});

function put(api: Client, language: string) {
  return api.request("PUT", `/videos/${videoId}/captions/${language}`, {
    body: FILE,
    headers: { "content-type": "text/vtt" },
  });
}

describe("caption permissions", () => {
  it("lets UPLOAD_VIDEOS upload and refuses a key without it", async () => {
    const problem = await expectProblem(await put(reader, "de"), 403, "forbidden");
    expect(problem.detail).toContain("UPLOAD_VIDEOS");
    await expectJson(await put(uploader, "de"), 202);
    await waitForFinal(reader, videoId);
  });

  it("lets READ_VIDEOS read and list captions and refuses a key without it", async () => {
    const list = await expectJson<{ data: { source: string }[] }>(
      await reader.get(`/videos/${videoId}/captions`),
      200,
    );
    expect(list.data.map((t) => t.source)).toContain("captions-uploaded:en");
    expect(await (await reader.get(`/videos/${videoId}/captions/en`)).text()).toContain(
      "Hello there.",
    );
    await expectProblem(await uploader.get(`/videos/${videoId}/captions`), 403, "forbidden");
    await expectProblem(await uploader.get(`/videos/${videoId}/captions/en`), 403, "forbidden");
  });
});
