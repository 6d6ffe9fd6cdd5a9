import { CustomSource, EncodedPacketSink, Input, MP4 } from "mediabunny";
import { expect } from "vitest";
import type { RangeSource } from "../../src/domain/media";
import { readBmffIndex, SampleIndex } from "../../src/media/bmff-samples";

/** How much of a long file to compare: seeks at random times, and packets read on from them. */
export interface Sampling {
  seeks: number;
  /** Packets compared in decode order from each seek's key packet, bytes and all. */
  run: number;
  /** Seeds the times, so a failure comes back on the next run. */
  seed: number;
}

/**
 * Asserts that the sample index agrees with mediabunny on a file too long to compare packet by
 * packet: at random times, which packets `getPacket` and `getKeyPacket` find, what they say,
 * the next key packet, and the packets that follow in decode order. Its tables span many
 * pages, so the lookups land on pages read and let go again.
 */
export async function expectSampledSameAsMediabunny(
  source: RangeSource,
  sampling: Sampling,
): Promise<void> {
  const index = await readBmffIndex(source);
  if (index === null) throw new Error("readBmffIndex found no sample tables in the file.");
  const input = new Input({
    formats: [MP4],
    source: new CustomSource({ getSize: () => source.size, read: (s, e) => source.read(s, e) }),
  });
  try {
    for (const track of await input.getTracks()) {
      if (!track.isVideoTrack() && !track.isAudioTrack()) continue;
      const tables = index.tracks.get(track.id);
      if (tables === undefined) throw new Error(`The index has no track ${track.id}.`);
      const samples = await SampleIndex.open(index.source, tables);
      const sink = new EncodedPacketSink(track);
      const end = await track.computeDuration();
      expect(await samples.end(), `track ${track.id}: end`).toBe(end);
      let seed = sampling.seed;
      const random = () => {
        seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
        return seed / 2 ** 31;
      };
      const expected: unknown[] = [];
      const got: unknown[] = [];
      for (let i = 0; i < sampling.seeks; i++) {
        const time = random() * (end + 2) - 1;
        const shown = await sink.getPacket(time, { metadataOnly: true });
        const key = await sink.getKeyPacket(time);
        const next = key && (await sink.getNextKeyPacket(key, { metadataOnly: true }));
        const ourKey = await samples.keyIndexAt(time);
        expected.push({ time, shown: shown?.sequenceNumber ?? -1, key: key?.sequenceNumber ?? -1 });
        got.push({ time, shown: await samples.indexAt(time), key: ourKey });
        if (key === null) continue;
        expected.push({ after: key.sequenceNumber, next: next?.sequenceNumber ?? -1 });
        got.push({ after: ourKey, next: await samples.nextKeyIndex(ourKey) });
        let n = 0;
        for await (const packet of sink.packets(key)) {
          if (n === sampling.run) break;
          const ours = await samples.packet(ourKey + n++);
          expected.push(facts(packet));
          got.push(ours && facts(ours));
        }
      }
      expect(got, `track ${track.id}`).toEqual(expected);
    }
  } finally {
    input.dispose();
  }
}

/** What a user reads off a packet, with a fingerprint of its bytes. */
function facts(packet: {
  sequenceNumber: number;
  timestamp: number;
  duration: number;
  type: string;
  data: Uint8Array;
}) {
  let hash = 2_166_136_261;
  for (const byte of packet.data) hash = Math.imul(hash ^ byte, 16_777_619) >>> 0;
  return {
    sequenceNumber: packet.sequenceNumber,
    timestamp: packet.timestamp,
    duration: packet.duration,
    type: packet.type,
    bytes: `${packet.data.length}:${hash.toString(16)}`,
  };
}
