import { applyD1Migrations, env } from "cloudflare:test";
import { afterEach, expect } from "vitest";
import { oversizedRows } from "../helpers/row-sizes";

// Setup files run before each test file; applying is idempotent.
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);

// Production D1 refuses a row over 2,000,000 bytes; the simulator stores it. Every test
// proves it left none (single values and function arguments are checked by the binding
// wrapper in src/db/client.ts as statements are sent).
afterEach(async () => {
  expect(await oversizedRows(), "rows over D1's 2,000,000-byte limit").toEqual([]);
});
