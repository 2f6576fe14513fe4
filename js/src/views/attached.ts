/**
 * A view whose element left the page draws nothing until it is back in sight.
 *
 * JupyterLab draws a widget output again whenever the kernel updates the display it sits in
 * (a StreamView refreshes its readable output as the run grows): the widget renderer empties
 * its node and mounts a new view, and the old view is never told to unmount. Left alone, it
 * would go on drawing every batch into elements nobody can see, doubling the page's work
 * for each refresh. A notebook that scrolls cells out of the DOM detaches views for a while
 * too; those get the current state as soon as they are seen again.
 */
import type { Store } from "../model/store";

/** What a gate can hold back: a current state and listeners told of its changes (a run's
 * store, a board's rows). */
export interface Watchable<T> {
  get(): T;
  subscribe(listener: (state: T) => void): () => void;
}

/** What tells the gate how its element stands: `onSight(visible)` after it was placed or
 * moved, with whether any of it is in sight. Returns the function that stops watching. */
export type WatchSight = (el: Element, onSight: (visible: boolean) => void) => () => void;

/** Watches `el` with an IntersectionObserver; null where the page has none (tests without
 * layout), and then views are never held back. */
export function intersectionSight(): WatchSight | null {
  if (typeof IntersectionObserver !== "function") return null;
  return (el, onSight) => {
    const observer = new IntersectionObserver((entries) => {
      onSight(entries.some((entry) => entry.isIntersecting));
    });
    observer.observe(el);
    return () => observer.disconnect();
  };
}

/** A store for the views under `root`, and the function that stops its watching. */
export interface GatedStore<S = Store> {
  store: S;
  /** Whether `root` has been seen in the document (in sight, or when a change came). */
  wasShown(): boolean;
  /** `root` was put back into the page by its owner (moved into an output drawn again):
   * the listeners that missed changes meanwhile are told now. An observer does not report
   * an element taken out and put back between two of the page's renderings. */
  back(): void;
  dispose(): void;
}

/**
 * `store` as the views under `root` see it: listeners are called only while `root` is in the
 * document. One that missed a change while it was out is called once with the current state
 * when `root` is back and in sight.
 */
export function gateWhileDetached<T, S extends Watchable<T>>(
  store: S,
  root: Element,
  watch: WatchSight | null = intersectionSight(),
): GatedStore<S> {
  let shown = root.isConnected;
  const wasShown = (): boolean => shown || root.isConnected;
  if (watch === null) return { store, wasShown, back() {}, dispose() {} };
  const missed = new Set<(state: T) => void>();
  // The root is in the page (reported by the observer, or put back by its owner): the
  // listeners that missed changes are told once it is also in sight.
  const seen = (visible: boolean): void => {
    if (!root.isConnected) return;
    shown = true;
    if (!visible || missed.size === 0) return;
    const listeners = [...missed];
    missed.clear();
    for (const listener of listeners) listener(store.get());
  };
  const stopWatching = watch(root, seen);
  const gated: S = {
    ...store,
    subscribe(listener: (state: T) => void) {
      const stop = store.subscribe((state) => {
        if (root.isConnected) {
          shown = true;
          listener(state);
        } else {
          missed.add(listener);
        }
      });
      return () => {
        missed.delete(listener);
        stop();
      };
    },
  };
  return {
    store: gated,
    wasShown,
    back: () => seen(true),
    dispose() {
      stopWatching();
      missed.clear();
    },
  };
}
