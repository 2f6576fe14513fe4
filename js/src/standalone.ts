/**
 * The entry of a standalone page (`chunkscope export`, `cs.write_html`): no kernel, no
 * widget manager. A run page embeds the persisted run as JSON in
 * `<script type="application/json" id="chunkscope-snapshot">`; this script reads it into a
 * store and mounts the same app the widget draws (transcript, timeline, chunk inspector). A
 * board page embeds a saved board (every row, and the runs it kept, whole) in
 * `<script type="application/json" id="chunkscope-board">` and gets the board's view, its
 * kept runs openable in place. Nothing is fetched: the page works from a file URL offline.
 */

// marked, DOMPurify and highlight.js come bundled with this module (see libraries/bundled.ts).
import "./libraries/bundled";
import { createBoardSource } from "./board/source";
import { type BoardHandle, mountBoard } from "./board/view";
import { viewAt } from "./model/scrub";
import { createStore, emptyState, fromSnapshot, type StoreState } from "./model/store";
import {
  BOARD_ELEMENT_ID,
  type BoardSaved,
  ROOT_ELEMENT_ID,
  SNAPSHOT_ELEMENT_ID,
  type Snapshot,
} from "./model/wire";
import { isRecord } from "./util";
import { type AppHandle, mountApp } from "./views/app";
import { mountInspector } from "./views/inspector/view";
import { mountTimeline } from "./views/timeline/view";

export { BOARD_ELEMENT_ID, ROOT_ELEMENT_ID, SNAPSHOT_ELEMENT_ID };

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

/** The board the page embeds; null when it embeds none, a message when it cannot be read. */
export function embeddedBoard(doc: Document): BoardSaved | string | null {
  const holder = doc.getElementById(BOARD_ELEMENT_ID);
  if (holder === null) return null;
  try {
    const parsed: unknown = JSON.parse(holder.textContent ?? "");
    return isRecord(parsed)
      ? (parsed as unknown as BoardSaved)
      : "the embedded board is not an object";
  } catch (error) {
    return `the embedded board is not valid JSON: ${String(error)}`;
  }
}

/** Mount the app, or the board when the page embeds one, into `#chunkscope-root` (created
 * when missing). */
export function mountStandalone(doc: Document): AppHandle | BoardHandle {
  let root = doc.getElementById(ROOT_ELEMENT_ID);
  if (root === null) {
    root = doc.createElement("div");
    root.id = ROOT_ELEMENT_ID;
    doc.body.append(root);
  }
  const board = embeddedBoard(doc);
  if (board !== null) {
    if (typeof board === "string") {
      const problem = doc.createElement("p");
      problem.className = "cs-board-problem";
      problem.textContent = `This page cannot show its board: ${board}.`;
      root.append(problem);
    }
    // There is no kernel to ask: the page shows runs that already happened.
    const saved = typeof board === "string" ? null : board;
    return mountBoard(root, createBoardSource({ send: null, saved, title: doc.title }));
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
