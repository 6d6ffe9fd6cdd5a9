import { describe, expect, it } from "vitest";
import { cueText } from "../../../src/media/subtitle-text";

// The plain text of subtitle cues as Matroska stores them.

describe("cueText", () => {
  it("takes the Text field of an ASS event, commas included, and strips override tags", () => {
    const event = "3,0,Default,Narrator,0,0,0,,{\\an8\\pos(80,10)}Hello, {\\i1}world{\\i0}!\\Nbye";

    expect(cueText("ass", event)).toBe("Hello, world!\nbye");
  });

  it("turns ASS hard spaces into spaces and drops drawing-only events to empty text", () => {
    expect(cueText("ssa", "1,Marked=0,Default,,0,0,0,,a\\hb")).toBe("a b");
    expect(cueText("ass", "2,0,Default,,0,0,0,,{\\p1}m 0 0 l 100 0 100 100{\\p0}")).toBe("");
    expect(cueText("ass", "not an event")).toBe("");
  });

  it("strips HTML-ish styling and position codes from SRT", () => {
    expect(cueText("srt", '{\\an8}<i>Mind</i> the <font color="red">gap</font>\r\n')).toBe(
      "Mind the gap",
    );
  });

  it("strips WebVTT voice and class spans and decodes entities", () => {
    expect(cueText("webvtt", "<v Chef>Salt &amp; <c.loud>pepper</c></v>\n<00:00:01.000>now")).toBe(
      "Salt & pepper\nnow",
    );
  });
});
