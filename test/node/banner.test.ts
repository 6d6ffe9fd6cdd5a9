import { describe, expect, it } from "vitest";
import { adaptersBanner } from "../../scripts/lib/banner.mjs";

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
