// Request bodies and wire types shared by the profile tests.

import type { Head, HeadPage } from "../heads/shared";

/** A profile version as the API answers it. */
export interface ProfileVersion {
  profile_id: string;
  version: number;
  instructions: string;
  answer_specs: Record<string, unknown>[];
  created_by: string;
  created_at: string;
}

/** A profile head as the API answers it (`latest` on single reads and changes). */
export type Profile = Head<ProfileVersion>;

/** A paged list of profiles. */
export type ProfilePage = HeadPage<ProfileVersion>;

/** An answer spec using every field of the spec's Profile and report template heads section. */
export function fullAnswerSpec(key = "dock_door_events"): Record<string, unknown> {
  return {
    answer_key: key,
    answer_type: "timeline",
    aggregation_level: "video",
    coverage: "complete",
    temporal_granularity: "semantic_segment",
    temporal_scope: "windowed",
    evidence: { accepted_types: ["clip", "transcript"], per_field: true, required: true },
    fields: [
      {
        key: "door_state",
        label: "Door state",
        description: "Open or closed",
        type: "string",
        required: true,
      },
      { key: "operator", label: "Operator" },
    ],
    description: "Every time a dock door opens or closes.",
  };
}

/** A valid version body; `n` varies the content so versions can be told apart. */
export function versionBody(n = 1): Record<string, unknown> {
  return {
    instructions: `Review the loading dock footage (revision ${n}).`,
    answer_specs: [
      fullAnswerSpec(),
      { answer_key: `forklift-count-${n}`, answer_type: "measurement" },
    ],
  };
}

/** A valid create body. */
export function createBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: "Loading dock safety",
    description: "Dock doors, forklifts and PPE.",
    ...versionBody(1),
    ...overrides,
  };
}
