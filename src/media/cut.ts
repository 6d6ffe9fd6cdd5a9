import {
  BufferTarget,
  CustomSource,
  EncodedAudioPacketSource,
  type EncodedPacket,
  EncodedPacketSink,
  EncodedVideoPacketSource,
  Input,
  type InputAudioTrack,
  type InputTrack,
  type InputVideoTrack,
  Logging,
  LogLevel,
  MATROSKA,
  MP4,
  Mp4OutputFormat,
  Output,
  QTFF,
  WEBM,
  WebMOutputFormat,
} from "mediabunny";
import type { ClusterIndex, RangeSource } from "../domain/media";
import { pcmSampleBytes, readBmffIndex, SampleIndex } from "./bmff-samples";
import { withClusterCues } from "./cluster-index";
import { bytesSource } from "./range-reader";

// mediabunny warns on stdout about tracks it skips (subtitles); only its errors are worth a line.
Logging.level = LogLevel.Errors;

/** mediabunny's read cache per window: the container index plus the packets being copied. */
const MAX_CACHE_BYTES = 8 * 1024 * 1024;
/** Codecs a WebM file carries; everything else is written as MP4 (M4A for audio). */
const WEBM_CODECS = new Set(["opus", "vorbis", "vp8", "vp9", "av1"]);
/** How far past the wanted frame a cut reaches for the frames it is decoded from. */
const REFERENCE_MARGIN_SECONDS = 0.5;

/** A stretch of the source's audio, copied without decoding into a small file of its own. */
export interface AudioCut {
  bytes: Uint8Array;
  mimeType: string;
  /** Source time of the first and past the last copied packet, in seconds. */
  start: number;
  end: number;
}

/** A few frames of the source's video, copied without decoding, and where the wanted one sits. */
export interface FrameCut {
  bytes: Uint8Array;
  /** Whole seconds from the cut's start to the frame to take (the binding takes `Ns`). */
  offset: number;
  /** Source time of that frame, in seconds. */
  time: number;
}

/** The packets a frame cut copies: from `key` up to source time `stop`, `bytes` in all. */
export interface FrameSpan {
  key: EncodedPacket;
  offset: number;
  stop: number;
  bytes: number;
}

/** Thrown when the source's codec cannot be copied into a file of its own. */
export class UncuttableError extends Error {}

/** A frame whose smallest cut (its key frame) would not fit the memory cuts are made in. */
export class FrameTooLargeError extends UncuttableError {}

/**
 * Opens the source for cutting: only the container index and the packets a cut copies are
 * read, by ranges, so a 10 GiB file costs what one window of it costs. Nothing is read until
 * the first cut. `clusterIndex` gives a Matroska file without Cues the Cues it lacks.
 */
export function openCutter(
  source: RangeSource,
  objectKey: string,
  clusterIndex?: () => Promise<ClusterIndex | null>,
): Cutter {
  return new Cutter(objectKey, source, clusterIndex);
}

/** The packets of one track, looked up as a cut needs them. */
interface PacketTrack {
  /** The packet shown last at or before `time`. */
  at(time: number, options?: { metadataOnly?: boolean }): Promise<EncodedPacket | null>;
  /** The key packet shown last at or before `time`. */
  keyAt(time: number, options?: { metadataOnly?: boolean }): Promise<EncodedPacket | null>;
  first(): Promise<EncodedPacket | null>;
  firstKey(options?: { metadataOnly?: boolean }): Promise<EncodedPacket | null>;
  next(packet: EncodedPacket): Promise<EncodedPacket | null>;
  /** Packets in decode order from `from`. */
  from(from: EncodedPacket, options?: { metadataOnly?: boolean }): AsyncIterable<EncodedPacket>;
  /** A key packet looked up from metadata only, as `from` copies from it. */
  copyFrom(key: EncodedPacket): Promise<EncodedPacket | null>;
}

/**
 * How a source's packets are read. A non-fragmented MP4/MOV keeps its index in sample tables
 * that grow with the duration (about 18 MB an hour of 1080p); mediabunny expands them whole,
 * so they are read by ranges here and mediabunny reads only the moov without them.
 * Matroska, WebM and fragmented MP4 are read by mediabunny, whose indexes stay small.
 */
interface Opened {
  input: Input;
  packets(track: InputTrack): PacketTrack;
}

/** Cuts windows out of one opened source; `dispose` when done. */
export class Cutter {
  private opened: Promise<Opened> | null = null;
  private input: Input | null = null;

  constructor(
    private readonly objectKey: string,
    private readonly source: RangeSource,
    private readonly clusterIndex?: () => Promise<ClusterIndex | null>,
  ) {}

  /** Opens the source once; a failed open (storage down) is tried again by the next cut. */
  private open(): Promise<Opened> {
    this.opened ??= this.openSource().catch((error: unknown) => {
      this.opened = null;
      throw error;
    });
    return this.opened;
  }

