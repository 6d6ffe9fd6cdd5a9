/**
 * Runs async operations one at a time, in call order, whatever each one's outcome.
 *
 * A Durable Object's input gate opens at every storage, D1, R2 or fetch await, so two
 * RPC calls can interleave inside one object; operations that read, decide and write must
 * pass through one of these to see each other's writes.
 */
export function serializer(): <T>(operation: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(operation: () => Promise<T>): Promise<T> => {
    const run = tail.then(operation, operation);
    tail = run.catch(() => undefined);
    return run;
  };
}
