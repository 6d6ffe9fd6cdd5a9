import { env } from "cloudflare:workers";

/** A queue producer binding: Miniflare's reports its backlog as the platform's does. */
interface MeteredQueue {
  send(body: unknown): Promise<unknown>;
  metrics(): Promise<{ backlogCount: number }>;
}

function isMeteredQueue(value: unknown): value is MeteredQueue {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as Partial<MeteredQueue>).send === "function" &&
    typeof (value as Partial<MeteredQueue>).metrics === "function"
  );
}

/**
 * Every queue of the test runtime's bindings (wrangler.toml names them `*_QUEUE`; a service
 * binding's RPC stub answers any property with a function, so the names decide, not the shape).
 */
function queues(): MeteredQueue[] {
  return Object.entries(env as unknown as Record<string, unknown>)
    .filter(([name]) => name.endsWith("_QUEUE"))
    .map(([, binding]) => binding)
    .filter(isMeteredQueue);
}

/**
 * Waits until no queue holds a message, for at most `maxMs`; then a moment more for the
 * deliveries just handed out to end. A message a test file sent in its last second is delivered
 * after the batch timeout (1 s in wrangler.toml): waited for here, its work ends inside the
 * file that caused it, not in the next file's start. Resolves how long it waited.
 */
export async function queuesQuiet(maxMs = 3000): Promise<number> {
  const started = Date.now();
  const all = queues();
  let waited = false;
  while (Date.now() - started < maxMs) {
    const backlogs = await Promise.all(all.map((queue) => queue.metrics()));
    if (backlogs.every((m) => m.backlogCount === 0)) break;
    waited = true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  if (waited) await new Promise((resolve) => setTimeout(resolve, 250));
  return Date.now() - started;
}
