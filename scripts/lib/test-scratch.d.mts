export const MIN_FREE_BYTES: number;
export function removeStale(root: string, prefix: string): void;
export function memoryScratch(
  root?: string,
  prefix?: string,
  minFreeBytes?: number,
): { dir: string; remove: () => void } | null;
