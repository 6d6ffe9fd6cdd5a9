import path from "node:path";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

/**
 * Two projects: `workers` runs inside workerd with the real bindings of wrangler.toml
 * (storage isolated per test file); `node` drives the real local service as a process.
 */
export default defineConfig(async () => {
  const migrations = await readD1Migrations(path.join(import.meta.dirname, "migrations"));
  return {
    test: {
      // Vitest runs one file at a time on a 2-core machine by default; the node project's
      // files mostly wait on a local process (docs/decisions.md, "Test suite run time").
      maxWorkers: 2,
      projects: [
        {
          plugins: [
            cloudflareTest({
              main: "./src/index.ts",
              wrangler: { configPath: "./wrangler.toml" },
              miniflare: {
                bindings: {
                  TEST_MIGRATIONS: migrations,
                  ADMIN_TOKEN: "test-admin-token",
                  SIGNING_SECRET: "test-signing-secret-0123456789abcdef",
                },
              },
            }),
          ],
          // Media fixtures load as `?inline` data URLs; Vite knows .mp4/.mov/.webm as assets
          // but not .mkv.
          assetsInclude: ["**/*.mkv"],
          resolve: {
            // mediabunny's ESM entry imports node:fs/promises for its Node-only file source.
            // Wrangler's bundler drops that file through the package's "browser" field; Vite's
            // workerd runner does not, so tests load the package's self-contained ESM bundle.
            alias: [
              {
                find: /^mediabunny$/,
                replacement: path.join(
                  import.meta.dirname,
                  "node_modules/mediabunny/dist/bundles/mediabunny.mjs",
                ),
              },
              // wrangler.toml's Text rule for the /docs viewer, in Vite's words.
              {
                find: /^@scalar\/api-reference\/browser\/standalone\.js$/,
                replacement: `${path.join(
                  import.meta.dirname,
                  "node_modules/@scalar/api-reference/dist/browser/standalone.js",
                )}?raw`,
              },
            ],
          },
          test: {
            name: "workers",
            // Starting workerd takes seconds and isolating files starts one per file; shared
            // runners keep one per worker, and the setup file gives each file empty storage.
            isolate: false,
            restoreMocks: true,
            testTimeout: 30_000,
            include: ["test/workers/**/*.test.ts"],
            setupFiles: ["./test/workers/apply-migrations.ts"],
          },
        },
        {
          test: {
            // The typed client's unit tests (clients/typescript), against a fake fetch.
            name: "client",
            include: ["clients/typescript/test/**/*.test.ts"],
            environment: "node",
          },
        },
        {
          test: {
            name: "node",
            include: ["test/node/**/*.test.ts"],
            environment: "node",
            globalSetup: ["./test/node/migrated-state.ts"],
            testTimeout: 120_000,
            hookTimeout: 180_000,
          },
        },
      ],
    },
  };
});
