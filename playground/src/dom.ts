/** Attributes set with setAttribute; `text` becomes textContent (never parsed as HTML). */
type Props = Record<string, string | number | boolean | undefined> & { text?: string };

/** Builds an element from attributes and children; every string child is a text node. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Props = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (value === undefined || value === false) continue;
    if (name === "text") element.textContent = String(value);
    else element.setAttribute(name, value === true ? "" : String(value));
  }
  element.append(...children);
  return element;
}

/** The element with this id; the page's skeleton (src/routes/playground/page.ts) has it. */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (element === null) throw new Error(`#${id} is missing from the page`);
  return element as T;
}

/** Replaces the children of `parent`. */
export function show(parent: HTMLElement, ...children: (Node | string)[]): void {
  parent.replaceChildren(...children);
}

/** Seconds as m:ss.s, the way the results and reports say times. */
export function clock(seconds: number): string {
  const minutes = Math.floor(seconds / 60);
  const rest = (seconds - minutes * 60).toFixed(1).padStart(4, "0");
  return `${minutes}:${rest}`;
}

/** Resolves after `ms` milliseconds (the polling pace). */
export function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
