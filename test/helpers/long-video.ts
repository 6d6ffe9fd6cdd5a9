import {
  ALL_FORMATS,
  BufferSource,
  BufferTarget,
  EncodedAudioPacketSource,
  type EncodedPacket,
  EncodedPacketSink,
  EncodedVideoPacketSource,
  Input,
  type InputAudioTrack,
  type InputVideoTrack,
  type MetadataTags,
  MkvOutputFormat,
  Mp4OutputFormat,
  Output,
  StreamTarget,
  type StreamTargetChunk,
  TextSubtitleSource,
  WebMOutputFormat,
} from "mediabunny";

/** What a looped video is made of and how it is written. */
export interface LoopOptions {
  /** How many times the fixture plays back to back. */
  loops: number;
  container?: "mp4" | "mkv" | "webm";
  tags?: MetadataTags;
  /** A caption for each loop (a WebVTT track with one cue a loop), when given. */
  caption?: (loop: number) => string;
  /** Written there as it is made (moov at the end), instead of answered as bytes. */
  writable?: WritableStream<StreamTargetChunk>;
}

interface TrackPackets {
  packets: EncodedPacket[];
  config: VideoDecoderConfig | AudioDecoderConfig;
  codec: string;
}

async function packetsOf(
  track: InputVideoTrack | InputAudioTrack | null,
): Promise<TrackPackets | null> {
  if (!track) return null;
  const codec = await track.getCodec();
  const config = await track.getDecoderConfig();
  if (!codec || !config) return null;
  const packets: EncodedPacket[] = [];
  for await (const packet of new EncodedPacketSink(track).packets()) packets.push(packet);
  return { packets, config, codec };
}

/**
 * A real, playable video made by playing a small fixture `loops` times back to back: its
 * packets are copied with shifted times (no decoding), so a few seconds of captioned fixture
 * become minutes or hours of valid H.264/AAC. Each loop starts on the fixture's key frame.
 */
export async function loopVideo(fixture: Uint8Array, options: LoopOptions): Promise<Uint8Array> {
  const input = new Input({ formats: ALL_FORMATS, source: new BufferSource(fixture) });
  const video = await packetsOf(await input.getPrimaryVideoTrack());
  const audio = await packetsOf(await input.getPrimaryAudioTrack());
  input.dispose();
  const tracks = [video, audio].filter((t) => t !== null);
  const times = tracks.flatMap((t) =>
    t.packets.map((p) => [p.timestamp, p.timestamp + p.duration]),
  );
  // A loop lasts from the earliest packet start (AAC priming starts before 0) to the last end.
  const loopSeconds =
    Math.max(...times.map(([, e]) => e ?? 0)) - Math.min(...times.map(([s]) => s ?? 0));
  const container = options.container ?? "mp4";
  const streamed = options.writable !== undefined;
  const target = options.writable
    ? new StreamTarget(options.writable, { chunked: true })
    : new BufferTarget();
  const output = new Output({
    format:
      container === "mp4"
        ? new Mp4OutputFormat({ fastStart: streamed ? false : "in-memory" })
        : container === "webm"
          ? new WebMOutputFormat()
          : new MkvOutputFormat(),
    target,
  });
  const videoOut = video ? new EncodedVideoPacketSource(video.codec as "avc") : null;
  const audioOut = audio ? new EncodedAudioPacketSource(audio.codec as "aac") : null;
  if (videoOut) output.addVideoTrack(videoOut);
  if (audioOut) output.addAudioTrack(audioOut);
  const captions = options.caption ? new TextSubtitleSource("webvtt") : null;
  if (captions) output.addSubtitleTrack(captions, { languageCode: "eng" });
  if (options.tags) output.setMetadataTags(options.tags);
  await output.start();
  for (let loop = 0; loop < options.loops; loop++) {
    const shift = loop * loopSeconds;
    const first = loop === 0;
    if (captions && options.caption) {
      const cue = `${vttTime(shift + 0.1)} --> ${vttTime(shift + loopSeconds - 0.1)}\n${options.caption(loop)}\n\n`;
      await captions.add(first ? `WEBVTT\n\n${cue}` : cue);
    }
    for (const [track, out] of [
      [video, videoOut],
      [audio, audioOut],
    ] as const) {
      if (!track || !out) continue;
      for (const [i, packet] of track.packets.entries()) {
        const moved = packet.clone({ timestamp: packet.timestamp + shift });
        const meta = first && i === 0 ? { decoderConfig: track.config } : undefined;
        if (out instanceof EncodedVideoPacketSource) {
          await out.add(moved, meta as EncodedVideoChunkMetadata | undefined);
        } else {
          await out.add(moved, meta as EncodedAudioChunkMetadata | undefined);
        }
      }
    }
  }
  captions?.close();
  await output.finalize();
  return target instanceof BufferTarget
    ? new Uint8Array(target.buffer ?? new ArrayBuffer(0))
    : new Uint8Array(0);
}

/** `hh:mm:ss.mmm`, WebVTT's cue time. */
function vttTime(seconds: number): string {
  const ms = Math.round(seconds * 1000);
  const pad = (n: number, width = 2) => String(n).padStart(width, "0");
  return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}.${pad(ms % 1000, 3)}`;
}
