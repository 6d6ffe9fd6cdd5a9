// Types of migrations.mjs for the node tests.
/** Whether the state folder's one D1 database has recorded every file of `migrations/`. */
export function migrationsApplied(stateDir: string): Promise<boolean>;
/** Applies the D1 migrations to the local state folder (the same one wrangler dev uses). */
export function applyMigrations(stateDir: string): Promise<void>;
