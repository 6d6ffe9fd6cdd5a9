// Types of deploy-secrets.mjs for the node tests (the constants only).
export const DEPLOYED_SECRETS: string[];
export const GENERATED_SECRETS: string[];
