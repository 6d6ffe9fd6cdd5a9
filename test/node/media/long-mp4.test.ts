import { CustomSource, EncodedPacketSink, Input, type InputTrack, MP4 } from "mediabunny";
import { describe, expect, it } from "vitest";
import type { RangeSource } from "../../../src/domain/media";
import { type LongMp4Options, longMp4 } from "../../helpers/long-mp4";

function open(source: RangeSource): Input {
  return new Input({
    formats: [MP4],
    source: new CustomSource({ getSize: () => source.size, read: (s, e) => source.read(s, e) }),
  });
}

/** Presentation times (s) of `count` packets in decode order from the key packet at `time`. */
async function decodeOrderFrom(track: InputTrack, time: number, count: number) {
  const sink = new EncodedPacketSink(track);
  const key = await sink.getKeyPacket(time);
  const times: number[] = [];
  for await (const packet of sink.packets(key ?? undefined, undefined, { metadataOnly: true })) {
    if (times.length === count) break;
    times.push(Math.round(packet.timestamp * 1000) / 1000);
  }
  return { key: key?.timestamp, times };
}

const layouts: [string, LongMp4Options][] = [
  ["moov at the end", { hours: 2 / 60 }],
  ["moov first, 64-bit chunk offsets", { hours: 2 / 60, moovFirst: true, co64: true }],
];

describe("longMp4", () => {
  it.each(layouts)(
    "makes 2 minutes of H.264 and AAC that mediabunny reads (%s)",
    async (_, options) => {
      const input = open(await longMp4(options));
      const video = await input.getPrimaryVideoTrack();
      const audio = await input.getPrimaryAudioTrack();
      if (!video || !audio) throw new Error("a track is missing");
      expect(await input.computeDuration()).toBe(120);
      expect([
        await video.getCodec(),
        await video.getDisplayWidth(),
        await audio.getCodec(),
      ]).toEqual(["avc", 1920, "aac"]);
      // Key frames every 2 s; the GOP's B-frames show before the P-frames decoded ahead of them.
      const gop = await decodeOrderFrom(video, 91, 60);
      expect(gop.key).toBe(90);
      expect(gop.times.slice(0, 5)).toEqual([90, 90.133, 90.067, 90.033, 90.1]);
      expect([...gop.times].sort((a, b) => a - b)).toEqual(
        Array.from({ length: 60 }, (_, i) => Math.round((90 + i / 30) * 1000) / 1000),
      );
      const sound = new EncodedPacketSink(audio);
      const heard = await sound.getPacket(90);
      expect([heard?.timestamp, heard?.duration]).toEqual([89.984, 1024 / 48_000]);
      expect((await sound.getPacket(119.99))?.sequenceNumber).toBe(120 * (48_000 / 1024) - 1);
      input.dispose();
    },
  );

  it("makes every frame an intra frame without B-frames, and leaves audio out", async () => {
    const input = open(
      await longMp4({ hours: 1 / 60, bFrames: false, audio: false, fps: 25, gopFrames: 50 }),
    );
    const video = await input.getPrimaryVideoTrack();
    if (!video) throw new Error("no video");
    expect(await input.getPrimaryAudioTrack()).toBeNull();
    const gop = await decodeOrderFrom(video, 31, 4);
    expect(gop).toEqual({ key: 30, times: [30, 30.04, 30.08, 30.12] });
    input.dispose();
  });

  it("refuses a GOP length whose packets do not show a whole run of frames", async () => {
    await expect(longMp4({ hours: 1, gopFrames: 7 })).rejects.toThrow(/not frames 0 to 6/);
  });
});
