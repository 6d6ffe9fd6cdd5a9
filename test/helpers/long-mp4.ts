import { ALL_FORMATS, BufferSource, EncodedPacketSink, Input } from "mediabunny";
import type { RangeSource } from "../../src/domain/media";
import clip1080pMp4 from "../fixtures/media/clip-1080p.mp4?inline";
import { box, fourCc, type Piece, piecesLength, piecesSource, table } from "./bmff-pieces";
import { dataUrlBytes } from "./data-url";
import { moovBox, type TrackPlan } from "./long-mp4-moov";

/** What a long synthetic MP4 holds. */
export interface LongMp4Options {
  hours: number;
  fps?: number;
  /**
   * Frames from one listed key frame (stss) to the next: the first `gopFrames` packets of
   * clip-1080p.mp4 in decode order, which must show frames 0 to gopFrames - 1 (50 and 60 do; 100
   * at most). The clip has a key frame every 50 frames, so a GOP of 60 holds a second, unlisted
   * one, which decoders take as any other frame.
   */
  gopFrames?: number;
  /** With B-frames (and a ctts box); without, every frame is the clip's first key frame. */
  bFrames?: boolean;
  audio?: boolean;
  /** `moov` before `mdat` instead of after it. */
  moovFirst?: boolean;
  /** 64-bit chunk offsets (co64) instead of stco. */
  co64?: boolean;
  /**
   * Each video packet padded with zeros to this many bytes (never allocated): cuts of a chosen
   * size, for measuring what cutting holds. The padding is not valid H.264, so such a file is
   * cut, never decoded.
   */
  frameBytes?: number;
}

/** The video's timescale: 90 kHz, which every common whole frame rate divides. */
const VIDEO_TIMESCALE = 90_000;
/** Samples per AAC frame. */
const AAC_FRAME = 1024;

interface Fixture {
  stsd: { vide: Uint8Array; soun: Uint8Array };
  width: number;
  height: number;
  /** Video packets in decode order: bytes and presentation time in frames. */
  video: { data: Uint8Array; frame: number }[];
  audio: Uint8Array[];
  sampleRate: number;
}

let fixture: Promise<Fixture> | undefined;

/**
 * A valid, non-fragmented MP4 of `hours` of 1080p H.264 and AAC, whose samples are real packets
 * of clip-1080p.mp4: `mdat` holds one GOP and the clip's audio once, and every chunk points back
 * into that copy. The file is little more than its `moov` (20 MB for 10 hours), whose sample
 * tables are computed per read: a 50-hour file costs under 1 MB of memory. Its length is rounded
 * up to whole GOPs; times run at `fps` whatever the clip's own rate.
 */
export async function longMp4(options: LongMp4Options): Promise<RangeSource> {
  const { hours, fps = 30, gopFrames = 60, bFrames = true, audio = true } = options;
  if (VIDEO_TIMESCALE % fps !== 0) throw new Error(`${fps} fps does not divide 90 kHz.`);
  fixture ??= readFixture();
  const clip = await fixture;
  const packets = bFrames ? bFramesGop(clip, gopFrames) : keyFramesGop(clip, gopFrames);
  const gop: Piece[][] =
    options.frameBytes === undefined
      ? packets.map((packet) => [packet])
      : padded(packets, options.frameBytes);
  const seconds = hours * 3600;
  let dataStart = 0;
  const delta = VIDEO_TIMESCALE / fps;
  const tracks: TrackPlan[] = [
    {
      id: 1,
      stsd: clip.stsd.vide,
      timescale: VIDEO_TIMESCALE,
      sampleCount: Math.ceil((seconds * fps) / gopFrames) * gopFrames,
      sampleDelta: delta,
      unitSizes: gop.map((packet) => piecesLength(packet)),
      unitOffsets: bFrames ? compositionOffsets(clip, gopFrames).map((o) => o * delta) : null,
      mediaStart: bFrames ? compositionShift(clip, gopFrames) * delta : 0,
      video: { width: clip.width, height: clip.height },
      chunkOffset: () => dataStart,
    },
  ];
  const gopBytes = gop.reduce((n, packet) => n + piecesLength(packet), 0);
  if (audio) {
    tracks.push({
      id: 2,
      stsd: clip.stsd.soun,
      timescale: clip.sampleRate,
      sampleCount: Math.ceil((seconds * clip.sampleRate) / AAC_FRAME),
      sampleDelta: AAC_FRAME,
      unitSizes: clip.audio.map((packet) => packet.length),
      unitOffsets: null,
      mediaStart: 0,
      video: null,
      chunkOffset: () => dataStart + gopBytes,
    });
  }
  const ftyp = box("ftyp", [fourCc("isom"), fourCc("\0\0\x02\0"), fourCc("isomiso2avc1mp41")]);
  const mdat = box("mdat", gop.flat(), audio ? clip.audio : []);
  const moov = moovBox(tracks, options.co64 ?? false);
  const pieces: Piece[] = options.moovFirst
    ? [...ftyp, ...moov, ...mdat]
    : [...ftyp, ...mdat, ...moov];
  dataStart = piecesLength(options.moovFirst ? [...ftyp, ...moov] : ftyp) + 8;
  return piecesSource(pieces);
}

