import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { probeMedia } from "../../../src/media/probe";
import { type R2RangeReader, r2RangeSource } from "../../../src/media/r2-source";
import { bigMp4Chunks, bigMp4Source } from "../../helpers/big-mp4";
import { fixtureBytes } from "../../helpers/media-fixtures";
import { bytesSource } from "../../helpers/media-sources";

// r2RangeSource against the real MEDIA_BUCKET binding (and, for sizes a test cannot store, a
// fake bucket serving a synthetic file): the probe must need only a handful of `get` calls.

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

/** Wraps a bucket and counts its `get` calls and the bytes they return. */
function countingBucket(bucket: R2RangeReader) {
  const stats = { gets: 0, bytes: 0 };
  const reader: R2RangeReader = {
    get: async (key, options) => {
      stats.gets++;
      stats.bytes += options.range.length;
      return bucket.get(key, options);
    },
  };
  return { reader, stats };
}

/** A bucket holding one synthetic object, served from a RangeSource. */
function fakeBucket(source: { read(start: number, end: number): Promise<Uint8Array> }) {
  const reader: R2RangeReader = {
    get: async (_key, { range }) => {
      const bytes = await source.read(range.offset, range.offset + range.length);
      return { arrayBuffer: async () => bytes.slice().buffer };
    },
  };
  return reader;
}

function join(chunks: Iterable<Uint8Array>, size: number): Uint8Array {
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

describe("r2RangeSource", () => {
  it("probes talk.mp4 stored in R2 with a few gets and the same result as in memory", async () => {
    const bytes = fixtureBytes("talk.mp4");
    const key = `probe/${crypto.randomUUID()}/talk.mp4`;
    await env.MEDIA_BUCKET.put(key, bytes);
    const { reader, stats } = countingBucket(env.MEDIA_BUCKET);

    const hints = { filename: "talk.mp4", contentType: "video/mp4" };
    const probe = await probeMedia(r2RangeSource(reader, key, bytes.length), hints);

    expect(probe).toEqual(await probeMedia(bytesSource(bytes), hints));
    expect(stats.gets).toBeLessThanOrEqual(3);
  });

  it("probes every Matroska fixture through R2 the same as in memory", async () => {
    for (const name of ["captions.webm", "subtitles.mkv"] as const) {
      const bytes = fixtureBytes(name);
      const key = `probe/${crypto.randomUUID()}/${name}`;
      await env.MEDIA_BUCKET.put(key, bytes);
      const { reader, stats } = countingBucket(env.MEDIA_BUCKET);

      const hints = { filename: name, contentType: "video/webm" };
      const probe = await probeMedia(r2RangeSource(reader, key, bytes.length), hints);

      expect(probe).toEqual(await probeMedia(bytesSource(bytes), hints));
      // A file of well under one window: the cache serves both passes from one or two gets.
      expect(stats.gets, name).toBeLessThanOrEqual(4);
    }
  });

  it("probes a 10 MiB MOV stored in R2 (moov after a 10 MiB free box) with a few gets", async () => {
    const size = 10 * MiB;
    const key = `probe/${crypto.randomUUID()}/big.mov`;
    await env.MEDIA_BUCKET.put(key, join(bigMp4Chunks(size, { moov: "last" }), size));
    const { reader, stats } = countingBucket(env.MEDIA_BUCKET);

    const probe = await probeMedia(r2RangeSource(reader, key, size), {
      filename: "big.mov",
      contentType: "video/quicktime",
    });

    expect(probe.duration).toBeCloseTo(12, 2);
    expect(probe.textTracks[0]?.cues).toHaveLength(3);
    expect(stats.gets).toBeLessThanOrEqual(4);
    expect(stats.bytes).toBeLessThan(2 * MiB);
  });

  it("needs as few gets for 2 GiB as for 10 MiB", async () => {
    const gets: number[] = [];
    for (const size of [10 * MiB, 2 * GiB]) {
      const { reader, stats } = countingBucket(fakeBucket(bigMp4Source(size, { moov: "last" })));
      const probe = await probeMedia(r2RangeSource(reader, "big.mov", size), {
        filename: "big.mov",
        contentType: "video/quicktime",
      });
      expect(probe.video?.frameCount).toBe(300);
      expect(stats.bytes).toBeLessThan(2 * MiB);
      gets.push(stats.gets);
    }
    expect(gets[1]).toBe(gets[0]);
    expect(gets[1]).toBeLessThanOrEqual(4);
  });

  it("shares one get between concurrent reads of a window and caches it", async () => {
    const { reader, stats } = countingBucket(fakeBucket(bytesSource(fixtureBytes("talk.mp4"))));
    const source = r2RangeSource(reader, "talk.mp4", 263_244, { windowBytes: 64 * 1024 });

    const [a, b] = await Promise.all([source.read(0, 8), source.read(100, 200)]);
    await source.read(60_000, 60_100);

    expect(stats.gets).toBe(1);
    expect(String.fromCharCode(...(a ?? new Uint8Array(0)).subarray(4, 8))).toBe("ftyp");
    expect(b?.length).toBe(100);
  });

  it("keeps its cache within maxCacheBytes", async () => {
    const { reader, stats } = countingBucket(fakeBucket(bytesSource(fixtureBytes("talk.mp4"))));
    const source = r2RangeSource(reader, "talk.mp4", 263_244, {
      windowBytes: 64 * 1024,
      maxCacheBytes: 128 * 1024,
    });

    for (const at of [0, 70_000, 140_000, 0]) await source.read(at, at + 10);

    // Window 0 was evicted by the third window, so reading it again costs a get.
    expect(stats.gets).toBe(4);
  });
});
