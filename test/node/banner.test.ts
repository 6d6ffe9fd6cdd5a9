import { describe, expect, it } from "vitest";
import { adaptersBanner, pagesBanner, understandingBanner } from "../../scripts/lib/banner.mjs";

describe("the start banner's adapters", () => {
  it("says the local adapters call no platform service", () => {
    const lines = adaptersBanner({ status: "ok", adapters: "local", simulated: [] });
    expect(lines.join("\n")).toMatch(/Adapters: +local/);
    expect(lines.join("\n")).not.toContain("Simulated");
  });

  it("names the simulated services and the simulator settings in effect, defaults marked", () => {
    const health = {
      status: "ok",
      adapters: "production",
      simulated: ["ai", "media", "vectorize", "r2"],
    };
    const text = adaptersBanner(health, {
      SIMULATE_VISION: "describe",
      SIMULATE_FAULT_RATE: "0.2",
    }).join("\n");
    expect(text).toContain("production, over local simulators");
    expect(text).toContain("Workers AI (speech, vision, answers, embeddings) (ai)");
    expect(text).toContain("Media Transformations (media)");
    expect(text).toContain("Vectorize (vectorize)");
    expect(text).toContain("R2's S3 API (r2)");
    expect(text).toContain("SIMULATE_VISION=describe,");
    expect(text).toContain("SIMULATE_FAULT_RATE=0.2,");
    expect(text).toContain("SIMULATE_MODEL_LATENCY_MS=0 (default)");
    expect(text).toContain("SIMULATE_VECTORIZE_DELAY_MS=1000 (default)");
    expect(text).toContain("SIMULATE_BROKEN=none (default)");
  });

  it("says a deployment without simulators runs the platform's own services", () => {
    const text = adaptersBanner({ status: "ok", adapters: "production", simulated: [] }).join("\n");
    expect(text).toContain("production (the platform's own services)");
    expect(text).not.toContain("Simulated");
  });
});

describe("the start banner's understanding and pages", () => {
  const local = {
    status: "ok",
    adapters: "local",
    simulated: [],
    understanding: {
      speech: false,
      hears: "caption tracks and uploaded captions; speech is not recognised",
      sees: "nothing: pictures are not looked at and text written on screen is not read",
      reads: "container tags and the filename",
    },
  };

  it("says what the service reports it hears, sees and reads, in its own words", () => {
    const lines = understandingBanner(local);
    expect(lines.slice(0, 3)).toEqual([
      "  Hears:      caption tracks and uploaded captions; speech is not recognised",
      "  Sees:       nothing: pictures are not looked at and text written on screen is not read",
      "  Reads:      container tags and the filename",
    ]);
    // Where nothing recognises speech, it says how a video is heard: its captions.
    expect(lines.slice(3).join(" ")).toMatch(
      /^ {2}Captions: +send a \.vtt or \.srt .*vas captions put/,
    );
  });

  it("wraps a long line under its text and names no captions where speech is heard", () => {
    const hears = `recognised speech, ${"and caption tracks ".repeat(8).trim()}`;
    const lines = understandingBanner({
      ...local,
      understanding: { ...local.understanding, speech: true, hears },
    });
    const heard = lines.slice(
      0,
      lines.findIndex((line) => line.startsWith("  Sees:")),
    );
    expect(heard.length).toBeGreaterThan(1);
    for (const line of heard) expect(line.length).toBeLessThanOrEqual(92);
    expect(heard.slice(1).every((line) => /^ {14}\S/.test(line))).toBe(true);
    expect(heard.map((line) => line.slice(14)).join(" ")).toBe(hears);
    expect(lines.join("\n")).not.toContain("Captions:");
  });

  it("says nothing of it for a service that does not report it", () => {
    expect(understandingBanner({ status: "ok", adapters: "local", simulated: [] })).toEqual([]);
    expect(understandingBanner(null)).toEqual([]);
  });

  it("names the API reference and the playground", () => {
    expect(pagesBanner("http://127.0.0.1:8787")).toEqual([
      "  API docs:   http://127.0.0.1:8787/docs",
      "  Playground: http://127.0.0.1:8787/playground (paste the key: upload, watch, search, run)",
    ]);
  });
});
