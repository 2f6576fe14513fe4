/**
 * Everything a board view draws and asks for, whether a kernel stands behind it (the
 * widget) or only a saved board (a notebook reopened without its kernel, the standalone
 * page): the rows, the run opened in full, the comparison asked for. No DOM here.
 */
import { createFeed, type Feed } from "../model/feed";
import { isPacked, readSaved } from "../model/persisted";
import { emptyState, fromSnapshot } from "../model/store";
import type {
  BoardCompareMessage,
  BoardRowsMessage,
  BoardRunMessage,
  BoardSaved,
  BoardUp,
  Snapshot,
} from "../model/wire";
import { isRecord } from "../util";
import { adoptSavedRows, applyRowsMessage, type BoardTable, tableFromSaved } from "./rows";

/** The run shown in full under the table. */
export interface OpenedRun {
  id: string;
  /** Its store and the requests for it. */
  feed: Feed;
  /** Where its run comes from: the kernel, the saved board, or nowhere (only its row was
   * saved). A kernel that sends the run later wins. */
  from: "kernel" | "saved" | "summary";
}

/** A comparison of two runs, asked for or answered. */
export type Comparison =
  | { a: string; b: string; state: "waiting" }
  | { a: string; b: string; state: "answered"; html: string; error: string | null }
  | { a: string; b: string; state: "no-kernel" };

export interface BoardState {
  title: string;
  table: BoardTable;
  /** The saved board (its kept runs and their size limit); null when none was saved. */
  saved: BoardSaved | null;
  /** A kernel has sent the rows: it can open runs, stop them and compare them. */
  live: boolean;
  opened: OpenedRun | null;
  comparison: Comparison | null;
  /** Goes up on every change. */
  version: number;
}

export interface BoardSource {
  get(): BoardState;
  /** `listener` is called after every change; returns the function that stops it. */
  subscribe(listener: (state: BoardState) => void): () => void;
  /** Ask the kernel for every row (a new page, or one that missed a message), unless an
   * earlier ask is still unanswered. */
  ready(): void;
  /** Take one kernel message. */
  receive(msg: unknown): void;
  /** Take a newer saved board (the trait changed). */
  adoptSaved(saved: BoardSaved | null): void;
  setTitle(title: string): void;
  /** Show run `id` in full (null: none). */
  open(id: string | null): void;
  /** Stop run `id`, or every run. */
  stop(id: string | null): void;
  /** Ask for the comparison of runs `a` and `b`. */
  compare(a: string, b: string): void;
  closeComparison(): void;
  dispose(): void;
}

export interface BoardSourceOptions {
  /** Send a message to the kernel; null where there is none (the standalone page). */
  send: ((up: BoardUp) => void) | null;
  saved: BoardSaved | null | undefined;
  /** The kept run of row `id` in the saved board, wherever the host keeps it (a widget
   * spreads them over more traits: BoardSaved `runParts`); by default `saved.runs`. */
  keptRun?: (saved: BoardSaved, id: string) => unknown;
  title: string;
  /** Wall-clock time in ms (tests pass their own). */
  clock?: () => number;
}

/** The kept run of row `id` in `runs` (a saved board's, or a part's): undefined if none. */
export function keptIn(runs: unknown, id: string): unknown {
  return isRecord(runs) && Object.hasOwn(runs, id) ? runs[id] : undefined;
}

