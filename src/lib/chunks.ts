/** D1 binds at most 100 parameters per statement; this leaves room for a query's other ones. */
export const IDS_PER_STATEMENT = 90;

/** Items in consecutive slices of at most `size`, in their order. */
export function chunks<T>(items: readonly T[], size: number): T[][] {
  if (!Number.isInteger(size) || size < 1) throw new RangeError(`chunk size ${size}`);
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
