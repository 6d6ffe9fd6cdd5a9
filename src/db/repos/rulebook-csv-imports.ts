import { and, eq } from "drizzle-orm";
import type { Database } from "../client";
import { rulebookCsvImports } from "../schema";

/** A CSV import session row. */
export type CsvImportRow = typeof rulebookCsvImports.$inferSelect;

/** Inserts a CSV import session. */
export async function insertCsvImport(db: Database, row: CsvImportRow): Promise<void> {
  await db.insert(rulebookCsvImports).values(row);
}

/** A session of this workspace and owner, or null (foreign sessions read as absent). */
export async function findCsvImport(
  db: Database,
  owner: { workspaceId: string; ownerId: string },
  id: string,
): Promise<CsvImportRow | null> {
  const rows = await db
    .select()
    .from(rulebookCsvImports)
    .where(
      and(
        eq(rulebookCsvImports.id, id),
        eq(rulebookCsvImports.workspaceId, owner.workspaceId),
        eq(rulebookCsvImports.ownerId, owner.ownerId),
      ),
    )
    .limit(1);
  return rows[0] ?? null;
}