/** Each packet followed by zeros up to `bytes`, the zeros a table that writes nothing. */
function padded(packets: Uint8Array[], bytes: number): Piece[][] {
  return packets.map((packet) => {
    if (packet.length > bytes)
      throw new Error(`A packet of ${packet.length} bytes exceeds ${bytes}.`);
    return [packet, table(bytes - packet.length, 1, () => undefined)];
  });
}

/** The first `frames` video packets, when they show frames 0 to frames - 1. */
function bFramesGop(clip: Fixture, frames: number): Uint8Array[] {
  const shown = new Set(clip.video.slice(0, frames).map((packet) => packet.frame));
  const closed = shown.size === frames && [...shown].every((frame) => frame < frames);
  if (!closed)
    throw new Error(`The clip's first ${frames} packets are not frames 0 to ${frames - 1}.`);
  return clip.video.slice(0, frames).map((packet) => packet.data);
}

/** Every frame the clip's first key frame: intra-coded, so decoding needs no reordering. */
function keyFramesGop(clip: Fixture, frames: number): Uint8Array[] {
  const key = clip.video[0]?.data;
  if (!key) throw new Error("The clip has no video.");
  return Array.from({ length: frames }, () => key);
}

/** How far the most reordered frame shows before its decode slot, in frames. */
function compositionShift(clip: Fixture, frames: number): number {
  return Math.max(0, ...clip.video.slice(0, frames).map((packet, i) => i - packet.frame));
}

/** Each packet's presentation minus decode time plus the shift, in frames (never negative). */
function compositionOffsets(clip: Fixture, frames: number): number[] {
  const shift = compositionShift(clip, frames);
  return clip.video.slice(0, frames).map((packet, i) => packet.frame - i + shift);
}

async function readFixture(): Promise<Fixture> {
  const bytes = dataUrlBytes(clip1080pMp4);
  const input = new Input({ formats: ALL_FORMATS, source: new BufferSource(bytes) });
  const video = await input.getPrimaryVideoTrack();
  const audio = await input.getPrimaryAudioTrack();
  if (!video || !audio) throw new Error("clip-1080p.mp4 has lost a track.");
  const videoPackets: Fixture["video"] = [];
  for await (const packet of new EncodedPacketSink(video).packets()) {
    videoPackets.push({ data: packet.data, frame: Math.round(packet.timestamp / packet.duration) });
  }
  const audioPackets: Uint8Array[] = [];
  for await (const packet of new EncodedPacketSink(audio).packets()) audioPackets.push(packet.data);
  const result: Fixture = {
    stsd: { vide: stsdOf(bytes, "vide"), soun: stsdOf(bytes, "soun") },
    width: await video.getDisplayWidth(),
    height: await video.getDisplayHeight(),
    video: videoPackets,
    audio: audioPackets,
    sampleRate: await audio.getSampleRate(),
  };
  input.dispose();
  return result;
}

/** The `stsd` box, verbatim, of the fixture's track with handler `handler`. */
function stsdOf(mp4: Uint8Array, handler: string): Uint8Array {
  const moov = childBoxes(mp4, 0, mp4.length).find((b) => b.type === "moov");
  for (const trak of moov ? childBoxes(mp4, moov.start + 8, moov.end) : []) {
    if (trak.type !== "trak") continue;
    const mdia = childBoxes(mp4, trak.start + 8, trak.end).find((b) => b.type === "mdia");
    if (!mdia) continue;
    const inMdia = childBoxes(mp4, mdia.start + 8, mdia.end);
    const hdlr = inMdia.find((b) => b.type === "hdlr");
    if (
      !hdlr ||
      new TextDecoder().decode(mp4.subarray(hdlr.start + 16, hdlr.start + 20)) !== handler
    ) {
      continue;
    }
    const minf = inMdia.find((b) => b.type === "minf");
    const stbl = minf && childBoxes(mp4, minf.start + 8, minf.end).find((b) => b.type === "stbl");
    const stsd = stbl && childBoxes(mp4, stbl.start + 8, stbl.end).find((b) => b.type === "stsd");
    if (stsd) return mp4.slice(stsd.start, stsd.end);
  }
  throw new Error(`clip-1080p.mp4 has no "${handler}" track with an stsd box.`);
}

function childBoxes(bytes: Uint8Array, from: number, to: number) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const boxes: { type: string; start: number; end: number }[] = [];
  for (let at = from; at + 8 <= to; ) {
    const size = view.getUint32(at);
    if (size < 8) break;
    boxes.push({
      type: new TextDecoder().decode(bytes.subarray(at + 4, at + 8)),
      start: at,
      end: at + size,
    });
    at += size;
  }
  return boxes;
}
