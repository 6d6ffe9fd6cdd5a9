/** Something a scope holds until its invocation ends. */
export interface Disposable {
  dispose(): void;
}

/**
 * What the windows worked in one invocation share: a video's probe read once and its source
 * opened once (its container index read and parsed once) for every window of the same video,
 * instead of once per window. A scope lives as long as one invocation and is never shared
 * between invocations: what it holds was opened in that invocation's request, and another
 * request waiting on it could be cancelled.
 */
export class InvocationScope {
  private readonly held = new Map<string, Disposable>();

  /** What `key` names, opened by `open` the first time it is asked for in this scope. */
  getOrOpen<T extends Disposable>(key: string, open: () => T): T {
    const found = this.held.get(key);
    if (found) return found as T;
    const opened = open();
    this.held.set(key, opened);
    return opened;
  }

  /** Lets go of what `key` names, so the next ask opens it again (it failed). */
  forget(key: string): void {
    this.held.get(key)?.dispose();
    this.held.delete(key);
  }

  /** Lets go of everything opened (the invocation is ending). */
  dispose(): void {
    for (const item of this.held.values()) item.dispose();
    this.held.clear();
  }
}
