import { CustomSource, EncodedPacketSink, Input, MATROSKA, WEBM } from "mediabunny";
import { describe, expect, it } from "vitest";
import type { RangeSource } from "../../../src/domain/media";
import { probeMedia } from "../../../src/media/probe";
import { longMkvVideo } from "../../helpers/long-mkv-video";

function open(source: RangeSource): Input {
  return new Input({
    formats: [MATROSKA, WEBM],
    source: new CustomSource({ getSize: () => source.size, read: (s, e) => source.read(s, e) }),
  });
}

const kinds = [
  { container: "mkv", cues: true, video: ["avc", 1920], audio: ["aac", 89.984] },
  { container: "mkv", cues: false, video: ["avc", 1920], audio: ["aac", 89.984] },
  { container: "webm", cues: true, video: ["vp9", 160], audio: ["opus", 90] },
] as const;

describe("longMkvVideo", () => {
  it.each(kinds)(
    "makes 2 minutes of $container (Cues: $cues) that mediabunny reads at 1:30",
    async ({ container, cues, video, audio }) => {
      const input = open(await longMkvVideo({ hours: 2 / 60, container, cues }));
      const picture = await input.getPrimaryVideoTrack();
      const sound = await input.getPrimaryAudioTrack();
      if (!picture || !sound) throw new Error("a track is missing");
      expect(await input.getFormat()).toBe(container === "mkv" ? MATROSKA : WEBM);
      expect([await picture.getCodec(), await picture.getDisplayWidth()]).toEqual(video);
      const frames = new EncodedPacketSink(picture);
      const key = await frames.getKeyPacket(91);
      expect([key?.timestamp, key?.type]).toEqual([90, "key"]);
      // The GOP's frames in decode order show 2 s from the key frame, each once.
      const shown: number[] = [];
      for await (const packet of frames.packets(key ?? undefined, undefined, {
        metadataOnly: true,
      })) {
        if (shown.length === 50) break;
        shown.push(Math.round(packet.timestamp * 1000) / 1000);
      }
      expect(shown.sort((a, b) => a - b)).toEqual(
        Array.from({ length: 50 }, (_, i) => Math.round((90 + i * 0.04) * 1000) / 1000),
      );
      const heard = await new EncodedPacketSink(sound).getPacket(90);
      expect([await sound.getCodec(), heard?.timestamp]).toEqual(audio);
      expect(heard?.byteLength).toBeGreaterThan(0);
      input.dispose();
    },
  );

  it.each(kinds)(
    "is measured by the probe as 2 minutes at 25 fps ($container, Cues: $cues)",
    async ({ container, cues }) => {
      const source = await longMkvVideo({ hours: 2 / 60, container, cues });
      const probe = await probeMedia(source, {
        filename: `long.${container}`,
        contentType: `video/${container === "mkv" ? "x-matroska" : "webm"}`,
      });
      expect({
        container: probe.container,
        duration: probe.duration,
        frames: probe.video?.frameCount,
        fps: probe.video?.fps,
        keyframes: probe.keyframes.length,
        lastKey: probe.keyframes.at(-1),
      }).toEqual({ container, duration: 120, frames: 3000, fps: 25, keyframes: 60, lastKey: 118 });
    },
  );
});
