import { afterAll, expect } from "vitest";
import { freshStorage } from "../helpers/fresh-storage";
import { queuesQuiet } from "../helpers/queue-quiet";
import { oversizedRows } from "../helpers/row-sizes";

// Setup files run before each test file. One workerd serves many files (the workers project
// does not isolate), so each file first deletes what earlier files stored
// (test/workers/foundation/storage-per-file.test.ts proves it does, whatever ran before).
await freshStorage();

// Production D1 refuses a row over 2,000,000 bytes; the simulator stores it. Every test file
// proves it left none (single values and function arguments are checked by the binding
// wrapper in src/db/client.ts as statements are sent). Once per file: after each test, the
// scan of every table cost ~0.4 s a test in the query-plan file's seeded database.
afterAll(async () => {
  expect(await oversizedRows(), "rows over D1's 2,000,000-byte limit").toEqual([]);
  // Queue messages the file sent last are delivered before it ends: work still in flight when
  // the next file starts can fail that file's load in the shared workerd.
  await queuesQuiet();
});
