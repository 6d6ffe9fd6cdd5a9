/** One accepted vector of a write not yet applied. */
export interface PendingRow {
  mutation: string;
  due: number;
  kind: "insert" | "upsert" | "delete";
  id: string;
  namespace: string | null;
  vals: ArrayBuffer | null;
  metadata: string | null;
}

type Stored = {
  seq: number;
  mutation: string;
  due: number;
  kind: string;
  id: string;
  namespace: string | null;
  vals: ArrayBuffer | null;
  metadata: string | null;
};

/** Queues one vector (or one deletion) of a write. */
export function queue(sql: SqlStorage, row: PendingRow): void {
  sql.exec(
    "INSERT INTO vsim_pending (mutation, due, kind, id, namespace, vals, metadata) VALUES (?, ?, ?, ?, ?, ?, ?)",
    row.mutation,
    row.due,
    row.kind,
    row.id,
    row.namespace,
    row.vals,
    row.metadata,
  );
}

/**
 * Applies every queued write whose delay has passed, in the order they were accepted, and
 * answers the last one applied (its mutation id and when it became visible), if any.
 */
export function applyDue(sql: SqlStorage, now: number): { mutation: string; at: string } | null {
  const due = sql
    .exec<Stored>(
      "SELECT seq, mutation, due, kind, id, namespace, vals, metadata FROM vsim_pending WHERE due <= ? ORDER BY seq",
      now,
    )
    .toArray();
  for (const p of due) {
    if (p.kind === "delete") sql.exec("DELETE FROM vsim_vectors WHERE id = ?", p.id);
    else {
      // insert keeps an existing id (vectorize/reference/client-api); upsert replaces it whole.
      const verb = p.kind === "insert" ? "INSERT OR IGNORE" : "INSERT OR REPLACE";
      sql.exec(
        `${verb} INTO vsim_vectors (id, namespace, vals, metadata) VALUES (?, ?, ?, ?)`,
        p.id,
        p.namespace,
        p.vals,
        p.metadata,
      );
    }
  }
  const last = due.at(-1);
  if (last === undefined) return null;
  sql.exec("DELETE FROM vsim_pending WHERE seq <= ?", last.seq);
  return { mutation: last.mutation, at: new Date(last.due).toISOString() };
}
