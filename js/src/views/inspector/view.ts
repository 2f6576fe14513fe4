/**
 * The Chunks panel: every chunk row in arrival order (with live-only transient items), filters
 * by type and family, and the selected row's JSON as a collapsible tree. The list is windowed:
 * only the rows in view exist in the DOM, so 50k rows scroll like 50.
 */

import type { StoreState } from "../../model/store";
import type { ChunkFamily } from "../../model/wire";
import { formatNumber } from "../../util";
import { JsonTree } from "../json-tree";
import type { PanelContext } from "../panel";
import { formatMs } from "../timeline/format";
import {
  extendRows,
  FAMILIES,
  familyCounts,
  filterRows,
  findRow,
  type InspectorRow,
  isLive,
  mergeRows,
  type RowFilter,
  rowKey,
  typesOf,
} from "./filter";
import { INSPECTOR_CSS } from "./styles";

/** Height of one list row (CSS px); fixed so the window is a simple division. */

/** Numbers the inspectors on a page, for unique element ids. */
let inspectorCount = 0;
export const ROW_HEIGHT = 20;
/** Rows drawn above and below the visible ones, so fast scrolling shows no gaps. */
const OVERSCAN = 12;
/** Height used before the list has been laid out (and in DOM-less tests). */
const FALLBACK_LIST_HEIGHT = 320;
/** Chip counts cost a pass over every row: while streaming, refresh them this often (ms). */
const CHIP_INTERVAL_MS = 250;

