/**
 * Seconds as a player's clock: `mm:ss`, or `h:mm:ss` from one hour on. Whole seconds, rounded
 * down (7.9 s is 00:07); negatives read 00:00. Callers decide what a non-finite value means
 * before calling: it is not a time, and this function does not guess one.
 */
export function formatClock(seconds: number): string {
  const total = Math.max(0, Math.floor(seconds));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const mm = String(m).padStart(2, "0");
  const ss = String(s).padStart(2, "0");
  return h > 0 ? `${h}:${mm}:${ss}` : `${mm}:${ss}`;
}
