import { type FrameFacts, framesPerSecond } from "./streams";

/** A block of one track in one Cluster, as its header says (no payload is read). */
export interface BlockTiming {
  /** Ticks relative to the Cluster's timestamp. */
  relativeTicks: number;
  /** BlockDuration in ticks, 0 when the block has none. */
  durationTicks: number;
  key: boolean;
  /** Frames laced into the block; 1 when it is not laced. */
  frames: number;
}

/** What a track's packets add up to: the numbers mediabunny's packet scan would give. */
export interface TrackTotals {
  count: number;
  /** Earliest packet start and latest packet end, in seconds. */
  first: number;
  last: number;
  /** Key packet times in seconds (µs-rounded, ascending, unique). */
  keyframes: number[];
  /** End of the track's last packet (the last Cluster's latest block), in seconds. */
  end: number;
}

/**
 * Accumulates one track's packet timing Cluster by Cluster, with the rules of mediabunny's
 * Matroska demuxer, so a single walk of the file gives the same frame count, frame rate, key
 * frames and duration as its packet scan: within a Cluster, a block lasts until the next one
 * in presentation order; the last lasts its BlockDuration, else the track's DefaultDuration;
 * a laced block's frames share its time evenly. Memory is one Cluster's blocks at a time.
 */
export class TrackTimeline {
  private count = 0;
  private first = Number.POSITIVE_INFINITY;
  private last = Number.NEGATIVE_INFINITY;
  private end: number | undefined;
  private readonly keys = new Set<number>();
  private readonly defaultTicks: number | undefined;

  /**
   * @param factor ticks per second (1e9 / TimestampScale)
   * @param defaultDurationNs the track's DefaultDuration, when it declares one
   */
  constructor(
    private readonly factor: number,
    defaultDurationNs: number | undefined,
    private readonly collectKeys: boolean,
  ) {
    this.defaultTicks =
      defaultDurationNs === undefined ? undefined : (factor * defaultDurationNs) / 1e9;
  }

  /** Adds the track's blocks of one Cluster, in file order. */
  addCluster(clusterTicks: number, blocks: BlockTiming[]): void {
    if (blocks.length === 0) return;
    const timed = blocks.map((block) => ({
      ...block,
      ticks: clusterTicks + block.relativeTicks,
      duration: block.durationTicks,
    }));
    // Stable sort: blocks with equal times keep their file order.
    const ordered = [...timed].sort((a, b) => a.ticks - b.ticks);
    for (const [i, block] of ordered.entries()) {
      const next = ordered[i + 1];
      if (next !== undefined) block.duration = next.ticks - block.ticks;
      else if (block.duration === 0 && block.frames === 1 && this.defaultTicks !== undefined) {
        block.duration = this.defaultTicks;
      }
    }
    const packets = timed.flatMap((block) => {
      if (block.frames === 1) return [block];
      const span = block.duration || block.frames * (this.defaultTicks ?? 0);
      return Array.from({ length: block.frames }, (_, i) => ({
        ticks: block.ticks + (span * i) / block.frames,
        duration: span / block.frames,
        key: block.key,
      }));
    });
    let latest = packets[0];
    for (const packet of packets) {
      const start = packet.ticks / this.factor;
      this.count++;
      this.first = Math.min(this.first, start);
      this.last = Math.max(this.last, start + packet.duration / this.factor);
      if (this.collectKeys && packet.key) this.keys.add(roundMicros(start));
      if (latest === undefined || packet.ticks >= latest.ticks) latest = packet;
    }
    if (latest !== undefined) {
      const end = latest.ticks / this.factor + latest.duration / this.factor;
      this.end = Math.round(end * this.factor) / this.factor;
    }
  }

  /** The totals so far; `undefined` when the track had no block. */
  totals(): TrackTotals | undefined {
    if (this.end === undefined) return undefined;
    return {
      count: this.count,
      first: this.first,
      last: this.last,
      keyframes: [...this.keys].sort((a, b) => a - b),
      end: this.end,
    };
  }
}

/** Rounds to microseconds, so times compare cleanly. */
export function roundMicros(seconds: number): number {
  return Math.round(seconds * 1e6) / 1e6;
}

/**
 * The frame facts of a walk: the video track's count, rate and key frames, and the duration
 * as the latest end among the audio and video tracks.
 */
export function frameFacts(
  totals: Map<number, TrackTotals | undefined>,
  videoTrack: number,
): FrameFacts {
  const video = totals.get(videoTrack);
  const ends = [...totals.values()].map((track) => track?.end ?? 0);
  return {
    duration: roundMicros(Math.max(0, ...ends)),
    frameCount: video?.count ?? 0,
    fps: video === undefined ? 0 : framesPerSecond(video.count, video.last - video.first),
    keyframes: video?.keyframes ?? [],
  };
}
