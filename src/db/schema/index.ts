export * from "./events";
export * from "./segments";
export * from "./videos";
export * from "./workspaces";
