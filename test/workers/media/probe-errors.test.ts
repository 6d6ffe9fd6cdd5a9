import { describe, expect, it } from "vitest";
import { MediaError } from "../../../src/media/errors";
import { probeMedia } from "../../../src/media/probe";
import { measureStreams } from "../../../src/media/streams";
import { fixtureBytes } from "../../helpers/media-fixtures";
import { bytesSource } from "../../helpers/media-sources";

// Files that cannot be probed: which MediaError code each one gets, and that it says what to do.

async function probeError(bytes: Uint8Array, filename = "upload.mp4"): Promise<MediaError> {
  try {
    await probeMedia(bytesSource(bytes), { filename, contentType: "video/mp4" });
  } catch (error) {
    if (error instanceof MediaError) return error;
    throw error;
  }
  throw new Error(`${filename} probed without an error`);
}

/** The offset of the first top-level box of `type` in a small MP4. */
function boxOffset(bytes: Uint8Array, type: string): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let at = 0; at + 8 <= bytes.length; at += view.getUint32(at)) {
    if (String.fromCharCode(...bytes.subarray(at + 4, at + 8)) === type) return at;
  }
  throw new Error(`no ${type} box`);
}

describe("probeMedia errors", () => {
  it("calls a text file named .mp4 unsupported-media and says what to upload", async () => {
    const error = await probeError(fixtureBytes("not-a-video.mp4"), "not-a-video.mp4");

    expect(error.code).toBe("unsupported-media");
    expect(error.message).toContain("text file");
    expect(error.nextAction).toBe("Upload an MP4, MOV, M4V, WebM or MKV file.");
  });

  it("names a PNG uploaded as a video", async () => {
    // talk.mp4's cover art is a real PNG.
    const talk = await probeMedia(bytesSource(fixtureBytes("talk.mp4")), {
      filename: "talk.mp4",
      contentType: "video/mp4",
    });
    const error = await probeError(talk.coverArt?.bytes ?? new Uint8Array(0), "poster.mp4");

    expect(error.code).toBe("unsupported-media");
    expect(error.message).toContain("a PNG image");
  });

  it("calls an empty file unsupported-media", async () => {
    const error = await probeError(new Uint8Array(0));

    expect(error.code).toBe("unsupported-media");
    expect(error.message).toContain("empty");
  });

  it("calls an MP4 without a video track unsupported-media", async () => {
    const error = await probeError(fixtureBytes("audio-only.mp4"), "audio-only.mp4");

    expect(error.code).toBe("unsupported-media");
    expect(error.message).toContain("no video track");
    expect(error.nextAction).toContain("video");
  });

  it("calls a moov cut short corrupt-media (corrupt.mp4)", async () => {
    const error = await probeError(fixtureBytes("corrupt.mp4"), "corrupt.mp4");

    expect(error.code).toBe("corrupt-media");
    expect(error.message).toContain("moov");
    expect(error.nextAction).toContain("Upload the complete file again");
  });

  it("calls a moov-at-end file cut before its moov corrupt-media", async () => {
    const mov = fixtureBytes("moov-at-end.mov");
    const error = await probeError(mov.subarray(0, boxOffset(mov, "moov")), "handover.mov");

    expect(error.code).toBe("corrupt-media");
    expect(error.message).toContain("no movie header");
  });

  it("calls an MP4 whose mdat is cut short corrupt-media", async () => {
    const talk = fixtureBytes("talk.mp4");
    const error = await probeError(talk.subarray(0, talk.length - 10_000));

    expect(error.code).toBe("corrupt-media");
    expect(error.message).toContain("cut short");
  });

  it("calls an MP4 with a garbled moov corrupt-media", async () => {
    const talk = fixtureBytes("talk.mp4");
    const moov = boxOffset(talk, "moov");
    // Overwrite the first child box (mvhd) header with a size far past its parent.
    talk.set([0x7f, 0xff, 0xff, 0xff], moov + 8);
    const error = await probeError(talk);

    expect(error.code).toBe("corrupt-media");
  });

  it("passes a storage failure through instead of calling the file corrupt", async () => {
    const bytes = fixtureBytes("talk.mp4");
    const failing = {
      size: bytes.length,
      read: async (start: number, end: number) => {
        if (start > 0) throw new Error("storage unavailable");
        return bytes.slice(start, end);
      },
    };

    await expect(
      probeMedia(failing, { filename: "talk.mp4", contentType: "video/mp4" }),
    ).rejects.toThrow("storage unavailable");
  });

  it("passes a storage failure inside mediabunny through as well", async () => {
    const failing = { size: 1000, read: async () => Promise.reject(new Error("R2 timed out")) };

    await expect(measureStreams(failing)).rejects.toThrow("R2 timed out");
  });

  it("calls a broken EBML header corrupt-media", async () => {
    const mkv = fixtureBytes("subtitles.mkv");
    // The size vint right after the 4-byte EBML ID; 0x00 is not a valid vint.
    mkv[4] = 0x00;
    const error = await probeError(mkv, "broken.mkv");

    expect(error.code).toBe("corrupt-media");
    expect(error.message).toContain("EBML header");
  });

  it("calls a Matroska file cut in half corrupt-media", async () => {
    const mkv = fixtureBytes("subtitles.mkv");
    const error = await probeError(mkv.subarray(0, Math.floor(mkv.length / 2)), "half.mkv");

    expect(error.code).toBe("corrupt-media");
    expect(error.message).toContain("segment");
  });
});
