export * from "./analysis-config";
export * from "./events";
export * from "./runs";
export * from "./segments";
export * from "./videos";
export * from "./webhooks";
export * from "./work-leases";
export * from "./workspaces";
