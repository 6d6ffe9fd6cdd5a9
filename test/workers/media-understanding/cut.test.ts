import { describe, expect, it } from "vitest";
import type { RangeSource } from "../../../src/domain/media";
import { openCutter } from "../../../src/media/cut";
import { fixtureBytes } from "../../helpers/media-fixtures";
import { bytesSource } from "../../helpers/media-sources";

/** A source whose reads fail while `down` holds, as storage does when it is unavailable. */
function flakySource(file: RangeSource) {
  const state = { down: true };
  const source: RangeSource = {
    size: file.size,
    read: async (start, end) => {
      if (state.down) throw new Error("storage unavailable");
      return file.read(start, end);
    },
  };
  return { source, state };
}

describe("a cutter", () => {
  it("opens again after a failed open: a batch's later windows are not failed by one outage", async () => {
    const { source, state } = flakySource(bytesSource(fixtureBytes("talk.mp4")));
    const cutter = openCutter(source, "videos/vid_test/original");
    await expect(cutter.audio(0, 10)).rejects.toThrow("storage unavailable");
    state.down = false;
    const cut = await cutter.audio(0, 10);
    expect(cut?.mimeType).toBe("audio/mp4");
    expect(cut?.start).toBe(0);
    expect(cut?.end).toBeCloseTo(10, 1);
    const frame = await cutter.frame(5, { maxOffset: 30, maxBytes: 100e6 });
    expect(frame?.time).toBeCloseTo(5, 1);
    cutter.dispose();
  });

  it("cuts an MP4 and a WebM alike: the same audio span from the same time", async () => {
    for (const name of ["talk.mp4", "captions.webm"] as const) {
      const cutter = openCutter(bytesSource(fixtureBytes(name)), "videos/vid_test/original");
      const cut = await cutter.audio(2, 6);
      expect(cut, name).not.toBeNull();
      expect(cut?.start, name).toBeGreaterThanOrEqual(2);
      expect(cut?.start, name).toBeLessThan(2.1);
      expect(cut?.end, name).toBeGreaterThan(5.9);
      cutter.dispose();
    }
  });
});
