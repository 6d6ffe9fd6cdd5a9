import { describe, expect, it } from "vitest";
import type { MediaProbe } from "../../../src/domain/media";
import { LocalMediaUnderstanding } from "../../../src/ports/media-understanding/local";
import {
  understandWhole,
  type VideoUnderstanding,
} from "../../../src/ports/media-understanding/port";
import { probe, track, understandInput } from "./probes";

const engine = new LocalMediaUnderstanding();
const understand = (p: MediaProbe, filename = "holiday.mp4") =>
  understandWhole(engine, understandInput(p, { filename }));
const allEvidence = (u: VideoUnderstanding) => u.segments.flatMap((s) => s.evidence);

describe("LocalMediaUnderstanding", () => {
  it("puts a cue spanning a boundary in both segments, with its own times", async () => {
    // A 13 s cue cannot fit in one segment, so the boundary has to cross it.
    const u = await understand(
      probe({ textTracks: [track(0, [[5, 18, "A very long line"]], "eng")] }),
    );
    const holding = u.segments.filter((s) => s.transcript.includes("A very long line"));
    expect(holding.length).toBe(2);
    for (const s of holding) {
      expect(s.evidence).toContainEqual({
        kind: "transcript",
        start: 5,
        end: 18,
        text: "A very long line",
        source: "text-track:0:eng",
      });
      expect(s.sceneDescription).toBe('Captioned speech: "A very long line"');
    }
    // The track's cues end at 18 s of 30: an absence after them is not certain.
    expect(u.coverage.transcript).toBe(false);
    expect(u.extent.transcript).toEqual([
      { origin: "captions", source: "text-track:0:eng", language: "en", seconds: 18, share: 0.6 },
    ]);
    expect(u.limitations).not.toContain("no-timed-text");
  });

  it("marks the transcript complete when a track spans 95% of the video", async () => {
    const u = await understand(
      probe({ duration: 20, textTracks: [track(0, [[1, 19, "Almost to the end"]], "eng")] }),
    );
    expect(u.coverage.transcript).toBe(true);
    expect(u.extent.scene).toEqual({ seconds: 0, share: 0 });
  });

  it("detects the language of an untagged track from its text, offline", async () => {
    const german =
      "Bitte tragen Sie im Lager immer einen Schutzhelm und Sicherheitsschuhe, auch wenn es nur kurz ist.";
    const english =
      "Please always wear a hard hat and safety shoes in the warehouse, even for a short visit.";
    const u = await understand(
      probe({
        textTracks: [
          track(0, [[0, 29, german]]),
          track(1, [[0, 29, english]]),
          track(2, [[0, 29, "Ok."]]),
        ],
      }),
    );
    expect(u.extent.transcript.map((t) => [t.source, t.language])).toEqual([
      ["text-track:0", "de"],
      ["text-track:1", "en"],
      ["text-track:2", null],
    ]);
  });

  it("builds transcripts per track: styling removed, repeats collapsed", async () => {
    const tracks = [
      track(1, [[1, 3, "<v Bob>Bonjour</v>"]], "fre", "webvtt"),
      track(
        0,
        [
          [1, 2, "{\\i1}Hello{\\i0}\\Nthere"],
          [2, 2.5, "friend &amp; co"],
          [2.5, 3, "friend &amp; co"],
        ],
        "eng",
        "ass",
      ),
    ];
    const u = await understand(probe({ textTracks: tracks }));
    expect(u.segments[0]?.transcript).toBe("Hello there friend & co\nBonjour");
    expect(u.segments[0]?.tags).toEqual(["lang:eng", "lang:fre"]);
    expect(u.tags).toEqual(["lang:eng", "lang:fre"]);
  });

  it("says honestly that a video without cues has no transcript", async () => {
    const u = await understand(probe());
    expect(u.coverage).toEqual({ transcript: false, ocr: false, scene: false, metadata: false });
    expect(u.segments.map((s) => s.sceneDescription)).toEqual([
      "No timed text in this segment (00:00–00:08).",
      "No timed text in this segment (00:08–00:16).",
      "No timed text in this segment (00:16–00:24).",
      "No timed text in this segment (00:24–00:30).",
    ]);
    for (const s of u.segments) {
      expect(s.transcript).toBe("");
      expect(s.tags).toEqual([]);
      expect(s.evidence).toEqual([]);
    }
    expect(u.limitations).toEqual([
      "no-container-metadata",
      "no-ocr",
      "no-speech-recognition",
      "no-timed-text",
      "no-visual-analysis",
      "screen-reader-not-running",
      "thumbnail-generated-poster",
    ]);
  });

  it("uses embedded cover art as the thumbnail and cites it", async () => {
    const bytes = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]);
    const u = await understand(probe({ coverArt: { contentType: "image/jpeg", bytes } }));
    expect(u.thumbnail).toEqual({ contentType: "image/jpeg", bytes, source: "cover-art" });
    expect(u.segments[0]?.evidence).toContainEqual(
      expect.objectContaining({ kind: "thumbnail", source: "cover-art", start: 0, end: 0 }),
    );
    expect(u.limitations).not.toContain("thumbnail-generated-poster");
  });

  it("generates a labelled SVG poster when there is no cover art, and cites nothing for it", async () => {
    const p = probe({
      duration: 95,
      video: { codec: "avc1", width: 1920, height: 1080, rotation: 90, frameCount: 1, fps: 30 },
      tags: { title: 'Tom & Jerry <script>"x"', keywords: [], other: {} },
    });
    const u = await understand(p);
    expect(u.thumbnail.source).toBe("poster");
    expect(u.thumbnail.contentType).toBe("image/svg+xml");
    const svg = new TextDecoder().decode(u.thumbnail.bytes);
    expect(svg).toContain("Tom &amp; Jerry &lt;script&gt;&quot;x&quot;");
    expect(svg).toContain("01:35 · 1080×1920 · MP4");
    expect(svg).toContain("Generated poster, not a frame of the video");
    expect(svg).not.toContain("<script");
    expect(allEvidence(u).filter((e) => e.kind === "thumbnail")).toEqual([]);
    const untitled = await understand(probe({ video: null }), "clip.mov");
    expect(new TextDecoder().decode(untitled.thumbnail.bytes)).toContain("clip.mov");
  });

  it("takes tags only from container tags and what the transcript literally says", async () => {
    const p = probe({
      tags: {
        title: "How to Make Fresh Pasta 2024",
        comment: "Encoded with HandBrake",
        description: "A kitchen video",
        keywords: ["Cooking, Pasta", "kitchen tips"],
        other: { encoder: "Lavf60.3.100" },
      },
      textTracks: [
        track(
          0,
          [
            [1, 3, "Today we cook pasta."],
            [20, 22, "Some kitchen tips now."],
          ],
          "eng",
        ),
      ],
    });
    const u = await understand(p);
    expect(u.tags).toEqual(["cooking", "pasta", "kitchen tips", "make", "fresh", "lang:eng"]);
    expect(u.title).toBe("How to Make Fresh Pasta 2024");
    expect(u.description).toBe("A kitchen video");
    expect(u.segments.map((s) => s.tags)).toEqual([
      ["pasta", "lang:eng"],
      [],
      ["kitchen tips", "lang:eng"],
      [],
    ]);
    for (const s of u.segments) {
      for (const tag of s.tags.filter((t) => !t.startsWith("lang:"))) {
        expect(s.transcript.toLowerCase()).toContain(tag);
      }
    }
    expect(u.coverage.metadata).toBe(true);
    const metadata = allEvidence(u).filter((e) => e.kind === "metadata");
    expect(metadata.map((e) => e.source)).toEqual([
      "container-tags:title",
      "container-tags:description",
      "container-tags:comment",
      "container-tags:keywords",
      "container-tags:encoder",
    ]);
    expect(u.segments[0]?.evidence.filter((e) => e.kind === "metadata")).toEqual(metadata);
  });

  it("leaves out cues past the end of the video and says so", async () => {
    const p = probe({
      textTracks: [
        track(0, [
          [2, 3, "inside"],
          [45, 47, "beyond"],
        ]),
      ],
    });
    const u = await understand(p);
    expect(u.segments.map((s) => s.transcript).join(" ")).not.toContain("beyond");
    expect(u.limitations).toContain("cues-outside-duration");
  });

  it("never claims to have looked at the picture or heard the sound", async () => {
    const u = await understand(probe({ textTracks: [track(0, [[1, 2, "hi"]])] }));
    expect(u.engine).toBe("local-media@4");
    expect(u.coverage.scene).toBe(false);
    expect(u.coverage.ocr).toBe(false);
    const kinds = new Set(allEvidence(u).map((e) => e.kind));
    expect(kinds.has("scene") || kinds.has("ocr")).toBe(false);
    expect(u.limitations).toEqual(
      expect.arrayContaining(["no-visual-analysis", "no-speech-recognition", "no-ocr"]),
    );
  });

  it("gives one honest segment for a zero-length video", async () => {
    const u = await understand(probe({ duration: 0, keyframes: [] }));
    expect(u.segments).toHaveLength(1);
    expect(u.segments[0]).toMatchObject({ start: 0, end: 0, transcript: "" });
  });

  it("is deterministic: the same file gives a deep-equal understanding", async () => {
    const cues: [number, number, string][] = [
      [0.5, 4, "one"],
      [7, 12, "two"],
      [12, 13, "three"],
      [25, 29, "four"],
    ];
    const make = (order: typeof cues) =>
      probe({
        textTracks: [track(0, order, "eng")],
        tags: { title: "Fresh Pasta", keywords: ["pasta"], other: {} },
      });
    const first = await understand(make(cues));
    expect(await understand(make(cues))).toEqual(first);
    expect(await understand(make([...cues].reverse()))).toEqual(first);
  });
});
