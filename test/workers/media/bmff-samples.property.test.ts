import fc from "fast-check";
import { ALL_FORMATS, BufferSource, Input } from "mediabunny";
import { beforeAll, describe, expect, it } from "vitest";
import { readBmffIndex } from "../../../src/media/bmff-samples";
import { expectSameAsMediabunny } from "../../helpers/bmff-parity";
import { rewriteTables } from "../../helpers/bmff-rewrite";
import {
  type AudioPlan,
  type FilePlan,
  PCM_BYTES,
  type PcmAudioCodec,
  type VideoPlan,
  writePlan,
} from "../../helpers/generated-mp4";
import { fixtureBytes } from "../../helpers/media-fixtures";
import { bytesSource } from "../../helpers/media-sources";

// mediabunny's muxer writes what real MP4s hold: a stts run per change of frame duration, a
// ctts run per change of reorder offset, edit lists for tracks that start off zero, PCM in
// chunks. Whatever it writes, the sample index must read as mediabunny's own reader does.

let avcConfig: VideoDecoderConfig;
let aacConfig: AudioDecoderConfig;

beforeAll(async () => {
  const video = new Input({
    formats: ALL_FORMATS,
    source: new BufferSource(fixtureBytes("silent.mp4")),
  });
  const audio = new Input({
    formats: ALL_FORMATS,
    source: new BufferSource(fixtureBytes("audio-only.mp4")),
  });
  const avc = await (await video.getPrimaryVideoTrack())?.getDecoderConfig();
  const aac = await (await audio.getPrimaryAudioTrack())?.getDecoderConfig();
  if (!avc || !aac) throw new Error("The fixtures lost their decoder configs.");
  avcConfig = avc;
  aacConfig = aac;
});

/**
 * Seconds per tick and the frame rate the muxer snaps to: its timescale is 57,600 without
 * one, so 1/1000 s ticks round to 57 or 58 units and make irregular runs. Every tick is at
 * least one unit, so frames share a time only when one lasts 0 ticks.
 */
const TIMINGS: [number, number | undefined][] = [
  [1 / 600, undefined],
  [1 / 1000, undefined],
  [1 / 30, 30],
  [1 / 25, 25],
  [1 / 1000, 1000],
];

/** Between `min` and `max` packets (or frames), each lasting `low` to `high`. */
interface Lengths {
  min: number;
  max: number;
}

const durations = (low: number, high: number, { min, max }: Lengths) =>
  fc.array(fc.integer({ min: low, max: high }), { minLength: min, maxLength: max, size: "max" });

const videoPlan = (frames: Lengths): fc.Arbitrary<VideoPlan> =>
  fc
    .record({
      // One frame in five lasts 0 ticks and shares its time with the next.
      ticks: fc.array(
        fc.oneof(
          { arbitrary: fc.constant(0), weight: 1 },
          { arbitrary: fc.integer({ min: 1, max: 12 }), weight: 4 },
        ),
        { minLength: frames.min, maxLength: frames.max, size: "max" },
      ),
      timing: fc.constantFrom(...TIMINGS),
      start: fc.integer({ min: -40, max: 40 }),
      keys: fc.array(fc.nat(frames.max), { maxLength: 40 }),
      windows: fc.array(fc.tuple(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 0, max: 2 })), {
        minLength: 1,
        maxLength: 8,
      }),
    })
    .map(({ timing: [tick, frameRate], ...plan }) => ({
      ...plan,
      tick,
      frameRate,
      config: avcConfig,
    }));

/**
 * AAC: mostly 1,024 frames a packet, as encoders write, with runs broken at random; or, when
 * `steady` is false, any length a packet, so that hardly two chunks hold as many packets.
 */
const aacPlan = (packets: Lengths, steady = true): fc.Arbitrary<AudioPlan> =>
  fc.record({
    frames: fc.array(
      steady
        ? fc.oneof(fc.constant(1024), fc.integer({ min: 1, max: 12_000 }))
        : fc.integer({ min: 1, max: 12_000 }),
      {
        minLength: packets.min,
        maxLength: packets.max,
        size: "max",
      },
    ),
    start: fc.integer({ min: -2048, max: 2048 }),
    codec: fc.constant("aac" as const),
    sampleRate: fc.constant(aacConfig.sampleRate),
    channels: fc.constant(aacConfig.numberOfChannels),
    config: fc.constant(aacConfig),
  });

const QUICKTIME_ONLY = new Set<string>(["pcm-u8", "ulaw"]);

/** PCM of any length a packet: the muxer cuts it into chunks of about 0.5 s. */
const pcmPlan = (
  container: "mp4" | "mov",
  packets: Lengths,
  sampleRates = [1000, 8000, 22_050],
): fc.Arbitrary<AudioPlan> =>
  fc.record({
    frames: durations(1, 1000, packets),
    start: fc.integer({ min: -2048, max: 2048 }),
    codec: fc.constantFrom(
      ...(Object.keys(PCM_BYTES) as PcmAudioCodec[]).filter(
        (codec) => container === "mov" || !QUICKTIME_ONLY.has(codec),
      ),
    ),
    sampleRate: fc.constantFrom(...sampleRates),
    channels: fc.integer({ min: 1, max: 2 }),
    config: fc.constant(null),
  });

