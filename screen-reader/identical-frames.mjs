// Slides, screen recordings and still shots decode to the very same picture cell after cell.
// OCR reads the decoded JPEG and nothing else, and reads it the same way every time (one
// thread, no randomness), so a frame whose JPEG bytes equal one read lately has the same lines:
// it is answered with them instead of being read again. A frame that differs by one byte is
// read in full.
import { createHash } from "node:crypto";

/** How many recent frames are remembered: a few windows' worth, a few kB. */
const REMEMBERED = 64;

/**
 * Wraps `read(imagePath)` so that a JPEG identical to one of the last frames read is answered
 * with that frame's lines; `counts` says how many frames came and how many were identical.
 */
export function identicalFrames(read, remembered = REMEMBERED) {
  const recent = new Map();
  const counts = { frames: 0, identical: 0 };
  return {
    counts,
    read(jpeg, imagePath) {
      counts.frames++;
      const key = createHash("sha256").update(jpeg).digest("hex");
      const known = recent.get(key);
      if (known) {
        counts.identical++;
        recent.delete(key);
        recent.set(key, known);
        return known;
      }
      const lines = read(imagePath);
      recent.set(key, lines);
      // A failed read is not remembered: the next identical frame is read again.
      lines.catch(() => recent.delete(key));
      if (recent.size > remembered) recent.delete(recent.keys().next().value);
      return lines;
    },
  };
}
