import { applyD1Migrations, env, reset } from "cloudflare:test";

/**
 * Deletes everything stored (D1, R2, queues and Durable Objects all live in Durable Objects
 * under Miniflare) and migrates D1 again: what the workers setup file runs before each file.
 */
export async function freshStorage(): Promise<void> {
  await reset();
  await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
}
