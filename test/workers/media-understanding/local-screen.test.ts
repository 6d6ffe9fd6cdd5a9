import { describe, expect, it } from "vitest";
import { probeMedia } from "../../../src/media/probe";
import type { FrameImage } from "../../../src/media-understanding/assemble";
import type { FrameStore } from "../../../src/ports/media-understanding/frames-window";
import { LocalMediaUnderstanding } from "../../../src/ports/media-understanding/local";
import {
  understandWhole,
  type VideoUnderstanding,
} from "../../../src/ports/media-understanding/port";
import {
  type CutToRead,
  type ScreenReader,
  type ScreenReading,
  UnreadableCutError,
} from "../../../src/ports/screen-reader/port";
import { fixtureBytes } from "../../helpers/media-fixtures";
import { bytesSource } from "../../helpers/media-sources";
import { understandInput } from "./probes";

class MemoryFrames implements FrameStore {
  readonly kept = new Map<string, FrameImage>();
  async put(videoId: string, frame: FrameImage) {
    this.kept.set(videoId, frame);
  }
  async get(videoId: string) {
    return this.kept.get(videoId) ?? null;
  }
}

const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]);

/**
 * Answers what screen-text.mp4 shows at each cut's time (its four 4 s scenes: a sign, a
 * caption, nothing, a slide), with the confidences a reader gives; records every cut.
 */
class ScriptedReader implements ScreenReader {
  readonly engine = "pp-ocrv4";
  readonly cuts: CutToRead[] = [];
  constructor(private readonly slide: () => ScreenReading | Promise<ScreenReading>) {}
  async read(cut: CutToRead): Promise<ScreenReading> {
    this.cuts.push(cut);
    const frame = { contentType: "image/jpeg", bytes: JPEG };
    if (cut.time < 4)
      return {
        frame,
        lines: [
          { text: "COLD STORAGE", confidence: 0.98 },
          { text: "Authorised staff only", confidence: 0.95 },
          { text: "Il1l", confidence: 0.61 },
        ],
      };
    if (cut.time < 8)
      return { frame, lines: [{ text: "Forklift route closed today", confidence: 0.97 }] };
    if (cut.time < 12) return { frame, lines: [] };
    return this.slide();
  }
}

const slideRead = (): ScreenReading => ({
  frame: { contentType: "image/jpeg", bytes: JPEG },
  lines: [{ text: "Quarterly safety review", confidence: 0.99 }],
});

async function understandWith(reader: ScreenReader | null, frames = new MemoryFrames()) {
  const source = bytesSource(fixtureBytes("screen-text.mp4"));
  const probe = await probeMedia(source, { filename: "screen-text.mp4", contentType: "video/mp4" });
  const engine = new LocalMediaUnderstanding(reader ? { reader, frames } : null);
  const input = understandInput(probe, { filename: "screen-text.mp4", source });
  return { engine, input, u: await understandWhole(engine, input), frames };
}

const ocrSpans = (u: VideoUnderstanding) =>
  u.segments.flatMap((s) => s.evidence.filter((e) => e.kind === "ocr"));

