/**
 * The analysis profile the node tests run: one verdict, whether operators wear high
 * visibility vests, answered from the transcript (which the local engine reads).
 */
export function vestsProfile() {
  return {
    name: "Vests",
    instructions: "Check the rule.",
    answer_specs: [
      {
        answer_key: "vests",
        answer_type: "verdict" as const,
        description: "operators must wear high visibility vests",
        evidence: { accepted_types: ["transcript" as const], required: true },
      },
    ],
  };
}
