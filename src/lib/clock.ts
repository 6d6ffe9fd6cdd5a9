/** The current time as an ISO 8601 string with milliseconds, in UTC. */
export function nowIso(now: number = Date.now()): string {
  return new Date(now).toISOString();
}
