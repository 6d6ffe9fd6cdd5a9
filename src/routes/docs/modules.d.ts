// wrangler.toml's [[rules]] load this file as a Text module: its source, not its exports.
declare module "@scalar/api-reference/browser/standalone.js" {
  const source: string;
  export default source;
}
