import type { EncodedPacket } from "mediabunny";
import { aacFrameSounds } from "./aac-sections";

/** A stretch of audio, in seconds from the start of the cut. */
export interface Stretch {
  start: number;
  end: number;
}

// libopus codes a 20 ms frame of digital silence as its table-of-contents byte and two bytes
// (measured: ffmpeg 5.1, libopus 1.3, 24 kb/s); noise at -60 dBFS takes 40 bytes or more.
const OPUS_SILENT_BYTES = 3;

/**
 * Whether a packet of `codec` holds sound: AAC by its section data (a frame with no band
 * coded is silent), Opus by its size; any other codec cannot be read, so it counts as sound.
 */
export function packetSounds(codec: string | null, packet: EncodedPacket): boolean {
  if (codec === "aac") return aacFrameSounds(packet.data) ?? true;
  if (codec === "opus") return packet.data.byteLength > OPUS_SILENT_BYTES;
  return true;
}

/** The stretches of a cut that hold sound: consecutive sounding packets, merged. */
export function soundingStretches(
  packets: readonly { timestamp: number; duration: number; sounds: boolean }[],
): Stretch[] {
  const stretches: Stretch[] = [];
  for (const p of [...packets].sort((a, b) => a.timestamp - b.timestamp)) {
    if (!p.sounds) continue;
    const last = stretches.at(-1);
    const end = p.timestamp + p.duration;
    // Packets a millisecond apart are one stretch: timestamps are rounded by the container.
    if (last && p.timestamp <= last.end + 0.001) last.end = Math.max(last.end, end);
    else stretches.push({ start: p.timestamp, end });
  }
  return stretches;
}

/** Seconds of `stretches` inside [start, end). */
export function secondsWithin(stretches: readonly Stretch[], start: number, end: number): number {
  return stretches.reduce(
    (sum, s) => sum + Math.max(0, Math.min(end, s.end) - Math.max(start, s.start)),
    0,
  );
}
