/**
 * The entry of a standalone run page (`chunkscope export`): no kernel, no widget manager.
 * The page embeds the persisted run as JSON in `<script type="application/json">`; this
 * script reads it into a store and mounts the same app the widget draws (transcript,
 * timeline, chunk inspector). Nothing is fetched: the page works from a file URL offline.
 */

import { viewAt } from "./model/scrub";
import { createStore, emptyState, fromSnapshot, type StoreState } from "./model/store";
import type { Snapshot } from "./model/wire";
import { type AppHandle, mountApp } from "./views/app";
import { mountInspector } from "./views/inspector/view";
import { mountTimeline } from "./views/timeline/view";

/** Id of the `<script type="application/json">` element holding the snapshot. */
export const SNAPSHOT_ELEMENT_ID = "chunkscope-snapshot";
/** Id of the element the app is mounted into. */
export const ROOT_ELEMENT_ID = "chunkscope-root";

/** The store's first state: the embedded snapshot, or an empty run saying what was wrong. */
export function initialState(doc: Document): StoreState {
  const holder = doc.getElementById(SNAPSHOT_ELEMENT_ID);
  if (holder === null) return withProblem(`the page has no #${SNAPSHOT_ELEMENT_ID} element`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(holder.textContent ?? "");
  } catch (error) {
    return withProblem(`the embedded run is not valid JSON: ${String(error)}`);
  }
  // fromSnapshot checks the shape and records what it had to skip.
  return fromSnapshot(parsed as Snapshot);
}

function withProblem(problem: string): StoreState {
  const state = emptyState();
  state.problems.push(problem);
  return state;
}

/** Mount the app into `#chunkscope-root` (created when missing). */
export function mountStandalone(doc: Document): AppHandle {
  let root = doc.getElementById(ROOT_ELEMENT_ID);
  if (root === null) {
    root = doc.createElement("div");
    root.id = ROOT_ELEMENT_ID;
    doc.body.append(root);
  }
  const store = createStore(initialState(doc));
  return mountApp(root, {
    store,
    // There is no kernel to ask: the page shows a run that already happened.
    onStop: () => {},
    fallbackTitle: () => doc.title,
    mountTimeline,
    mountInspector,
    pastState: viewAt,
  });
}

if (typeof document !== "undefined") {
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", () => mountStandalone(document), { once: true });
  } else {
    mountStandalone(document);
  }
}
