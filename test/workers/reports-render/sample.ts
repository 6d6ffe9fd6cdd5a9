import type { RenderInput } from "../../../src/services/reports/types";
import { answer, ev, input, item } from "./fixtures";

/** A run with one answer of every type and a template using every block type. */
export function sampleInput(language = "en"): RenderInput {
  const forklift = ev("a1", 5, 8.4);
  const helmet = ev("b2", 65, 70);
  const late = ev("c3", 3700, 3710);
  return input(
    [
      { type: "heading", label: "Dock safety review" },
      { type: "verdict", answer_key: "helmets_worn", label: "Helmets worn" },
      { type: "verdict", answer_key: "gate_closed", label: "Gate closed" },
      { type: "measurement", answer_key: "forklift_count", label: "Forklifts" },
      {
        type: "timeline",
        answer_key: "events",
        label: "Events",
        field_labels: [
          { key: "label", label: "What happened" },
          { key: "zone", label: "Zone" },
        ],
      },
      {
        type: "table",
        answer_key: "checks",
        label: "Checks",
        columns: [
          { key: "label", label: "Check" },
          { key: "result_state", label: "Outcome" },
          { key: "value", label: "Passed" },
        ],
        mapping: { found: "OK", true: "Yes!" },
      },
      { type: "narrative", label: "Overall" },
      { type: "narrative", answer_key: "story", label: "Story" },
      { type: "sparkline", answer_key: "forklift_count" },
      { type: "verdict", answer_key: "never_made", label: "Fire exits" },
    ],
    [
      answer("helmets_worn", "verdict", "found", {
        value: true,
        summary: "Every worker wore a helmet.",
        representative: [helmet],
      }),
      answer("gate_closed", "verdict", "uncertain", {
        value: true,
        summary: "The gate is out of frame after 01:00.",
      }),
      answer("forklift_count", "measurement", "found", {
        value: 2,
        unit: "vehicles",
        representative: [forklift],
      }),
      answer("events", "timeline", "found", {
        items: [
          item("evt_2", "Late delivery", "found", { attributes: { zone: "B" }, evidence: [late] }),
          item("evt_1", "Forklift enters", "found", {
            attributes: { start: 5, end: 8.4, zone: "A" },
            evidence: [forklift],
          }),
          item("evt_3", "Helmet off?", "uncertain", { evidence: [helmet] }),
        ],
      }),
      answer("checks", "enumeration", "found", {
        items: [
          item("chk_1", "Gate", "uncertain", { value: true }),
          item("chk_2", "Lights", "found", { value: true }),
          item("chk_3", "Cones", "not_found", { value: false }),
        ],
      }),
      answer("story", "synthesis", "found", { summary: "A quiet shift." }),
    ],
    language,
  );
}
