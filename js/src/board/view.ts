/**
 * A view of a board: the header, the windowed table, and under it the comparison asked for
 * and the run opened in full. What the view shows (sort, filters, picks) is its own; the
 * rows, the opened run and the comparison are the source's, shared by every view of it.
 *
 * Messages change the source at once; the view draws at most once per animation frame
 * (views/frame.ts), and then only the rows in view that changed.
 */
import type { MovableView } from "../host/placed";
import type { BoardStatus } from "../model/wire";
import { gateWhileDetached, intersectionSight, type WatchSight } from "../views/attached";
import { h } from "../views/dom";
import { atNextFrame, schedule, unschedule } from "../views/frame";
import { tableWidth } from "./columns";
import { ComparisonPane } from "./comparison";
import { BoardHeader } from "./header";
import { OpenedPane } from "./opened";
import { arrange, countByStatus, type Filter, isActive, type Sort, toggleSort } from "./order";
import { comparePair, keepKnown, togglePick } from "./pick";
import type { BoardSource, BoardState } from "./source";
import { axisEnd } from "./strip";
import { BoardTableView } from "./table";
import { ROW_HEIGHT } from "./window";

/** How often (at most) the shared time axis grows while a live run goes on (ms): every
 * strip in view is redrawn when it does, so it grows a few times a second, not with every
 * message. */
export const AXIS_TICK_MS = 250;

export interface BoardHandle extends MovableView {
  /** The table, for tests and the page around it. */
  table: BoardTableView;
}

export interface BoardViewOptions {
  /** Wall-clock time in ms (tests pass their own). */
  clock?: () => number;
  /** Tells whether the view is in sight (see views/attached.ts). */
  sight?: WatchSight | null;
}

export function mountBoard(
  el: HTMLElement,
  source: BoardSource,
  options: BoardViewOptions = {},
): BoardHandle {
  const clock = options.clock ?? Date.now;
  const root = h("div", "chunkscope cs-board");
  root.setAttribute("role", "region");
  root.style.setProperty("--cs-board-row", `${ROW_HEIGHT}px`);
  root.style.setProperty("--cs-board-width", `${tableWidth()}px`);

  let sort: Sort | null = null;
  let filter: Filter = { text: "", statuses: new Set() };
  let picked: string[] = [];
  let ids: string[] = [];
  /** The table version and view settings `ids` was arranged for (-1: arrange again). */
  let arrangedFor = -1;
  let counts = new Map<BoardStatus, number>();
  let anyActive = false;
  /** When the axis was last moved (wall-clock ms). */
  let axisAt = Number.NEGATIVE_INFINITY;
  /** The user opened a run here: bring its pane into view once it is drawn. */
  let revealOpened = false;

  const rearrange = (toTop = false) => {
    arrangedFor = -1;
    if (toTop) table.toTop();
    schedule(draw);
  };

  const header = new BoardHeader({
    toggleStatus(status) {
      const statuses = new Set(filter.statuses);
      if (statuses.has(status)) statuses.delete(status);
      else statuses.add(status);
      filter = { ...filter, statuses };
      rearrange(true);
    },
    filterText(text) {
      filter = { ...filter, text };
      rearrange(true);
    },
    compare() {
      const pair = comparePair(picked);
      if (pair !== null) source.compare(pair[0], pair[1]);
    },
    stopAll: () => source.stop(null),
  });
  const table = new BoardTableView(
    {
      open(id) {
        revealOpened = true;
        source.open(id);
      },
      pick(id) {
        picked = togglePick(picked, id);
        schedule(draw);
      },
      stop: (id) => source.stop(id),
      sort(key) {
        sort = toggleSort(sort, key);
        rearrange();
      },
    },
    () => schedule(draw),
  );
  const comparison = new ComparisonPane(source);
  const opened = new OpenedPane(source);
  header.title.id = `cs-board-${nextBoard()}-title`;
  root.setAttribute("aria-labelledby", header.title.id);
  root.append(header.el, table.box, comparison.el, opened.el);
  el.append(root);

  const gate = gateWhileDetached(source, root, options.sight ?? intersectionSight());

  const draw = (): void => {
    const state = gate.store.get();
    const rows = state.table;
    if (arrangedFor !== rows.version) {
      ids = arrange(rows, sort, filter);
      counts = countByStatus(rows.byId.values());
      anyActive = [...rows.byId.values()].some((row) => isActive(row.status));
      arrangedFor = rows.version;
    }
    picked = keepKnown(picked, rows.byId);
    header.draw({
      title: state.title,
      counts,
      pressed: filter.statuses,
      shown: ids.length,
      total: rows.ids.length,
      picked: picked.length,
      canStop: state.live && anyActive,
    });
    const openedId = state.opened?.id ?? null;
    const ticking = state.live && anyActive;
    const now = clock();
    if (!ticking || now - axisAt >= AXIS_TICK_MS) {
      table.setAxis(axisEnd(rows.elapsedMs, rows.receivedAt, ticking, now));
      axisAt = now;
    }
    table.draw({
      ids,
      row: (id) => rows.byId.get(id),
      flags: (id) => ({ picked: picked.includes(id), opened: id === openedId, live: state.live }),
      sort,
    });
    comparison.sync(state);
    if (opened.sync(state) && state.opened !== null && revealOpened) {
      // Once the browser has laid the new pane out: scrolling to it now would force that
      // layout in the middle of this frame (25-30 ms for a run's full view).
      const pane = opened.el;
      atNextFrame(() => reveal(pane));
    }
    revealOpened = false;
    tick(state);
  };

  let timer: ReturnType<typeof setInterval> | null = null;
  const tick = (state: BoardState): void => {
    const ticking = state.live && anyActive;
    // A view off the page has no axis to grow; it is drawn again when it comes back.
    if (ticking && timer === null)
      timer = setInterval(() => {
        if (root.isConnected) schedule(draw);
      }, AXIS_TICK_MS);
    if (!ticking && timer !== null) {
      clearInterval(timer);
      timer = null;
    }
  };

  const stopListening = gate.store.subscribe(() => schedule(draw));
  draw();

  return {
    el: root,
    table,
    wasShown: gate.wasShown,
    moveTo(target) {
      target.append(root);
      // What changed while the board was out is drawn now, and not again when the observer
      // reports it in sight; the move itself needs a draw either way (the table's window).
      gate.back();
      table.moved();
      opened.moved();
      schedule(draw);
    },
    unmount() {
      stopListening();
      unschedule(draw);
      if (timer !== null) clearInterval(timer);
      gate.dispose();
      table.dispose();
      opened.unmount();
      root.remove();
    },
  };
}

let boards = 0;
const nextBoard = () => {
  boards += 1;
  return boards;
};

/** Bring a pane that just opened into view, where the page can scroll. */
function reveal(el: HTMLElement): void {
  if (typeof el.scrollIntoView === "function") el.scrollIntoView({ block: "nearest" });
}
