import { applyD1Migrations, env, reset } from "cloudflare:test";

// Setup files run before each test file. One workerd serves many files (the workers project
// does not isolate), so each file first deletes what earlier files stored: D1, R2, queues and
// Durable Objects all live in Durable Objects under Miniflare.
await reset();
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
