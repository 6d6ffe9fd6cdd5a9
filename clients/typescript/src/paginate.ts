/** The shape of every list the service answers: a page of `data` and an opaque cursor. */
export interface Page<T> {
  data: T[];
  has_more: boolean;
  next_cursor: string | null;
}

/**
 * Every item of a list, page after page, in the order the service answers them:
 * `for await (const video of paginate((cursor) => client.listVideos({ cursor })))`.
 */
export async function* paginate<T>(
  fetchPage: (cursor: string | undefined) => Promise<Page<T>>,
): AsyncGenerator<T, void, undefined> {
  let cursor: string | undefined;
  const seen = new Set<string>();
  for (;;) {
    const page = await fetchPage(cursor);
    yield* page.data;
    if (!page.has_more || !page.next_cursor) return;
    // A cursor that comes back would loop forever; the service never does that on purpose.
    if (seen.has(page.next_cursor)) throw new Error(`The cursor ${page.next_cursor} repeated.`);
    seen.add(page.next_cursor);
    cursor = page.next_cursor;
  }
}

/** Collects an async iterable into an array. */
export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}