/** Mount the inspector into `container`; returns the function that removes it. */
export function mountInspector(container: HTMLElement, ctx: PanelContext): () => void {
  const doc = container.ownerDocument;
  const root = el(doc, "div", "cs-inspector");
  const style = doc.createElement("style");
  style.textContent = INSPECTOR_CSS;

  const controls = el(doc, "div", "cs-inspector-controls");
  const typeBox = doc.createElement("input");
  typeBox.type = "search";
  typeBox.className = "cs-inspector-type";
  typeBox.placeholder = "filter types…";
  typeBox.title =
    "Words matched against the chunk type; a word starting with - excludes (e.g. -delta)";
  typeBox.setAttribute("aria-label", "Filter by chunk type");
  const typeList = doc.createElement("datalist");
  typeList.id = `cs-types-${Math.random().toString(36).slice(2)}`;
  typeBox.setAttribute("list", typeList.id);
  const chips = el(doc, "div", "cs-inspector-chips");
  const chipByFamily = new Map<ChunkFamily, HTMLButtonElement>();
  for (const family of FAMILIES) {
    const chip = doc.createElement("button");
    chip.type = "button";
    chip.className = `cs-chip cs-family-${family}`;
    chip.dataset.family = family;
    chip.setAttribute("aria-pressed", "false");
    chipByFamily.set(family, chip);
    chips.append(chip);
  }
  const count = el(doc, "span", "cs-inspector-count");
  controls.append(typeBox, typeList, chips, count);

  const body = el(doc, "div", "cs-inspector-body");
  const list = el(doc, "div", "cs-inspector-list");
  list.tabIndex = 0;
  inspectorCount += 1;
  list.id = `cs-inspector-list-${inspectorCount}`;
  list.setAttribute("role", "listbox");
  list.setAttribute("aria-label", "Chunks");
  const spacer = el(doc, "div", "cs-inspector-spacer");
  list.append(spacer);
  const detail = el(doc, "div", "cs-inspector-detail");
  body.append(list, detail);
  root.append(style, controls, body);
  container.append(root);

  const filter: RowFilter = { text: "", families: new Set(), until: ctx.scrubTime.get() };
  let all: InspectorRow[] = [];
  let shown: InspectorRow[] = [];
  let selectedKey: string | null = null;
  let selectedRow: InspectorRow | null = null;
  let tree: JsonTree | null = null;
  /** Key of the row the tree shows: a new row gets a fresh tree, a grown one an update. */
  let treeKey: string | null = null;
  /** Revisions the merged list was built from, to skip rebuilding when only parts changed. */
  let builtFrom: {
    state: StoreState | null;
    rowsList: readonly unknown[] | null;
    rowsRev: number;
    transientRev: number;
    rows: number;
    transient: number;
  } = {
    state: null,
    rowsList: null,
    rowsRev: -1,
    transientRev: -1,
    rows: -1,
    transient: -1,
  };
  let frame = 0;
  const pool: HTMLElement[] = [];

  /**
   * Bring the list up to date with the store. While rows are only appended (streaming), only
   * the new rows are merged and filtered; anything else (a snapshot) rebuilds from scratch.
   */
  const update = (force: boolean): void => {
    const state = ctx.store.get();
    const transientSame =
      builtFrom.transientRev === state.transientRev &&
      builtFrom.transient === state.transient.length;
    const unchanged =
      builtFrom.state === state &&
      transientSame &&
      builtFrom.rowsRev === state.rowsRev &&
      builtFrom.rows === state.rows.length;
    if (unchanged && !force) return;
    // Rows that arrived all at once (asked from the kernel) are a new list: merged anew.
    const appendOnly =
      !force &&
      builtFrom.state === state &&
      builtFrom.rowsList === state.rows &&
      transientSame &&
      state.rows.length >= builtFrom.rows;
    const seen = builtFrom.rows;
    builtFrom = {
      state,
      rowsList: state.rows,
      rowsRev: state.rowsRev,
      transientRev: state.transientRev,
      rows: state.rows.length,
      transient: state.transient.length,
    };
    if (appendOnly) {
      extendRows(all, shown, state.rows, seen, filter);
      listChanged(false);
    } else {
      all = mergeRows(state.rows, state.transient);
      refilter();
    }
  };

  const refilter = (): void => {
    shown = filterRows(all, filter);
    listChanged(true);
  };

  /** Redraw after `shown` changed; chip counts are refreshed at most a few times a second
   * while streaming (they cost a pass over every row). */
  let countsAt = -Infinity;
  let chipTimer: ReturnType<typeof setTimeout> | null = null;
  let spacerHeight = 0;
  const listChanged = (filterChanged: boolean): void => {
    const atBottom = list.scrollTop + viewHeight() >= spacerHeight - ROW_HEIGHT;
    spacerHeight = shown.length * ROW_HEIGHT;
    spacer.style.height = `${spacerHeight}px`;
    // Stay on the newest row while the user is at the bottom, like a log.
    if (atBottom && !filterChanged) list.scrollTop = Math.max(0, spacerHeight - viewHeight());
    const now = performance.now();
    if (filterChanged || now - countsAt > CHIP_INTERVAL_MS) {
      countsAt = now;
      updateChips();
    } else {
      updateCount();
      // Make sure the last burst of a stream is counted too.
      if (chipTimer === null) {
        chipTimer = setTimeout(() => {
          chipTimer = null;
          countsAt = performance.now();
          updateChips();
        }, CHIP_INTERVAL_MS);
      }
    }
    updateDetail();
    renderWindow();
  };

  const viewHeight = (): number => list.clientHeight || FALLBACK_LIST_HEIGHT;

  const updateCount = (): void => {
    count.textContent = !ctx.store.get().rowsLoaded
      ? "loading the chunk rows from the kernel…"
      : shown.length === all.length
        ? `${formatNumber(all.length)} rows`
        : `${formatNumber(shown.length)} of ${formatNumber(all.length)} rows`;
  };

  const updateChips = (): void => {
    const counts = familyCounts(
      filter.until === null ? all : filterRows(all, { ...filter, text: "", families: new Set() }),
    );
    for (const [family, chip] of chipByFamily) {
      const n = counts.get(family) ?? 0;
      const on = filter.families.has(family);
      chip.textContent = `${family} ${formatNumber(n)}`;
      chip.setAttribute("aria-pressed", String(on));
      chip.classList.toggle("cs-on", on);
      chip.classList.toggle("cs-empty", n === 0);
    }
    updateCount();
    const types = typesOf(all);
    if (typeList.childElementCount !== types.length) {
      typeList.replaceChildren(
        ...types.map((type) => {
          const option = doc.createElement("option");
          option.value = type;
          return option;
        }),
      );
    }
  };

  /** Draw only the rows inside the scroll window (plus overscan), reusing row elements. */
  const renderWindow = (): void => {
    const first = Math.max(0, Math.floor(list.scrollTop / ROW_HEIGHT) - OVERSCAN);
    const last = Math.min(
      shown.length,
      Math.ceil((list.scrollTop + viewHeight()) / ROW_HEIGHT) + OVERSCAN,
    );
    const needed = Math.max(0, last - first);
    while (pool.length < needed) {
      const line = el(doc, "div", "cs-row");
      line.setAttribute("role", "option");
      line.id = `${list.id}-row-${pool.length}`;
      for (const cls of ["cs-row-t", "cs-row-type", "cs-row-from", "cs-row-n", "cs-row-live"]) {
        line.append(el(doc, "span", cls));
      }
      pool.push(line);
      list.append(line);
    }
    const linked = ctx.selection.get();
    let active: string | null = null;
    pool.forEach((line, k) => {
      const row = shown[first + k];
      if (k >= needed || row === undefined) {
        line.hidden = true;
        return;
      }
      line.hidden = false;
      line.style.top = `${(first + k) * ROW_HEIGHT}px`;
      line.dataset.index = String(first + k);
      const [t, type, from, n, live] = line.children as unknown as HTMLElement[];
      setText(t, formatMs(row.t));
      setText(type, String(row.type));
      setText(from, row.from ?? "");
      setText(n, row.n > 1 ? `×${row.n}` : "");
      setText(live, isLive(row) ? "live only" : "");
      const key = rowKey(row);
      line.classList.toggle("cs-selected", key === selectedKey);
      line.classList.toggle("cs-linked", linked !== null && row.part === linked);
      line.classList.toggle("cs-live", isLive(row));
      line.setAttribute("aria-selected", String(key === selectedKey));
      line.dataset.family = row.family;
      if (key === selectedKey) active = line.id;
    });
    // The list keeps the focus; the selected option is announced through it.
    if (active === null) list.removeAttribute("aria-activedescendant");
    else list.setAttribute("aria-activedescendant", active);
  };

  /** Show the selected row's JSON; a merged delta row that grew is redrawn in place. */
  const updateDetail = (): void => {
    const row = selectedKey === null ? null : findRow(all, selectedKey);
    if (row === selectedRow && tree !== null) return;
    selectedRow = row;
    if (row === null) {
      tree = null;
      treeKey = null;
      const hint = el(doc, "div", "cs-inspector-hint");
      hint.textContent = "Select a row to see the chunk as received.";
      detail.replaceChildren(hint);
      return;
    }
    const head = el(doc, "div", "cs-inspector-detail-head");
    const parts = [`${row.type} · ${formatMs(row.t)} · chunk ${row.i}`];
    if (row.n > 1) parts.push(`${row.n} deltas merged`);
    if (row.from !== null) parts.push(`from ${row.from}`);
    if (row.part !== null) parts.push(`part ${row.part}`);
    if (isLive(row)) parts.push("live only: not saved, gone after a reload");
    if (row.truncated === true) parts.push("cut for size: the part holds the whole value");
    head.textContent = parts.join(" · ");
    if (tree === null || treeKey !== selectedKey) tree = new JsonTree(row.json, { openDepth: 2 });
    else tree.update(row.json);
    treeKey = selectedKey;
    detail.replaceChildren(head, tree.el);
  };

  const select = (row: InspectorRow): void => {
    selectedKey = rowKey(row);
    selectedRow = null;
    updateDetail();
    renderWindow();
    if (row.part !== null) ctx.selection.set(row.part);
  };

  const schedule = (): void => {
    if (frame === 0) {
      frame = requestAnimationFrame(() => {
        frame = 0;
        update(false);
      });
    }
  };

  typeBox.addEventListener("input", () => {
    filter.text = typeBox.value;
    refilter();
  });
  chips.addEventListener("click", (event) => {
    const chip = (event.target as Element | null)?.closest?.(".cs-chip") as HTMLElement | null;
    const family = chip?.dataset.family as ChunkFamily | undefined;
    if (family === undefined) return;
    const families = new Set(filter.families);
    if (families.has(family)) families.delete(family);
    else families.add(family);
    filter.families = families;
    refilter();
  });
  list.addEventListener("scroll", () => renderWindow());
  list.addEventListener("click", (event) => {
    const line = (event.target as Element | null)?.closest?.(".cs-row") as HTMLElement | null;
    const row = line === null ? undefined : shown[Number(line.dataset.index)];
    if (row !== undefined) select(row);
  });
  list.addEventListener("keydown", (event) => {
    if (event.key === "Enter") {
      // Enter opens the selected chunk's part in the transcript.
      const row = shown.find((r) => rowKey(r) === selectedKey);
      if (row?.part !== null && row?.part !== undefined) {
        event.preventDefault();
        ctx.scrollToPart(row.part);
      }
      return;
    }
    if (event.key !== "ArrowDown" && event.key !== "ArrowUp") return;
    event.preventDefault();
    const at = selectedKey === null ? -1 : shown.findIndex((r) => rowKey(r) === selectedKey);
    const next =
      shown[Math.min(shown.length - 1, Math.max(0, at + (event.key === "ArrowDown" ? 1 : -1)))];
    if (next === undefined) return;
    const index = shown.indexOf(next);
    if (index * ROW_HEIGHT < list.scrollTop) list.scrollTop = index * ROW_HEIGHT;
    else if ((index + 1) * ROW_HEIGHT > list.scrollTop + viewHeight())
      list.scrollTop = (index + 1) * ROW_HEIGHT - viewHeight();
    select(next);
  });

  const unsubscribers = [
    ctx.store.subscribe(schedule),
    ctx.selection.subscribe(() => renderWindow()),
    ctx.scrubTime.subscribe((t) => {
      filter.until = t;
      refilter();
    }),
  ];

  update(true);

  return () => {
    if (frame !== 0) cancelAnimationFrame(frame);
    if (chipTimer !== null) clearTimeout(chipTimer);
    for (const stop of unsubscribers) stop();
    root.remove();
  };
}

function el(doc: Document, tag: string, className: string): HTMLElement {
  const node = doc.createElement(tag);
  node.className = className;
  return node;
}

function setText(node: HTMLElement | undefined, text: string): void {
  if (node !== undefined && node.textContent !== text) node.textContent = text;
}
