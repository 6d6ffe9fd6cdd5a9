// Checks the alpha OpenAPI document the way a client generator sees it, with no server
// running: exports it from the app, lints it (redocly.yaml), generates TypeScript types
// from it (openapi-typescript) and type-checks test/client/client.ts against those types.
// Writes dist/openapi/openapi.json and dist/openapi/openapi.d.ts; `npm test` runs it.
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";

const root = path.join(import.meta.dirname, "..");
const out = path.join(root, "dist", "openapi");
const bin = (name) => path.join(root, "node_modules", ".bin", name);

function step(label, command, args) {
  try {
    execFileSync(command, args, { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
  } catch (error) {
    process.stderr.write(`${label} failed:\n${error.stdout ?? ""}${error.stderr ?? ""}`);
    process.exit(1);
  }
}

mkdirSync(out, { recursive: true });
// The app is TypeScript for workerd; bundled for Node it builds the document without bindings.
const bundle = path.join(out, "app.mjs");
await build({
  entryPoints: [path.join(root, "src", "app.ts")],
  bundle: true,
  platform: "node",
  format: "esm",
  outfile: bundle,
  logLevel: "error",
  // wrangler.toml loads the /docs viewer as a Text module; the document needs none of it.
  plugins: [
    {
      name: "docs-viewer-as-text",
      setup(esbuild) {
        esbuild.onResolve({ filter: /^@scalar\/api-reference\/browser\/standalone\.js$/ }, () => ({
          path: "docs-viewer",
          namespace: "text",
        }));
        esbuild.onLoad({ filter: /.*/, namespace: "text" }, () => ({
          contents: "",
          loader: "text",
        }));
      },
    },
  ],
});
const { alphaOpenApiDocument } = await import(pathToFileURL(bundle).href);
const documentPath = path.join(out, "openapi.json");
writeFileSync(
  documentPath,
  `${JSON.stringify(alphaOpenApiDocument("http://localhost:8787"), null, 2)}\n`,
);

step("redocly lint", bin("redocly"), [
  "lint",
  documentPath,
  "--config",
  path.join(root, "redocly.yaml"),
  "--format",
  "stylish",
]);
step("openapi-typescript", bin("openapi-typescript"), [
  documentPath,
  "--output",
  path.join(out, "openapi.d.ts"),
]);
step("client type-check", bin("tsc"), ["--noEmit", "-p", path.join(root, "test", "client")]);
console.log(`OpenAPI document exported, linted and typed: ${path.relative(root, documentPath)}`);
