/**
 * What a panel (Transcript, Timeline, Chunks) is handed when it is mounted: the model's
 * store plus the small pieces of view state the panels share with each other.
 */
import type { Store } from "../model/store";

/** A value several panels read and write, with change notification. */
export interface Shared<T> {
  /** The current value. */
  get(): T;
  /** Replace the value; listeners run only when it actually changes. */
  set(value: T): void;
  /** Call `fn` after every change; returns the function that stops it. */
  subscribe(fn: (value: T) => void): () => void;
}

export interface PanelContext {
  /** The model's store: one per model, shared by every view of it. */
  store: Store;
  /** Id of the part the user selected in any panel, or null. */
  selection: Shared<string | null>;
  /** Offset (ms) the user scrubbed to; null means "live, show everything". */
  scrubTime: Shared<number | null>;
  /** Show the Transcript tab, scroll it to the part's element and highlight it. */
  scrollToPart(partId: string): void;
}

/** How a panel module mounts itself; the returned function unmounts it. */
export type MountPanel = (container: HTMLElement, ctx: PanelContext) => () => void;

/** A plain `Shared` value; `Object.is` decides whether a `set` is a change. */
export function createShared<T>(initial: T): Shared<T> {
  let value = initial;
  const listeners = new Set<(value: T) => void>();
  return {
    get: () => value,
    set(next: T) {
      if (Object.is(next, value)) return;
      value = next;
      for (const fn of [...listeners]) fn(value);
    },
    subscribe(fn) {
      listeners.add(fn);
      return () => {
        listeners.delete(fn);
      };
    },
  };
}