const filePlan: fc.Arbitrary<FilePlan> = fc
  .record({
    container: fc.constantFrom("mp4" as const, "mov" as const),
    fastStart: fc.constantFrom(false as const, "in-memory" as const),
  })
  .chain(({ container, fastStart }) =>
    fc
      .record({
        video: fc.option(videoPlan({ min: 1, max: 150 })),
        audio: fc.option(
          fc.oneof(aacPlan({ min: 1, max: 300 }), pcmPlan(container, { min: 1, max: 300 })),
        ),
      })
      .filter(({ video, audio }) => video !== null || audio !== null)
      .map((tracks) => ({ container, fastStart, ...tracks })),
  );

/** One fixed draw of `arbitrary`, so a test of long tables sees the same tables each run. */
const drawn = <T>(arbitrary: fc.Arbitrary<T>, seed: number): T => {
  const [value] = fc.sample(arbitrary, { seed, numRuns: 1 });
  if (value === undefined) throw new Error("fast-check drew nothing.");
  return value;
};

describe("SampleIndex on files mediabunny's muxer writes", () => {
  it("reads random MP4s and MOVs as mediabunny does", async () => {
    await fc.assert(
      fc.asyncProperty(filePlan, async (plan) => {
        await expectSameAsMediabunny(await writePlan(plan));
      }),
      { numRuns: 50 },
    );
  });

  it("reads co64 chunk offsets and stz2 sample sizes as mediabunny does", async () => {
    // Rewritten from what the muxer wrote, with the moov at the end so that no sample moves;
    // 4-bit sizes need packets under 16 bytes.
    const rewrites = fc.oneof(
      fc.record({
        co64: fc.boolean(),
        stz2Bits: fc.constant(4 as const),
        packetBytes: fc.constant(15),
      }),
      fc.record({
        co64: fc.boolean(),
        stz2Bits: fc.constant(8 as const),
        packetBytes: fc.constant(255),
      }),
      fc.record({
        co64: fc.boolean(),
        stz2Bits: fc.constantFrom(0 as const, 16 as const),
        packetBytes: fc.constant(303),
      }),
    );
    await fc.assert(
      fc.asyncProperty(filePlan, rewrites, async (plan, { packetBytes, ...rewrite }) => {
        const bytes = await writePlan({ ...plan, fastStart: false, packetBytes });
        const rewritten = rewriteTables(bytes, rewrite);
        await expectSameAsMediabunny(rewritten);
        const tables = [...((await readBmffIndex(bytesSource(rewritten)))?.tracks.values() ?? [])];
        expect(tables.every(({ tables }) => tables.has("co64") === rewrite.co64)).toBe(true);
        // PCM keeps its one size for every sample in stsz.
        const compact = tables.filter(({ tables }) => tables.has("stz2")).length;
        const perSample = (plan.video ? 1 : 0) + (plan.audio?.codec === "aac" ? 1 : 0);
        expect(compact).toBe(rewrite.stz2Bits === 0 ? 0 : perSample);
      }),
      { numRuns: 15 },
    );
  });

  it("reads B-frames past the time and offset checkpoints (> 256 runs) as mediabunny does", async () => {
    // Frames decode as I P B B, P B B B reversed, P…: hardly two neighbours share an offset.
    const video = {
      ...drawn(videoPlan({ min: 400, max: 400 }), 1),
      windows: [
        [3, 1],
        [4, 2],
        [2, 1],
        [1, 0],
      ] satisfies [number, number][],
    };
    const coverage = await expectSameAsMediabunny(
      await writePlan({ container: "mp4", fastStart: "in-memory", video, audio: null }),
    );
    expect(coverage).toMatchObject([{ codec: "avc", packets: 400 }]);
    expect(coverage[0]?.timeRuns).toBeGreaterThan(256);
    expect(coverage[0]?.offsetRuns).toBeGreaterThan(256);
  });

  it("reads AAC past the chunk checkpoints (> 256 stsc runs) as mediabunny does", async () => {
    const audio = drawn(aacPlan({ min: 1400, max: 1400 }, false), 2);
    const coverage = await expectSameAsMediabunny(
      await writePlan({ container: "mp4", fastStart: false, video: null, audio }),
    );
    expect(coverage[0]?.chunkRuns).toBeGreaterThan(256);
  });

  it("reads PCM, a chunk a packet, past the chunk checkpoints as mediabunny does", async () => {
    const audio = drawn(pcmPlan("mov", { min: 800, max: 800 }, [1000]), 3);
    const coverage = await expectSameAsMediabunny(
      await writePlan({ container: "mov", fastStart: "in-memory", video: null, audio }),
    );
    expect(coverage[0]?.chunkRuns).toBeGreaterThan(256);
  });
});
