export * from "./videos";
export * from "./workspaces";
