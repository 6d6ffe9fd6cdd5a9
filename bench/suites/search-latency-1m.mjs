// Search at 1M segments in one workspace: the same measurement as search-latency
// at 100k and 1M. Seeding a million segments through the real indexing step takes a while.
import { measure } from "./search-latency.mjs";

export const name = "search-latency-1m";

export async function run(service) {
  return measure(service, [100_000, 1_000_000]);
}