export function createBoardSource(options: BoardSourceOptions): BoardSource {
  const send = options.send;
  const keptRun = options.keptRun ?? ((saved, id) => keptIn(saved.runs, id));
  const clock = options.clock ?? Date.now;
  const saved = isRecord(options.saved) ? options.saved : null;
  const state: BoardState = {
    title: options.title,
    table: tableFromSaved(saved),
    saved,
    live: false,
    opened: null,
    comparison: null,
    version: 0,
  };
  const listeners = new Set<(state: BoardState) => void>();
  const changed = () => {
    state.version += 1;
    for (const listener of [...listeners]) listener(state);
  };

  // A `ready` is on its way and no full answer has come since: asking again would make
  // the kernel send every row twice (2,000 rows are about 600 KB).
  let asked = false;
  const ask = () => {
    asked = true;
    send?.({ kind: "ready" });
  };
  const askOnce = () => {
    if (!asked) ask();
  };

  const onRows = (msg: BoardRowsMessage) => {
    const applied = applyRowsMessage(state.table, msg, clock());
    if (applied === "missed") {
      askOnce();
      return;
    }
    if (applied === "ignored") return;
    if (msg.full) asked = false;
    if (applied === "gap") ask();
    state.live = state.live || state.table.followed;
    changed();
  };

  const onRun = (msg: BoardRunMessage) => {
    const opened = state.opened;
    // Messages of a run closed since (the kernel had not heard yet) are dropped.
    if (opened === null || msg.id !== opened.id) return;
    if (opened.from !== "kernel") {
      opened.from = "kernel";
      changed();
    }
    opened.feed.receive(msg.message);
  };

  const onCompare = (msg: BoardCompareMessage) => {
    const asked = state.comparison;
    if (asked === null || asked.a !== msg.a || asked.b !== msg.b) return;
    state.comparison = {
      a: msg.a,
      b: msg.b,
      state: "answered",
      html: typeof msg.html === "string" ? msg.html : "",
      error: typeof msg.error === "string" ? msg.error : null,
    };
    changed();
  };

  const receiveOne = (msg: unknown): void => {
    if (!isRecord(msg)) return;
    if (msg.kind === "board") onRows(msg as unknown as BoardRowsMessage);
    else if (msg.kind === "run") onRun(msg as unknown as BoardRunMessage);
    else if (msg.kind === "compare") onCompare(msg as unknown as BoardCompareMessage);
  };

  /** The feed of run `id`: from the kernel when one answers, else from the saved board. */
  const openRun = (id: string): OpenedRun => {
    const label = state.table.byId.get(id)?.label ?? id;
    const savedRun = state.saved === null ? undefined : keptRun(state.saved, id);
    if (state.live || savedRun === undefined) {
      const feed = createFeed({
        send: (message) => send?.({ kind: "run", id, message }),
        initial: emptyState(label),
      });
      return { id, feed, from: state.live ? "kernel" : "summary" };
    }
    const plain = !isPacked(savedRun);
    const feed = createFeed({
      send: (message) => send?.({ kind: "run", id, message }),
      initial: plain ? fromSnapshot(savedRun as Snapshot) : emptyState(label),
    });
    if (!plain) {
      readSaved(
        savedRun,
        -1,
        (snapshot) => feed.store.adoptSaved(snapshot),
        (problem) => feed.store.report(problem),
      );
    }
    return { id, feed, from: "saved" };
  };

  return {
    get: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    ready: askOnce,
    receive(msg) {
      if (!isRecord(msg)) return;
      // A round's messages, applied in order: the page draws them in one frame.
      if (msg.kind === "round" && Array.isArray(msg.messages))
        for (const each of msg.messages) receiveOne(each);
      else receiveOne(msg);
    },
    adoptSaved(next) {
      if (!isRecord(next)) return;
      state.saved = next;
      adoptSavedRows(state.table, next);
      changed();
    },
    setTitle(title) {
      if (title === state.title) return;
      state.title = title;
      changed();
    },
    open(id) {
      if (id === (state.opened?.id ?? null)) return;
      state.opened?.feed.dispose();
      // Opening another run is one message: the kernel stops sending the first one's.
      send?.({ kind: "open", id });
      state.opened = id === null ? null : openRun(id);
      changed();
    },
    stop(id) {
      send?.({ kind: "stop", id });
    },
    compare(a, b) {
      if (send !== null && state.live) {
        state.comparison = { a, b, state: "waiting" };
        send({ kind: "compare", a, b });
      } else {
        state.comparison = { a, b, state: "no-kernel" };
      }
      changed();
    },
    closeComparison() {
      if (state.comparison === null) return;
      state.comparison = null;
      changed();
    },
    dispose() {
      state.opened?.feed.dispose();
      listeners.clear();
    },
  };
}