  private async openSource(): Promise<Opened> {
    const index = await readBmffIndex(this.source);
    if (index === null) {
      // Without Cues mediabunny reaches a time by reading every Cluster before it.
      const clusters = this.clusterIndex && (await this.clusterIndex());
      const seekable = clusters ? withClusterCues(this.source, clusters) : null;
      const input = this.keep(inputOver(seekable ?? this.source));
      return { input, packets: (track) => sinkTrack(new EncodedPacketSink(track)) };
    }
    const input = this.keep(inputOver(bytesSource(index.headers)));
    const tracks = new Map<number, Promise<SampleIndex>>();
    return {
      input,
      packets: (track) => {
        const tables = index.tracks.get(track.id);
        if (tables === undefined) throw new UncuttableError(`track ${track.id} has no index`);
        let opened = tracks.get(track.id);
        if (opened === undefined) {
          opened = (async () => {
            const bytes = track.isAudioTrack() ? pcmSampleBytes(await track.getCodec()) : undefined;
            const pcm =
              bytes === undefined || !track.isAudioTrack()
                ? undefined
                : { sampleBytes: bytes, channels: await track.getNumberOfChannels() };
            return SampleIndex.open(index.source, tables, pcm);
          })().catch((error: unknown) => {
            tracks.delete(track.id);
            throw error;
          });
          tracks.set(track.id, opened);
        }
        return indexTrack(opened);
      },
    };
  }

  /** Keeps the input to dispose of with the cutter. */
  private keep(input: Input): Input {
    this.input = input;
    return input;
  }

  /**
   * Each cut names where it comes from in its comment tag (the source object and the source
   * time of its first packet): for tracing a model's answer back, and read by the local
   * platform simulators, which answer from the source's own captions.
   */
  private label(start: number): { comment: string } {
    return { comment: JSON.stringify({ cut_of: this.objectKey, start }) };
  }

  dispose(): void {
    this.input?.dispose();
  }

  /** The audio packets that start in [start, end), as M4A or WebM; null without audio. */
  async audio(start: number, end: number): Promise<AudioCut | null> {
    const { input, packets } = await this.open();
    const track = await input.getPrimaryAudioTrack();
    if (!track) return null;
    const codec = await track.getCodec();
    if (!codec) throw new UncuttableError("the audio codec is unknown");
    const sink = packets(track);
    const atStart = (await sink.at(start)) ?? (await sink.first());
    // The packet playing at `start` began in the window before; this one starts with the next.
    const first = atStart && atStart.timestamp < start ? await sink.next(atStart) : atStart;
    if (!first || first.timestamp >= end) return null;
    const webm = WEBM_CODECS.has(codec);
    const output = new Output({
      format: webm ? new WebMOutputFormat() : new Mp4OutputFormat({ fastStart: "in-memory" }),
      target: new BufferTarget(),
    });
    const out = new EncodedAudioPacketSource(codec);
    output.addAudioTrack(out);
    output.setMetadataTags(this.label(first.timestamp));
    await output.start();
    const copied = await copyPackets(
      sink,
      first,
      (p) => p.timestamp < end,
      async (p, meta) => {
        await out.add(p, meta ? { decoderConfig: await decoderConfig(track) } : undefined);
      },
    );
    await output.finalize();
    const bytes = new Uint8Array(output.target.buffer ?? new ArrayBuffer(0));
    return {
      bytes,
      mimeType: webm ? "audio/webm" : "audio/mp4",
      start: copied.start,
      end: copied.end,
    };
  }

  /**
   * The frame shown at about `time`: the packets from the key frame before it up to it, as a
   * video-only file, with the frame at a whole-second offset no later than `maxOffset`. When
   * that cut would exceed `maxBytes`, the key frame alone is cut (the frame taken is then the
   * key frame's), however large. Null without video.
   */
  async frame(
    time: number,
    limits: { maxOffset: number; maxBytes: number },
  ): Promise<FrameCut | null> {
    const span = await this.frameSpan(time, limits);
    return span && this.cutFrame(span);
  }

  /**
   * What `frame` would copy, read from packet metadata only: so its bytes can be budgeted
   * before they are held. Null without video.
   */
  async frameSpan(
    time: number,
    limits: { maxOffset: number; maxBytes: number },
  ): Promise<FrameSpan | null> {
    const { input, packets } = await this.open();
    const track = await input.getPrimaryVideoTrack();
    if (!track) return null;
    if (!(await track.getCodec())) throw new UncuttableError("the video codec is unknown");
    const sink = packets(track);
    // A span is planned from packet metadata: no frame's bytes are read before it is budgeted.
    const meta = { metadataOnly: true };
    const key = (await sink.keyAt(time, meta)) ?? (await sink.firstKey(meta));
    if (!key) return null;
    const offset = Math.max(0, Math.min(limits.maxOffset, Math.round(time - key.timestamp)));
    const last = offset === 0 ? null : await sink.at(key.timestamp + offset, meta);
    if (last) {
      const span = await spanTo(sink, key, offset, last);
      if (span.bytes <= limits.maxBytes) return span;
    }
    return spanTo(sink, key, 0, key);
  }

