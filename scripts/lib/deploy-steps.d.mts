// Types of deploy-steps.mjs for the node tests (the constants only).
export const VECTOR_INDEX: {
  dimensions: number;
  metric: string;
  metadata: { propertyName: string; type: string }[];
};
