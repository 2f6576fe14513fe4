/**
 * Small DOM helpers. Everything textual goes in through `textContent`, never markup.
 */

/** A new element with a class and, optionally, text. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className = "",
  text?: string,
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** Set text only when it differs, so unchanged labels cost no DOM work. */
export function setText(node: HTMLElement, text: string): void {
  if (node.textContent !== text) node.textContent = text;
}

/** Set an attribute only when it differs, for the same reason. */
export function setAttr(node: Element, name: string, value: string): void {
  if (node.getAttribute(name) !== value) node.setAttribute(name, value);
}

/** Seconds with one decimal: 1234 → "1.2 s". */
export function formatSeconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/**
 * Make `parent`'s children exactly `wanted`, in order, moving only what is out of place:
 * cheap when nothing changed (one comparison per child).
 */
export function placeChildren(parent: HTMLElement, wanted: readonly HTMLElement[]): void {
  const children = parent.children;
  let same = 0;
  while (same < wanted.length && children[same] === wanted[same]) same++;
  if (same === wanted.length && children.length === same) return;
  // Children no longer wanted go first: left in place, a list that lost its first items
  // would move every item after them (a moved element is laid out again).
  const kept = new Set(wanted.slice(same));
  for (let k = children.length - 1; k >= same; k--) {
    const child = children[k] as HTMLElement;
    if (!kept.has(child)) child.remove();
  }
  for (let k = same; k < wanted.length; k++) {
    const node = wanted[k] as HTMLElement;
    if (children[k] !== node) parent.insertBefore(node, children[k] ?? null);
  }
}

/** The element that has the focus, looked for from `node`: inside `node`'s shadow root when
 * it is in one (the document only knows the root's host then). */
export function activeElementFor(node: Node): Element | null {
  const root = node.getRootNode();
  if (root instanceof ShadowRoot) return root.activeElement;
  return document.activeElement;
}

/** The element an event happened on, as its listener inside a shadow root would see it;
 * a listener on the document sees the shadow root's host in its place. */
export function originalTarget(event: Event): EventTarget | null {
  const path = typeof event.composedPath === "function" ? event.composedPath() : [];
  return path[0] ?? event.target;
}
