import { describe, expect, it } from "vitest";
import { captionFormatOf, VasClient, VasError } from "../src/index.js";

/** A client whose fetch records each request and answers with `answer`. */
function recordingClient(answer: (request: Request) => Response) {
  const seen: { method: string; url: string; type: string | null; body: string }[] = [];
  const client = new VasClient({
    baseUrl: "http://vas.test",
    apiKey: "vas_test",
    fetch: async (request) => {
      seen.push({
        method: request.method,
        url: request.url,
        type: request.headers.get("content-type"),
        body: await request.clone().text(),
      });
      return answer(request);
    },
  });
  return { client, seen };
}

const VTT = "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nHello.\n";

describe("captions in the client", () => {
  it("sends the file as it is, with the format's content type", async () => {
    const accepted = {
      video_id: "vid_1",
      language: "en-GB",
      origin: "captions-uploaded",
      format: "webvtt",
      cue_count: 1,
      status: "processing",
    };
    const { client, seen } = recordingClient(() => Response.json(accepted, { status: 202 }));
    await expect(client.putCaptions("vid_1", "en-GB", VTT, "webvtt")).resolves.toEqual(accepted);
    expect(seen).toEqual([
      {
        method: "PUT",
        url: "http://vas.test/api/v1alpha1/videos/vid_1/captions/en-GB",
        type: "text/vtt",
        body: VTT,
      },
    ]);
  });

  it("reads what was heard as text, asking for the format", async () => {
    const srt = "1\n00:00:01,000 --> 00:00:02,000\nHello.\n";
    const { client, seen } = recordingClient(
      () => new Response(srt, { headers: { "content-type": "application/x-subrip" } }),
    );
    await expect(client.getCaptions("vid_1", "en", "srt")).resolves.toBe(srt);
    expect(seen[0]?.url).toBe("http://vas.test/api/v1alpha1/videos/vid_1/captions/en?format=srt");
  });

  it("turns a malformed file's 400 into a VasError naming the line", async () => {
    const detail =
      "The request body is not a valid WebVTT file: line 3: the cue ends before it starts.";
    const { client } = recordingClient(() =>
      Response.json(
        {
          type: "/problems/invalid-request",
          title: "Invalid",
          status: 400,
          detail,
          code: "invalid-request",
        },
        { status: 400, headers: { "content-type": "application/problem+json" } },
      ),
    );
    const error = await client.putCaptions("vid_1", "en", VTT, "webvtt").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VasError);
    expect((error as VasError).message).toContain("line 3");
  });

  it("tells the format from a file's name", () => {
    expect(captionFormatOf("talk.VTT")).toBe("webvtt");
    expect(captionFormatOf("talk.srt")).toBe("srt");
    expect(captionFormatOf("talk.txt")).toBeNull();
  });
});
