import { describe, expect, it } from "vitest";
import { reasonOf } from "../../scripts/lib/trial-report.mjs";

describe("the trial report's reasons for a limitation", () => {
  it("names the codec, the quota, the memory and an undocumented model error", () => {
    expect(reasonOf("frame-extraction-refused:hevc")).toMatchObject({ kind: "codec" });
    expect(reasonOf("frame-extraction-refused:hevc").reason).toContain("hevc");
    expect(reasonOf("quota-exceeded:media-transformations")).toMatchObject({ kind: "quota" });
    expect(reasonOf("frame-too-large")).toMatchObject({ kind: "memory" });
    expect(reasonOf("model-error:upstream reset")).toMatchObject({ kind: "failure" });
  });

  it("says so when it does not know a code", () => {
    expect(reasonOf("something-new")).toMatchObject({ kind: "other" });
  });
});
