import { type CursorKey, decodeCursor, encodeCursor } from "./cursor";

/** The paged list envelope of the spec. */
export interface Page<T> {
  data: T[];
  has_more: boolean;
  next_cursor: string | null;
}

/** What a list route hands to a repo: how many rows, and where to resume. */
export interface PageQuery {
  limit: number;
  after: CursorKey | undefined;
}

/** Context that binds cursors to one list. */
export interface ListScope {
  secret: string;
  scope: string;
}

/**
 * The scope of one list's cursors: its name and every filter that shapes it, so a cursor
 * is refused by another list, another workspace or the same list filtered differently.
 * An absent filter is an empty part.
 */
export function listScope(
  secret: string,
  name: string,
  ...filters: (string | undefined)[]
): ListScope {
  return { secret, scope: [name, ...filters.map((filter) => filter ?? "")].join("|") };
}

/** Turns the `cursor` and `limit` query values into a repo query. */
export async function pageQuery(
  list: ListScope,
  query: { cursor?: string | undefined; limit: number },
): Promise<PageQuery> {
  return {
    limit: query.limit,
    after:
      query.cursor === undefined
        ? undefined
        : await decodeCursor(list.secret, list.scope, query.cursor),
  };
}

/**
 * Builds the envelope from `limit + 1` rows fetched in list order: the extra row only
 * tells whether another page exists.
 */
export async function toPage<Row, Item>(
  list: ListScope,
  rows: Row[],
  limit: number,
  keyOf: (row: Row) => CursorKey,
  present: (row: Row) => Item,
): Promise<Page<Item>> {
  const hasMore = rows.length > limit;
  const pageRows = hasMore ? rows.slice(0, limit) : rows;
  const last = pageRows[pageRows.length - 1];
  return {
    data: pageRows.map(present),
    has_more: hasMore,
    next_cursor:
      hasMore && last !== undefined
        ? await encodeCursor(list.secret, list.scope, keyOf(last))
        : null,
  };
}
