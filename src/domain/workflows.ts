/** Lifecycle labels of a workflow (the spec shows `draft`). */
export const WORKFLOW_STATUSES = ["draft", "active", "archived"] as const;

/** One workflow status. */
export type WorkflowStatus = (typeof WORKFLOW_STATUSES)[number];

/** What a workflow run produces: findings always, and reports in these formats. */
export const WORKFLOW_OUTPUT_MODES = ["findings", "json", "markdown"] as const;

/** One output mode. */
export type WorkflowOutputMode = (typeof WORKFLOW_OUTPUT_MODES)[number];

/** Limits of one workflow. */
export const WORKFLOW_LIMITS = {
  nameChars: 200,
  playbookChars: 20_000,
  sources: 50,
} as const;
