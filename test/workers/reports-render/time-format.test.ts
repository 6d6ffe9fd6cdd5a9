import { describe, expect, it } from "vitest";
import { clock } from "../../../src/answer-engine/context";
import { formatClock } from "../../../src/lib/time-format";
import { formatClock as describeClock } from "../../../src/media-understanding/describe";
import { formatTime } from "../../../src/services/reports/format";

describe("formatClock", () => {
  it("reads mm:ss, then h:mm:ss from one hour on, rounded down to the second", () => {
    const cases: [number, string][] = [
      [0, "00:00"],
      [7.9, "00:07"],
      [59.999, "00:59"],
      [60, "01:00"],
      [605, "10:05"],
      [3599.9, "59:59"],
      [3600, "1:00:00"],
      [3725.4, "1:02:05"],
      [36_000 + 61, "10:01:01"],
      [-0, "00:00"],
      [-0.5, "00:00"],
      [-90, "00:00"],
    ];
    for (const [seconds, text] of cases) expect(formatClock(seconds), String(seconds)).toBe(text);
  });

  it("is what the describer, the answer engine and the reports write for finite times", () => {
    for (const seconds of [0, 0.4, 7.9, 65, 599.5, 3600, 3725.4, 86_399, -3]) {
      const text = formatClock(seconds);
      expect(describeClock(seconds)).toBe(text);
      expect(clock(seconds)).toBe(text);
      expect(formatTime(seconds)).toBe(text);
    }
  });

  it("leaves non-finite times to each caller, as before", () => {
    for (const seconds of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
      expect(describeClock(seconds)).toBe("00:00");
      expect(formatTime(seconds)).toBeNull();
    }
    expect(formatTime(undefined)).toBeNull();
  });
});
