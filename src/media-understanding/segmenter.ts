/** A half-open time range [start, end) of the video in seconds. */
export interface TimeRange {
  start: number;
  end: number;
}

/** Tuning of the segmenter; the defaults are what both engines use. */
export interface SegmenterOptions {
  /** The preferred segment length. */
  targetSeconds: number;
  /** Hard cap: no segment is ever longer. */
  maxSeconds: number;
  /** No boundary is placed closer than this to the previous one (except the end). */
  minSeconds: number;
  /** A keyframe this close to the chosen boundary replaces it. */
  snapSeconds: number;
}

/** Defaults: ~8 s segments, 10 s cap, 4 s floor, keyframes within 1.5 s win. */
export const DEFAULT_SEGMENTER_OPTIONS: SegmenterOptions = {
  targetSeconds: 8,
  maxSeconds: 10,
  minSeconds: 4,
  snapSeconds: 1.5,
};

/** What the segmenter is given: the probe's duration and keyframes, and timed text. */
export interface SegmenterInput {
  duration: number;
  keyframes: readonly number[];
  /** Cues and speech spans: boundaries avoid falling inside them when they can. */
  spans: readonly TimeRange[];
}

/**
 * Splits [0, duration) into contiguous segments of at most `maxSeconds`, ending at keyframes
 * and between cues where possible. Pure and deterministic.
 */
export function planSegments(
  input: SegmenterInput,
  options: SegmenterOptions = DEFAULT_SEGMENTER_OPTIONS,
): TimeRange[] {
  const { targetSeconds, maxSeconds, minSeconds, snapSeconds } = options;
  // A floor above half the cap could leave a remainder that fits no segment; a zero floor
  // could stall the loop.
  const floor = Math.max(0.001, Math.min(minSeconds, maxSeconds / 2));
  const duration = Number.isFinite(input.duration) && input.duration > 0 ? input.duration : 0;
  if (duration <= maxSeconds) return [{ start: 0, end: duration }];

  const keyframes = sortedTimes(input.keyframes, duration);
  const blocks = mergeSpans(input.spans, duration);
  const edges = sortedTimes(
    blocks.flatMap((b) => [b.start, b.end]),
    duration,
  );

  const segments: TimeRange[] = [];
  let start = 0;
  while (duration - start > maxSeconds) {
    const low = start + floor;
    const high = Math.min(start + maxSeconds, duration - floor);
    const end = chooseBoundary(
      { low, high, target: start + targetSeconds },
      keyframes,
      edges,
      blocks,
      snapSeconds,
    );
    segments.push({ start, end });
    start = end;
  }
  segments.push({ start, end: duration });
  return segments;
}

interface Window {
  low: number;
  high: number;
  target: number;
}

/**
 * Picks the boundary: the cue-safe point nearest the target (cue edges or the target itself),
 * then the nearest keyframe within the snap distance that is no less safe.
 */
function chooseBoundary(
  window: Window,
  keyframes: readonly number[],
  edges: readonly number[],
  blocks: readonly TimeRange[],
  snapSeconds: number,
): number {
  const target = clamp(window.target, window.low, window.high);
  const safeCandidates = [target, ...within(edges, window.low, window.high)].filter(
    (t) => !splitsBlock(t, blocks),
  );
  const ideal = nearest(safeCandidates, target) ?? target;
  const idealSafe = !splitsBlock(ideal, blocks);

  const snaps = within(keyframes, ideal - snapSeconds, ideal + snapSeconds).filter(
    (k) => k >= window.low && k <= window.high && (!idealSafe || !splitsBlock(k, blocks)),
  );
  return nearest(snaps, ideal) ?? ideal;
}

/** The value closest to `to`; ties go to the earlier value, so the choice is deterministic. */
function nearest(values: readonly number[], to: number): number | undefined {
  let best: number | undefined;
  for (const v of values) {
    if (best === undefined) best = v;
    else {
      const d = Math.abs(v - to);
      const bd = Math.abs(best - to);
      if (d < bd || (d === bd && v < best)) best = v;
    }
  }
  return best;
}

/** True when `t` lies strictly inside a block of overlapping spans. */
function splitsBlock(t: number, blocks: readonly TimeRange[]): boolean {
  let lo = 0;
  let hi = blocks.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const b = blocks[mid];
    if (b === undefined) return false;
    if (t <= b.start) hi = mid - 1;
    else if (t >= b.end) lo = mid + 1;
    else return true;
  }
  return false;
}

/** Overlapping spans merged into blocks; touching spans stay apart, their shared edge is safe. */
function mergeSpans(spans: readonly TimeRange[], duration: number): TimeRange[] {
  const clean = spans
    .filter((s) => Number.isFinite(s.start) && Number.isFinite(s.end) && s.end > s.start)
    .map((s) => ({ start: Math.max(0, s.start), end: Math.min(duration, s.end) }))
    .filter((s) => s.end > s.start)
    .sort((a, b) => a.start - b.start || a.end - b.end);
  const blocks: TimeRange[] = [];
  for (const s of clean) {
    const last = blocks.at(-1);
    if (last && s.start < last.end) last.end = Math.max(last.end, s.end);
    else blocks.push({ ...s });
  }
  return blocks;
}

/** Finite times strictly inside (0, duration), ascending and unique. */
function sortedTimes(times: readonly number[], duration: number): number[] {
  const inside = times.filter((t) => Number.isFinite(t) && t > 0 && t < duration);
  return [...new Set(inside)].sort((a, b) => a - b);
}

/** Sorted values in [low, high] (binary search on the lower end). */
function within(sorted: readonly number[], low: number, high: number): number[] {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((sorted[mid] ?? Number.POSITIVE_INFINITY) < low) lo = mid + 1;
    else hi = mid;
  }
  const out: number[] = [];
  for (let i = lo; i < sorted.length; i++) {
    const v = sorted[i];
    if (v === undefined || v > high) break;
    out.push(v);
  }
  return out;
}

function clamp(v: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, v));
}
