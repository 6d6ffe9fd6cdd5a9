import {
  BufferTarget,
  EncodedAudioPacketSource,
  EncodedPacket,
  EncodedVideoPacketSource,
  MovOutputFormat,
  Mp4OutputFormat,
  Output,
  type PCM_AUDIO_CODECS,
} from "mediabunny";

/** A PCM codec's name, as mediabunny spells it. */
export type PcmAudioCodec = (typeof PCM_AUDIO_CODECS)[number];

/** How a generated video track's frames are timed and ordered. */
export interface VideoPlan {
  /** Each frame's duration in ticks, in presentation order; frames of 0 share a time. */
  ticks: number[];
  /** Seconds per tick. */
  tick: number;
  /** The first frame's time, in ticks (negative or positive times give the track an edit). */
  start: number;
  /** Frames per second the muxer snaps to (its timescale); undefined for mediabunny's 57,600. */
  frameRate: number | undefined;
  /** Decode positions after the first that start a group of pictures with a key frame. */
  keys: number[];
  /** Reorder windows, cycled: [size, order] with order 0 as is, 1 last first, 2 reversed. */
  windows: [number, number][];
  /** The decoder config of a real track of the codec, so the muxer takes the packets. */
  config: VideoDecoderConfig;
}

/** How a generated audio track's packets are timed: AAC, or PCM (where a chunk is a packet). */
export interface AudioPlan {
  /** Each packet's duration in frames (PCM: also its length). */
  frames: number[];
  /** The first packet's time, in frames. */
  start: number;
  codec: "aac" | PcmAudioCodec;
  sampleRate: number;
  channels: number;
  /** For AAC, a real track's decoder config; PCM needs none. */
  config: AudioDecoderConfig | null;
}

/** A file to write: a container, where its moov goes, and one or two tracks. */
export interface FilePlan {
  container: "mp4" | "mov";
  fastStart: false | "in-memory";
  video: VideoPlan | null;
  audio: AudioPlan | null;
  /** The most bytes a video or AAC packet holds (at least 4); 303 unless given. */
  packetBytes?: number;
}

/** Bytes per frame per channel of a PCM codec the muxer writes. */
export const PCM_BYTES: Partial<Record<PcmAudioCodec, number>> = {
  "pcm-s16": 2,
  "pcm-s24be": 3,
  "pcm-f32": 4,
  "pcm-f64be": 8,
  // QuickTime only.
  "pcm-u8": 1,
  ulaw: 1,
};

/** Writes `plan` with mediabunny's muxer; each packet's bytes differ from every other's. */
export async function writePlan(plan: FilePlan): Promise<Uint8Array> {
  const target = new BufferTarget();
  const options = { fastStart: plan.fastStart } as const;
  const output = new Output({
    format: plan.container === "mov" ? new MovOutputFormat(options) : new Mp4OutputFormat(options),
    target,
  });
  const { video, audio } = plan;
  const sizes = (i: number) => 4 + (i % ((plan.packetBytes ?? 303) - 3));
  const videoOut = video === null ? null : new EncodedVideoPacketSource("avc");
  const audioOut = audio === null ? null : new EncodedAudioPacketSource(audio.codec);
  if (video !== null && videoOut !== null) {
    output.addVideoTrack(
      videoOut,
      video.frameRate === undefined ? {} : { frameRate: video.frameRate },
    );
  }
  if (audio !== null && audioOut !== null) output.addAudioTrack(audioOut);
  await output.start();
  if (video !== null && videoOut !== null) {
    for (const [i, packet] of videoPackets(video, sizes).entries()) {
      await videoOut.add(packet, i === 0 ? { decoderConfig: video.config } : undefined);
    }
  }
  if (audio !== null && audioOut !== null) {
    const config = audio.config ?? {
      codec: audio.codec,
      sampleRate: audio.sampleRate,
      numberOfChannels: audio.channels,
    };
    for (const [i, packet] of audioPackets(audio, sizes).entries()) {
      await audioOut.add(packet, i === 0 ? { decoderConfig: config } : undefined);
    }
  }
  await output.finalize();
  return new Uint8Array(target.buffer ?? new ArrayBuffer(0));
}

/** Bytes no other packet of the file has: `salt` (track and position), then a pattern. */
function payload(length: number, salt: number): Uint8Array {
  const bytes = Uint8Array.from({ length }, (_, i) => (i * 7 + salt) & 0xff);
  if (length >= 4) new DataView(bytes.buffer).setUint32(0, salt);
  return bytes;
}

/**
 * Frames in decode order: times in presentation order are dealt out by groups of pictures,
 * and inside a group by windows whose frames decode out of order, as B-frames do.
 */
function videoPackets(plan: VideoPlan, sizes: (i: number) => number): EncodedPacket[] {
  const times: number[] = [];
  let at = plan.start;
  for (const ticks of plan.ticks) {
    times.push(at);
    at += ticks;
  }
  const keys = new Set(plan.keys.filter((key) => key > 0 && key < times.length));
  const order: number[] = [];
  let window = 0;
  for (let from = 0; from < times.length; ) {
    let to = from + 1;
    while (to < times.length && !keys.has(to)) to++;
    // One group of pictures [from, to): never reordered across its key frame's boundary.
    for (let first = from; first < to; window++) {
      const [size, kind] = plan.windows[window % plan.windows.length] ?? [1, 0];
      const slots = Array.from({ length: Math.min(size, to - first) }, (_, i) => first + i);
      if (kind === 1) slots.unshift(slots.pop() ?? first);
      if (kind === 2) slots.reverse();
      order.push(...slots);
      first += slots.length;
    }
    from = to;
  }
  return order.map((shown, decoded) => {
    const start = times[shown] ?? 0;
    // The frame decoded last lasts a tick at least: without reordering, mediabunny's lookup
    // divides 0 by 0 at the start of a final run of zero-length samples and finds nothing.
    const ticks = Math.max(plan.ticks[shown] ?? 1, decoded === order.length - 1 ? 1 : 0);
    const data = payload(sizes(decoded * 37), decoded);
    const type = decoded === 0 || keys.has(decoded) ? "key" : "delta";
    return new EncodedPacket(data, type, start * plan.tick, ticks * plan.tick);
  });
}

/** Audio packets back to back; a PCM packet holds exactly its frames' bytes. */
function audioPackets(plan: AudioPlan, sizes: (i: number) => number): EncodedPacket[] {
  const frameBytes = (PCM_BYTES[plan.codec as PcmAudioCodec] ?? 0) * plan.channels;
  let at = plan.start;
  return plan.frames.map((frames, i) => {
    const length = frameBytes > 0 ? frames * frameBytes : sizes(i * 53);
    const packet = new EncodedPacket(
      payload(length, 0x10000 + i),
      "key",
      at / plan.sampleRate,
      frames / plan.sampleRate,
    );
    at += frames;
    return packet;
  });
}