  /** Copies a span `frameSpan` found into a file of its own. */
  async cutFrame(span: FrameSpan): Promise<FrameCut> {
    const { input, packets } = await this.open();
    const track = await input.getPrimaryVideoTrack();
    const codec = await track?.getCodec();
    if (!track || !codec) throw new UncuttableError("the video track is gone");
    const { offset, stop } = span;
    const sink = packets(track);
    const key = await sink.copyFrom(span.key);
    if (key?.sequenceNumber !== span.key.sequenceNumber) {
      throw new UncuttableError("the key frame cannot be found again");
    }
    const output = new Output({
      format: WEBM_CODECS.has(codec)
        ? new WebMOutputFormat()
        : new Mp4OutputFormat({ fastStart: "in-memory" }),
      target: new BufferTarget(),
    });
    const out = new EncodedVideoPacketSource(codec);
    output.addVideoTrack(out);
    output.setMetadataTags(this.label(key.timestamp));
    await output.start();
    await copyPackets(
      sink,
      key,
      (p) => p.timestamp <= stop,
      async (p, meta) => {
        await out.add(p, meta ? { decoderConfig: await videoDecoderConfig(track) } : undefined);
      },
    );
    await output.finalize();
    return {
      bytes: new Uint8Array(output.target.buffer ?? new ArrayBuffer(0)),
      offset,
      time: key.timestamp + offset,
    };
  }
}

function inputOver(source: RangeSource): Input {
  return new Input({
    formats: [MP4, QTFF, WEBM, MATROSKA],
    source: new CustomSource({
      getSize: () => source.size,
      read: (start, end) => source.read(start, end),
      maxCacheSize: MAX_CACHE_BYTES,
      prefetchProfile: "none",
    }),
  });
}

function sinkTrack(sink: EncodedPacketSink): PacketTrack {
  return {
    at: (time, options) => sink.getPacket(time, options),
    keyAt: (time, options) => sink.getKeyPacket(time, options),
    first: () => sink.getFirstPacket(),
    firstKey: (options) => sink.getFirstKeyPacket(options),
    next: (packet) => sink.getNextPacket(packet),
    from: (from, options) => sink.packets(from, undefined, options),
    // mediabunny starts a copy with the very packet it is given, so it needs its bytes.
    copyFrom: (key) =>
      key.isMetadataOnly ? sink.getKeyPacket(key.timestamp) : Promise.resolve(key),
  };
}

function indexTrack(opened: Promise<SampleIndex>): PacketTrack {
  return {
    at: async (time, options) => {
      const index = await opened;
      return index.packet(await index.indexAt(time), options);
    },
    keyAt: async (time, options) => {
      const index = await opened;
      return index.packet(await index.keyIndexAt(time), options);
    },
    first: async () => (await opened).packet(0),
    firstKey: async (options) => (await opened).packet(0, options),
    next: async (packet) => (await opened).packet(packet.sequenceNumber + 1),
    from: async function* (from, options) {
      yield* (await opened).packets(from.sequenceNumber, options);
    },
    // The index reads a copy's packets from their positions, the first one included.
    copyFrom: async (key) => key,
  };
}

/** Copies packets in decode order from `first` while `keep` holds, rebased to start at 0. */
async function copyPackets(
  sink: PacketTrack,
  first: EncodedPacket,
  keep: (packet: EncodedPacket) => boolean,
  add: (packet: EncodedPacket, withConfig: boolean) => Promise<void>,
): Promise<{ start: number; end: number }> {
  const start = first.timestamp;
  let end = start;
  let withConfig = true;
  for await (const packet of sink.from(first)) {
    if (!keep(packet)) break;
    // Leading frames of an open GOP show before the key frame and need the GOP before it.
    if (packet.timestamp < start) continue;
    await add(packet.clone({ timestamp: Math.max(0, packet.timestamp - start) }), withConfig);
    withConfig = false;
    end = Math.max(end, packet.timestamp + packet.duration);
  }
  return { start, end };
}

/** The span from `key` to the frame `last`, `offset` seconds after it, and what it copies. */
async function spanTo(
  sink: PacketTrack,
  key: EncodedPacket,
  offset: number,
  last: EncodedPacket,
): Promise<FrameSpan> {
  // Frames shortly after the wanted one may be its references (B-frames decode after them).
  const stop = last.timestamp + REFERENCE_MARGIN_SECONDS;
  return { key, offset, stop, bytes: await bytesCopied(sink, key, stop) };
}

/** The packet bytes `copyPackets` copies from `first` while packets start by `stop`. */
async function bytesCopied(sink: PacketTrack, first: EncodedPacket, stop: number): Promise<number> {
  let total = 0;
  for await (const packet of sink.from(first, { metadataOnly: true })) {
    if (packet.timestamp > stop) break;
    if (packet.timestamp >= first.timestamp) total += packet.byteLength;
  }
  return total;
}

async function decoderConfig(track: InputAudioTrack): Promise<AudioDecoderConfig> {
  const config = await track.getDecoderConfig();
  if (!config) throw new UncuttableError("the audio track has no decoder configuration");
  return config;
}

async function videoDecoderConfig(track: InputVideoTrack): Promise<VideoDecoderConfig> {
  const config = await track.getDecoderConfig();
  if (!config) throw new UncuttableError("the video track has no decoder configuration");
  return config;
}
