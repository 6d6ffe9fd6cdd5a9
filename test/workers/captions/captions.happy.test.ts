import { beforeAll, describe, expect, it } from "vitest";
import type { VideoDto } from "../../../src/routes/videos/schemas";
import { parseCaptionFile } from "../../../src/services/captions/parse";
import { type Client, expectJson, newTenant } from "../../helpers/harness";
import { storedSegments, uploadFixture, waitForFinal } from "../../helpers/processing";
import { createProfile, waitForRun } from "../../helpers/runs";

// silent.mp4 has no caption track and no audio (6 s): nothing in it is heard until captions come.
const VTT = `WEBVTT

intro
00:00:00.500 --> 00:00:02.000
Forklift operators must wear high visibility vests.

00:00:02.500 --> 00:00:04.250
The <b>quarantine</b> pallet stays &amp; waits by bay seven.
`;
const SRT = `1
00:00:01,000 --> 00:00:03,000
Los carretilleros deben llevar chalecos reflectantes.

2
00:00:03,500 --> 00:00:05,000
El muelle de carga cierra a las seis.
`;

let api: Client;

beforeAll(async () => {
  ({ api } = await newTenant([
    "UPLOAD_VIDEOS",
    "READ_VIDEOS",
    "SEARCH_CONTENT",
    "RUN_WORKFLOWS",
    "VIEW_INSIGHTS",
  ]));
});

async function silentVideo(): Promise<string> {
  return (await waitForFinal(api, (await uploadFixture(api, "silent.mp4")).id)).id;
}

function put(videoId: string, language: string, body: string, type: string) {
  return api.request("PUT", `/videos/${videoId}/captions/${language}`, {
    body,
    headers: { "content-type": type },
  });
}

async function search(query: string) {
  return expectJson<{ data: { video_id: string; matches: { source: string; text: string }[] }[] }>(
    await api.post("/search", { query }),
    200,
  );
}

describe("PUT /videos/{video_id}/captions/{language}", () => {
  it("re-indexes a video with uploaded WebVTT, so a word only in the captions finds it", async () => {
    const videoId = await silentVideo();
    expect((await search('"quarantine pallet"')).data.map((r) => r.video_id)).not.toContain(
      videoId,
    );

    const accepted = await expectJson(await put(videoId, "en", VTT, "text/vtt"), 202);
    expect(accepted).toEqual({
      video_id: videoId,
      language: "en",
      origin: "captions-uploaded",
      format: "webvtt",
      cue_count: 2,
      status: "processing",
    });
    const video = await waitForFinal(api, videoId);
    expect(video.status).toBe("completed");
    expect(video.media?.understood?.heard_from).toEqual(["captions-uploaded:en"]);
    expect(video.media?.understood?.warning).toBeUndefined();

    const hits = await search('"quarantine pallet"');
    expect(
      hits.data.map((r) => r.video_id),
      JSON.stringify(hits),
    ).toContain(videoId);
    const spans = (await storedSegments(videoId)).flatMap((s) => s.evidence);
    expect(spans).toContainEqual({
      kind: "transcript",
      start: 2.5,
      end: 4.25,
      text: "The quarantine pallet stays & waits by bay seven.",
      source: "captions-uploaded:en",
    });
  });

  it("reads SRT, lists it with its origin and gives it back as SRT and WebVTT", async () => {
    const videoId = await silentVideo();
    await expectJson(await put(videoId, "es", SRT, "application/x-subrip"), 202);
    await waitForFinal(api, videoId);

    const list = await expectJson<{ data: unknown[] }>(
      await api.get(`/videos/${videoId}/captions`),
      200,
    );
    expect(list.data).toEqual([
      { language: "es", origin: "captions-uploaded", source: "captions-uploaded:es", seconds: 5 },
    ]);
    const uploaded = parseCaptionFile("srt", new TextEncoder().encode(SRT));

    const srt = await api.get(`/videos/${videoId}/captions/es?format=srt`);
    expect(srt.status).toBe(200);
    expect(srt.headers.get("content-type")).toBe("application/x-subrip; charset=utf-8");
    expect(parseCaptionFile("srt", new Uint8Array(await srt.arrayBuffer()))).toEqual(uploaded);

    const vtt = await api.get(`/videos/${videoId}/captions/ES`);
    expect(vtt.headers.get("content-type")).toBe("text/vtt; charset=utf-8");
    const text = await vtt.text();
    expect(text).toMatch(/^WEBVTT\n/);
    expect(parseCaptionFile("webvtt", new TextEncoder().encode(text))).toEqual(uploaded);
  });

  it("replaces the uploaded track of a language and keeps the file's own captions", async () => {
    const videoId = (await waitForFinal(api, (await uploadFixture(api, "talk.mp4")).id)).id;
    await expectJson(await put(videoId, "en-gb", VTT, "text/vtt"), 202);
    await waitForFinal(api, videoId);
    const replacement = "WEBVTT\n\n00:00:13.000 --> 00:00:15.000\nMind the wet floor sign.\n";
    const second = await expectJson(await put(videoId, "en-GB", replacement, "text/vtt"), 202);
    expect(second).toMatchObject({ language: "en-GB", cue_count: 1 });
    await waitForFinal(api, videoId);

    const list = await expectJson<{ data: { origin: string; source: string }[] }>(
      await api.get(`/videos/${videoId}/captions`),
      200,
    );
    expect(list.data.map((t) => [t.origin, t.source])).toEqual([
      ["captions-uploaded", "captions-uploaded:en-GB"],
      ["captions-container", "text-track:0:eng"],
    ]);
    // The exact tag picks the uploaded track; another English tag the first English one.
    const mine = await (await api.get(`/videos/${videoId}/captions/en-GB`)).text();
    expect(mine).toBe("WEBVTT\n\n1\n00:00:13.000 --> 00:00:15.000\nMind the wet floor sign.\n");
    const spans = (await storedSegments(videoId)).flatMap((s) => s.evidence.map((e) => e.text));
    expect(spans).not.toContain("The quarantine pallet stays & waits by bay seven.");
    expect(spans).toContain("The loading dock closes at six pm.");
  });

  it("makes answers cite the uploaded captions", async () => {
    const videoId = await silentVideo();
    await expectJson(await put(videoId, "en", VTT, "text/vtt"), 202);
    const video: VideoDto = await waitForFinal(api, videoId);
    expect(video.status).toBe("completed");
    const profileId = await createProfile(api);
    const accepted = await expectJson<{ id: string }>(
      await api.post("/runs", { kind: "analysis", source_ids: [videoId], profile_id: profileId }),
      202,
    );
    expect((await waitForRun(api, accepted.id)).status).toBe("completed");
    const answers = await expectJson<{
      data: {
        key: string;
        result_state: string;
        answer_payload: { items: { evidence: { start_time: number; text: string }[] }[] };
      }[];
    }>(await api.get(`/runs/${accepted.id}/answers`), 200);
    const vests = answers.data.find((a) => a.key === "vests_required");
    expect(vests?.result_state, JSON.stringify(vests)).toBe("found");
    const cited = vests?.answer_payload.items[0]?.evidence[0];
    expect(cited).toMatchObject({
      start_time: 0.5,
      text: "Forklift operators must wear high visibility vests.",
    });
    const spans = (await storedSegments(videoId)).flatMap((s) => s.evidence);
    const source = spans.find((s) => s.start === cited?.start_time && s.kind === "transcript");
    expect(source).toMatchObject({ source: "captions-uploaded:en" });
  });
});
