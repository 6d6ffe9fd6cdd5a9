import { box, fields, fourCc, fullBox, type Piece, table } from "./bmff-pieces";

/** The movie's timescale (mvhd, tkhd, elst): milliseconds. */
const MOVIE_TIMESCALE = 1000;
const IDENTITY_MATRIX: [32, number][] = [0x10000, 0, 0, 0, 0x10000, 0, 0, 0, 0x40000000].map(
  (v) => [32, v],
);

/**
 * One track of a long MP4: a unit of real samples repeated `sampleCount` times over. Every chunk
 * is one unit (or what is left of it at the end) and starts at the same offset in `mdat`.
 */
export interface TrackPlan {
  id: number;
  /** The fixture's own sample description box, verbatim. */
  stsd: Uint8Array;
  timescale: number;
  sampleCount: number;
  sampleDelta: number;
  /** The sizes of one unit's samples, in decode order. */
  unitSizes: number[];
  /** Composition offsets of one unit's samples (timescale units, ≥ 0); null without B-frames. */
  unitOffsets: number[] | null;
  /** Where presentation starts in the media timeline (an edit list entry when > 0). */
  mediaStart: number;
  /** Video: its display size, and a sync sample at the start of each unit. Audio: null. */
  video: { width: number; height: number } | null;
  /** Where in the file the unit's bytes start; asked when the table is read. */
  chunkOffset: () => number;
}

/** The `moov` box of tracks, with 64-bit chunk offsets (co64) when `co64` is set. */
export function moovBox(tracks: TrackPlan[], co64: boolean): Piece[] {
  const durations = tracks.map(movieDuration);
  return box(
    "moov",
    fullBox(
      "mvhd",
      1,
      0,
      [fields([64, 0], [64, 0], [32, MOVIE_TIMESCALE], [64, Math.max(...durations)])],
      [fields([32, 0x10000], [16, 0x100], [16, 0], [64, 0], ...IDENTITY_MATRIX)],
      [fields([64, 0], [64, 0], [64, 0], [32, tracks.length + 1])],
    ),
    ...tracks.map((track) => trakBox(track, co64)),
  );
}

function movieDuration(track: TrackPlan): number {
  return Math.round((track.sampleCount * track.sampleDelta * MOVIE_TIMESCALE) / track.timescale);
}

function trakBox(track: TrackPlan, co64: boolean): Piece[] {
  const duration = movieDuration(track);
  const { width = 0, height = 0 } = track.video ?? {};
  const tkhd = fullBox(
    "tkhd",
    1,
    3,
    [fields([64, 0], [64, 0], [32, track.id], [32, 0], [64, duration], [64, 0])],
    [fields([16, 0], [16, 0], [16, track.video ? 0 : 0x100], [16, 0], ...IDENTITY_MATRIX)],
    [fields([32, width * 0x10000], [32, height * 0x10000])],
  );
  const edts =
    track.mediaStart > 0
      ? box(
          "edts",
          fullBox("elst", 1, 0, [
            fields([32, 1], [64, duration], [64, track.mediaStart], [16, 1], [16, 0]),
          ]),
        )
      : [];
  const mdhd = fullBox("mdhd", 1, 0, [
    fields([64, 0], [64, 0], [32, track.timescale], [64, track.sampleCount * track.sampleDelta]),
    fields([16, 0x55c4], [16, 0]), // "und"
  ]);
  const handler = track.video ? "vide" : "soun";
  const hdlr = fullBox("hdlr", 0, 0, [fields([32, 0]), fourCc(handler)], [new Uint8Array(13)]);
  const header = track.video
    ? fullBox("vmhd", 0, 1, [fields([16, 0], [16, 0], [16, 0], [16, 0])])
    : fullBox("smhd", 0, 0, [fields([16, 0], [16, 0])]);
  const dinf = box("dinf", fullBox("dref", 0, 0, [fields([32, 1])], fullBox("url ", 0, 1)));
  return box(
    "trak",
    tkhd,
    edts,
    box("mdia", mdhd, hdlr, box("minf", header, dinf, stblBox(track, co64))),
  );
}

function stblBox(track: TrackPlan, co64: boolean): Piece[] {
  const { sampleCount, unitSizes, unitOffsets } = track;
  const unit = unitSizes.length;
  const chunks = Math.ceil(sampleCount / unit);
  const left = sampleCount - (chunks - 1) * unit;
  const stscEntries = [[1, Math.min(unit, sampleCount)]];
  if (left !== unit && chunks > 1) stscEntries.push([chunks, left]);
  const ctts = unitOffsets
    ? fullBox("ctts", 0, 0, [
        fields([32, sampleCount]),
        table(sampleCount, 8, (view, at, i) => {
          view.setUint32(at, 1);
          view.setUint32(at + 4, unitOffsets[i % unit] ?? 0);
        }),
      ])
    : [];
  const stss = track.video
    ? fullBox("stss", 0, 0, [
        fields([32, chunks]),
        table(chunks, 4, (view, at, i) => view.setUint32(at, 1 + i * unit)),
      ])
    : [];
  const offsets = co64
    ? table(chunks, 8, (view, at) => view.setBigUint64(at, BigInt(track.chunkOffset())))
    : table(chunks, 4, (view, at) => view.setUint32(at, track.chunkOffset()));
  return box(
    "stbl",
    [track.stsd],
    fullBox("stts", 0, 0, [fields([32, 1], [32, sampleCount], [32, track.sampleDelta])]),
    ctts,
    stss,
    fullBox("stsz", 0, 0, [
      fields([32, 0], [32, sampleCount]),
      table(sampleCount, 4, (view, at, i) => view.setUint32(at, unitSizes[i % unit] ?? 0)),
    ]),
    fullBox("stsc", 0, 0, [
      fields([32, stscEntries.length]),
      ...stscEntries.map(([first = 1, count = 1]) => fields([32, first], [32, count], [32, 1])),
    ]),
    fullBox(co64 ? "co64" : "stco", 0, 0, [fields([32, chunks]), offsets]),
  );
}
