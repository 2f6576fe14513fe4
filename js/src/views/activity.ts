/**
 * The activity strip: transient items (live-only `data-*` chunks), newest first. They are
 * never saved, and the strip says so.
 */

import type { Store } from "../model/store";
import type { TransientItem } from "../model/wire";
import { preview } from "../util";
import { h, setText } from "./dom";
import { schedule, unschedule } from "./frame";
import { progressBar } from "./progress";
import { dataShape } from "./transcript/data";

/** How many items are drawn; the rest are counted. */
export const ACTIVITY_SHOWN = 12;

export class ActivityStrip {
  /** The strip's element (hidden while there is nothing live). */
  readonly el = h("div", "cs-activity");
  private readonly count = h("span", "cs-muted");
  private readonly list = h("div", "cs-activity-list");
  private drawnRev = -1;

  constructor() {
    const head = h("div", "cs-activity-head");
    head.append(
      h("strong", "", "Live activity"),
      h("span", "cs-tag", "live only, not saved"),
      this.count,
    );
    this.el.append(head, this.list);
    this.el.hidden = true;
  }

  /** Redraw when the transient items changed (`rev` is the store's `transientRev`). */
  draw(items: readonly TransientItem[], rev: number): void {
    if (rev === this.drawnRev) return;
    this.drawnRev = rev;
    this.el.hidden = items.length === 0;
    const shown = items.slice(-ACTIVITY_SHOWN).reverse();
    setText(
      this.count,
      items.length > shown.length ? `${items.length - shown.length} older not shown` : "",
    );
    this.list.replaceChildren(...shown.map(itemRow));
  }
}

function itemRow(item: TransientItem): HTMLElement {
  const row = h("div", "cs-activity-item");
  const label = `${String(item.type)}${item.id !== null && item.id !== undefined ? ` #${String(item.id)}` : ""}`;
  const shape = dataShape(item.data);
  if (shape.shape === "progress") {
    // The words that came with the figure ("Indexing notes") are what a reader wants.
    const words = [shape.caption, shape.status].filter((word) => word !== "").join(" · ");
    row.append(h("span", "cs-label", label), progressBar(shape.progress, words));
  } else if (shape.shape === "status") {
    const words = shape.caption === "" ? shape.status : `${shape.status} · ${shape.caption}`;
    row.append(h("span", "cs-label", label), h("span", "cs-activity-data", words));
  } else {
    row.append(
      h("span", "cs-label", label),
      h("code", "cs-activity-data", preview(item.data, 200)),
    );
  }
  return row;
}

/** Mount the strip; it redraws at most once per frame. */
export function mountActivity(container: HTMLElement, store: Store): () => void {
  const strip = new ActivityStrip();
  container.append(strip.el);
  const redraw = () => {
    const state = store.get();
    strip.draw(state.transient, state.transientRev);
  };
  const stop = store.subscribe(() => schedule(redraw));
  redraw();
  return () => {
    stop();
    unschedule(redraw);
    strip.el.remove();
  };
}