describe("LocalMediaUnderstanding with a screen reader", () => {
  it("reads one frame per 4 s cell and keeps confident lines as ocr evidence at their frame", async () => {
    const reader = new ScriptedReader(slideRead);
    const { engine, input, u } = await understandWith(reader);
    expect(engine.plan(input).map((w) => w.kind)).toEqual(["frames"]);
    expect(reader.cuts.map((c) => Math.floor(c.time / 4))).toEqual(
      expect.arrayContaining([0, 1, 2, 3]),
    );
    const spans = ocrSpans(u);
    expect(spans.map((s) => s.text)).toEqual([
      "COLD STORAGE",
      "Authorised staff only",
      "Forklift route closed today",
      "Quarterly safety review",
    ]);
    for (const span of spans) {
      expect(span.source).toBe("pp-ocrv4");
      expect(span.start).toBe(span.end);
    }
    // The low-confidence line is no evidence, nor is it described.
    expect(JSON.stringify(u.segments)).not.toContain("Il1l");
    expect(u.segments[0]?.sceneDescription).toMatch(
      /^On screen at 00:0\d \(text recognition\): "COLD STORAGE", "Authorised staff only"\./,
    );
  });

  it("counts the frames read as seconds seen for ocr, never for scenes, and keeps a frame as thumbnail", async () => {
    const { u, frames } = await understandWith(new ScriptedReader(slideRead));
    expect(u.extent.ocr).toEqual({ seconds: 16, share: 1 });
    expect(u.extent.scene).toEqual({ seconds: 0, share: 0 });
    expect(u.coverage).toMatchObject({ ocr: true, scene: false });
    expect(u.thumbnail.source).toBe("frame");
    expect(u.thumbnail.contentType).toBe("image/jpeg");
    expect(frames.kept.get("vid_01JTEST")?.bytes).toEqual(JPEG);
    expect(u.limitations).not.toContain("no-ocr");
    expect(u.limitations).not.toContain("thumbnail-generated-poster");
    expect(u.limitations).toEqual(expect.arrayContaining(["no-visual-analysis"]));
  });

  it("counts frames read that held no confident line as inspected, and says none held text", async () => {
    const blank: ScreenReader = {
      engine: "pp-ocrv4",
      read: async () => ({
        frame: { contentType: "image/jpeg", bytes: JPEG },
        lines: [{ text: "Il1l", confidence: 0.61 }],
      }),
    };
    const { u } = await understandWith(blank);
    expect(ocrSpans(u)).toEqual([]);
    expect(u.extent.ocr).toEqual({ seconds: 16, share: 1 });
    expect(u.limitations).toContain("no-text-on-screen");
    expect(u.limitations).not.toContain("no-ocr");
    const read = await understandWith(new ScriptedReader(slideRead));
    expect(read.u.limitations).not.toContain("no-text-on-screen");
  });

  it("names a frame the reader cannot decode, and does not count it as read", async () => {
    const refusing = new ScriptedReader(() => {
      throw new UnreadableCutError("the screen reader refused the cut: no frame at 2 s");
    });
    const { u } = await understandWith(refusing);
    expect(ocrSpans(u).map((s) => s.text)).not.toContain("Quarterly safety review");
    expect(u.limitations).toContain("frame-extraction-failed");
    expect(u.extent.ocr).toEqual({ seconds: 12, share: 0.75 });
    expect(u.coverage.ocr).toBe(false);
  });

  it("throws a frame the reader could not answer, so the window is tried again", async () => {
    const down = new ScriptedReader(() => {
      throw new Error("the screen reader answered 503: busy");
    });
    const source = bytesSource(fixtureBytes("screen-text.mp4"));
    const probe = await probeMedia(source, {
      filename: "screen-text.mp4",
      contentType: "video/mp4",
    });
    const engine = new LocalMediaUnderstanding({ reader: down, frames: new MemoryFrames() });
    const input = understandInput(probe, { source });
    const [window] = engine.plan(input);
    if (!window) throw new Error("no window planned");
    await expect(engine.understandWindow(input, window)).rejects.toThrow(/503/);
    // After every retry the window is recorded as unavailable, and the video completes.
    const u = await engine.assemble(input, [{ ...window, result: engine.abandoned(window) }]);
    expect(u.limitations).toEqual(expect.arrayContaining(["no-ocr", "screen-reader-unavailable"]));
    expect(u.extent.ocr.seconds).toBe(0);
  });

  it("without a screen reader plans nothing and says the reader was not running", async () => {
    const { engine, input, u } = await understandWith(null);
    expect(engine.plan(input)).toEqual([]);
    expect(ocrSpans(u)).toEqual([]);
    expect(u.thumbnail.source).toBe("poster");
    expect(u.limitations).toEqual(expect.arrayContaining(["no-ocr", "screen-reader-not-running"]));
  });
});
