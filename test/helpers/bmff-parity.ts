import {
  ALL_FORMATS,
  BufferSource,
  type EncodedPacket,
  EncodedPacketSink,
  Input,
  type InputTrack,
} from "mediabunny";
import { expect } from "vitest";
import {
  type BmffIndex,
  pcmSampleBytes,
  readBmffIndex,
  SampleIndex,
} from "../../src/media/bmff-samples";
import { bytesSource } from "./media-sources";

/** What a user reads off one packet, its bytes aside. */
interface PacketFacts {
  sequenceNumber: number;
  timestamp: number;
  duration: number;
  type: string;
  byteLength: number;
}

/** The packets two seeks at `time` land on, as sequence numbers (-1 for none). */
interface SeekFacts {
  time: number;
  shown: number;
  key: number;
}

/** How big one compared track's sample tables are, to tell what a generated file covers. */
export interface TrackCoverage {
  codec: string | null;
  packets: number;
  /** Entries of `stts`, `ctts` and `stsc` (0 for a table the track does not have). */
  timeRuns: number;
  offsetRuns: number;
  chunkRuns: number;
}

const facts = (packet: EncodedPacket): PacketFacts => ({
  sequenceNumber: packet.sequenceNumber,
  timestamp: packet.timestamp,
  duration: packet.duration,
  type: packet.type,
  byteLength: packet.byteLength,
});

const sameBytes = (a: Uint8Array, b: Uint8Array) =>
  a.length === b.length && a.every((byte, i) => byte === b[i]);

/**
 * Asserts that the sample index reads every audio and video track of an MP4/MOV exactly as
 * mediabunny does from the whole file: every packet in decode order with its bytes, the next
 * key packet after each, the packets `getPacket`/`getKeyPacket` find at a grid of times, the
 * track's end, and, from the stripped headers alone, the same tracks and decoder configs.
 */
export async function expectSameAsMediabunny(bytes: Uint8Array): Promise<TrackCoverage[]> {
  const index = await readBmffIndex(bytesSource(bytes));
  if (index === null) throw new Error("readBmffIndex found no sample tables in the file.");
  const input = new Input({ formats: ALL_FORMATS, source: new BufferSource(bytes) });
  const headers = new Input({ formats: ALL_FORMATS, source: new BufferSource(index.headers) });
  try {
    expect(await describeTracks(headers)).toEqual(await describeTracks(input));
    const coverage: TrackCoverage[] = [];
    for (const track of await input.getTracks()) {
      if (!track.isVideoTrack() && !track.isAudioTrack()) continue;
      coverage.push(await expectSameTrack(index, track));
    }
    return coverage;
  } finally {
    input.dispose();
    headers.dispose();
  }
}

async function expectSameTrack(index: BmffIndex, track: InputTrack): Promise<TrackCoverage> {
  const tables = index.tracks.get(track.id);
  if (tables === undefined) throw new Error(`The index has no track ${track.id}.`);
  const codec = await track.getCodec();
  const sampleBytes = track.isAudioTrack() ? pcmSampleBytes(codec) : undefined;
  const pcm =
    sampleBytes === undefined || !track.isAudioTrack()
      ? undefined
      : { sampleBytes, channels: await track.getNumberOfChannels() };
  const samples = await SampleIndex.open(index.source, tables, pcm);
  const sink = new EncodedPacketSink(track);
  const label = `track ${track.id} (${codec})`;

  const expected: PacketFacts[] = [];
  const got: (PacketFacts | null)[] = [];
  const otherBytes: number[] = [];
  const expectedNextKeys: number[] = [];
  const gotNextKeys: number[] = [];
  for await (const packet of sink.packets()) {
    const i = expected.length;
    const ours = await samples.packet(i);
    expected.push(facts(packet));
    got.push(ours === null ? null : facts(ours));
    if (ours === null || !sameBytes(ours.data, packet.data)) otherBytes.push(i);
    const next = await sink.getNextKeyPacket(packet, { metadataOnly: true });
    expectedNextKeys.push(next?.sequenceNumber ?? -1);
    gotNextKeys.push(await samples.nextKeyIndex(i));
  }
  expect(got, `${label}: packets in decode order`).toEqual(expected);
  expect(samples.count, `${label}: packet count`).toBe(expected.length);
  expect(await samples.packet(expected.length), `${label}: past the last packet`).toBeNull();
  expect(otherBytes, `${label}: packets whose bytes differ`).toEqual([]);
  expect(gotNextKeys, `${label}: next key packet after each`).toEqual(expectedNextKeys);

  const expectedSeeks: SeekFacts[] = [];
  const gotSeeks: SeekFacts[] = [];
  for (const time of seekTimes(expected)) {
    const shown = await sink.getPacket(time, { metadataOnly: true });
    const key = await sink.getKeyPacket(time, { metadataOnly: true });
    expectedSeeks.push({
      time,
      shown: shown?.sequenceNumber ?? -1,
      key: key?.sequenceNumber ?? -1,
    });
    gotSeeks.push({
      time,
      shown: await samples.indexAt(time),
      key: await samples.keyIndexAt(time),
    });
  }
  expect(gotSeeks, `${label}: packets found by time`).toEqual(expectedSeeks);
  expect(await samples.end(), `${label}: end`).toBe(await track.computeDuration());

  const entries = (type: string, width: number) => {
    const box = tables.tables.get(type);
    return box === undefined ? 0 : (box.end - box.start - box.headerSize - 8) / width;
  };
  return {
    codec,
    packets: expected.length,
    timeRuns: entries("stts", 8),
    offsetRuns: entries("ctts", 8),
    chunkRuns: entries("stsc", 12),
  };
}

/**
 * Times to seek to: before the start, every packet's own timestamp and a hair either side
 * of it (mediabunny snaps times within 10 ε of a tick to it), between packets, the end and
 * past it, and both infinities.
 */
function seekTimes(packets: PacketFacts[]): number[] {
  const starts = [...new Set(packets.map((packet) => packet.timestamp))].sort((a, b) => a - b);
  const times = [Number.NEGATIVE_INFINITY, -1, 0, Number.POSITIVE_INFINITY];
  for (const [i, start] of starts.entries()) {
    times.push(start, start - 1e-9, start + 1e-9);
    const next = starts[i + 1];
    if (next !== undefined) times.push((start + next) / 2);
  }
  const end = Math.max(0, ...packets.map((packet) => packet.timestamp + packet.duration));
  times.push(end, end + 1);
  return times;
}

/** What mediabunny reads from the moov alone: each track's id, kind, codec and config. */
async function describeTracks(input: Input) {
  return Promise.all(
    (await input.getTracks()).map(async (track) => ({
      id: track.id,
      type: track.type,
      codec: await track.getCodec(),
      language: await track.getLanguageCode(),
      timeResolution: await track.getTimeResolution(),
      rotation: track.isVideoTrack() ? await track.getRotation() : null,
      config: track.isVideoTrack() || track.isAudioTrack() ? await track.getDecoderConfig() : null,
    })),
  );
}
