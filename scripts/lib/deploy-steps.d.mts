// Types of deploy-steps.mjs for the node tests (the constants only).
export const DEPLOYED_SECRETS: string[];
export const GENERATED_SECRETS: string[];
export const VECTOR_INDEX: {
  dimensions: number;
  metric: string;
  metadata: { propertyName: string; type: string }[];
};
