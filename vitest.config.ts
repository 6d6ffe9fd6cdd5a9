import path from "node:path";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

/** The node tests that drive the real local process (`npm run dev`). */
const PROCESS_TESTS = [
  "test/node/busy-port.test.ts",
  "test/node/local-service.test.ts",
  "test/node/browser/pages.test.ts",
  "test/node/client/*.test.ts",
  "test/node/reliability/probes.test.ts",
  "test/node/webhooks/local-delivery.test.ts",
];

/**
 * The node projects' files mostly wait on processes they start (`npm run dev`, wrangler), so
 * they run more at a time than the CPU-bound workerd files. Vitest gives a project its own
 * worker count only in a group of its own (`sequence.groupOrder`), and groups run one after
 * the other: the workers and client files first, then the node files.
 */
const NODE_LANES = { maxWorkers: 4, sequence: { groupOrder: 1 } };

/**
 * Projects: `workers` runs inside workerd with the real bindings of wrangler.toml (storage
 * isolated per test file); `client` tests the typed client; `node` drives the real local
 * service as a process, and `node-production` drives it again with the production adapters.
 */
export default defineConfig(async () => {
  const migrations = await readD1Migrations(path.join(import.meta.dirname, "migrations"));
  return {
    test: {
      // Two files at a time for the workerd projects: their files are CPU-bound on 2 cores
      // (docs/decisions/tests.md). The node projects set their own count below.
      maxWorkers: 2,
      projects: [
        {
          plugins: [
            cloudflareTest(({ inject }) => ({
              main: "./src/index.ts",
              wrangler: { configPath: "./wrangler.toml" },
              miniflare: {
                bindings: {
                  TEST_MIGRATIONS: migrations,
                  ADMIN_TOKEN: "test-admin-token",
                  SIGNING_SECRET: "test-signing-secret-0123456789abcdef",
                  // Uploads of the windows contention test; `npm run bench` asks for more.
                  CONTENTION_UPLOADS: process.env.CONTENTION_UPLOADS ?? "",
                  WEBHOOK_RECEIVERS: inject("webhookReceivers"),
                },
              },
            })),
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
            // Loopback webhook receivers for the tests that go through the runtime's fetch.
            globalSetup: ["./test/node/webhook-receivers.ts"],
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
            ...NODE_LANES,
            environment: "node",
            globalSetup: ["./test/node/migrated-state.ts", "./test/node/client-build.ts"],
            testTimeout: 120_000,
            hookTimeout: 180_000,
          },
        },
        {
          test: {
            // The same tests of the real local process again, with the production adapters
            // over the local simulators (`ADAPTERS=production`): the same assertions hold.
            // The smoke test, the crash test and test/node/production run both modes themselves.
            name: "node-production",
            include: PROCESS_TESTS,
            ...NODE_LANES,
            env: { ADAPTERS: "production" },
            environment: "node",
            globalSetup: ["./test/node/migrated-state.ts", "./test/node/client-build.ts"],
            testTimeout: 180_000,
            hookTimeout: 180_000,
          },
        },
      ],
    },
  };
});
