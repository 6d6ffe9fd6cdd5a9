import { describe, expect, it } from "vitest";
import { buildReport } from "../../../src/services/reports/build";
import { citedEvidence, citedInModel } from "../../../src/services/reports/cited";
import { renderModel, renderReport } from "../../../src/services/reports/render";
import { sampleInput } from "./sample";

// createReports builds the model once per request and writes every format from it; that must
// give the bytes and manifest that building it afresh per format gives.
describe("one model for every format of a request", () => {
  it("renders each format and the citations byte for byte as from a fresh model", () => {
    for (const language of ["en", "ja"]) {
      const model = buildReport(sampleInput(language));
      const before = structuredClone(model);
      for (const format of ["json", "markdown", "json"] as const) {
        const shared = renderModel(model, format);
        const fresh = renderReport(sampleInput(language), format);
        expect(shared.content_type).toBe(fresh.content_type);
        expect(Array.from(shared.bytes)).toEqual(Array.from(fresh.bytes));
      }
      expect(citedInModel(model)).toEqual(citedEvidence(sampleInput(language)));
      expect(model, "rendering must not change the model").toEqual(before);
    }
  });
});
