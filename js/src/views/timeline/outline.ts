/**
 * The timeline as text: its lanes with their bars and ticks, and its markers, as lists next
 * to the canvas. Screen readers and keyboards reach what the canvas only paints, and a button
 * selects its part exactly like a click on its bar. A long lane lists its first items and
 * says how many more it holds, so a run with 10k items keeps a small DOM.
 */
import { formatNumber } from "../../util";
import { formatMs } from "./format";
import type { Lane, Layout, Marker, TimelineItem } from "./layout";

/** Items listed per lane at most; the lane's count still says how many it holds. */
export const OUTLINE_ITEMS_PER_LANE = 100;

/** The outline's element and the way to bring it up to date. */
export interface Outline {
  /** The root element (visually hidden until something inside it has the focus). */
  el: HTMLElement;
  /** Redraw from `layout`; keeps the focus on the same part's button when it is still listed. */
  update(layout: Layout): void;
}

/** What an item is called in the outline: its label, or its kind for unlabelled ticks. */
function itemName(item: TimelineItem): string {
  if (item.label !== "") return item.label;
  return item.shape === "tick" ? "output" : "bar";
}

/** When an item happened, in words: "at 12 ms" for an instant, else its start and length. */
function itemWhen(item: TimelineItem): string {
  if (item.shape === "tick" || item.end <= item.start) return `at ${formatMs(item.start)}`;
  const length = formatMs(item.end - item.start);
  return item.open
    ? `from ${formatMs(item.start)}, open for ${length}`
    : `from ${formatMs(item.start)}, took ${length}`;
}

/** One line of text for an item: name, state, time. */
export function describeItem(item: TimelineItem): string {
  const name = itemName(item);
  // A step's label already ends with its finish reason.
  const status = name === item.status || name.endsWith(` · ${item.status}`) ? "" : item.status;
  return [name, status, itemWhen(item)].filter((s) => s !== "").join(" · ");
}

/** How many items and rows a lane holds, in words. */
export function describeLane(lane: Lane, count: number): string {
  const items = `${formatNumber(count)} ${count === 1 ? "item" : "items"}`;
  return lane.rows > 1 ? `${items} in ${lane.rows} rows` : items;
}

/** Build the outline; `onPick` is called with a part id when its button is pressed. */
export function createOutline(doc: Document, onPick: (partId: string) => void): Outline {
  const el = doc.createElement("div");
  el.className = "cs-timeline-outline";
  el.setAttribute("role", "region");
  el.setAttribute("aria-label", "Timeline as a list");
  const lanesList = doc.createElement("ul");
  lanesList.className = "cs-outline-lanes";
  lanesList.setAttribute("aria-label", "Lanes");
  const markersList = doc.createElement("ul");
  markersList.className = "cs-outline-markers";
  markersList.setAttribute("aria-label", "Markers");
  el.append(lanesList, markersList);

  el.addEventListener("click", (event) => {
    const target = (event.target as Element | null)?.closest?.(
      "button[data-part-id]",
    ) as HTMLElement | null;
    const partId = target?.dataset.partId;
    if (partId !== undefined) onPick(partId);
  });

  const pickButton = (text: string, partId: string | null): HTMLElement => {
    if (partId === null) {
      const span = doc.createElement("span");
      span.textContent = text;
      return span;
    }
    const button = doc.createElement("button");
    button.type = "button";
    button.dataset.partId = partId;
    button.textContent = text;
    return button;
  };

  const laneEntry = (lane: Lane, items: readonly TimelineItem[]): HTMLElement => {
    const entry = doc.createElement("li");
    entry.className = "cs-outline-lane";
    entry.dataset.kind = lane.kind;
    entry.dataset.depth = String(lane.depth);
    entry.dataset.rows = String(lane.rows);
    entry.dataset.count = String(items.length);
    const label = doc.createElement("span");
    label.className = "cs-outline-lane-label";
    label.textContent = lane.label;
    const count = doc.createElement("span");
    count.className = "cs-outline-lane-count";
    count.textContent = ` (${describeLane(lane, items.length)})`;
    const list = doc.createElement("ul");
    for (const item of items.slice(0, OUTLINE_ITEMS_PER_LANE)) {
      const line = doc.createElement("li");
      line.className = "cs-outline-item";
      line.dataset.row = String(item.row);
      line.dataset.shape = item.shape;
      line.dataset.color = item.color;
      line.append(pickButton(describeItem(item), item.partId));
      list.append(line);
    }
    if (items.length > OUTLINE_ITEMS_PER_LANE) {
      const more = doc.createElement("li");
      more.className = "cs-outline-more";
      more.textContent = `and ${formatNumber(items.length - OUTLINE_ITEMS_PER_LANE)} more`;
      list.append(more);
    }
    entry.append(label, count, list);
    return entry;
  };

  const markerEntry = (marker: Marker): HTMLElement => {
    const entry = doc.createElement("li");
    entry.className = "cs-outline-marker";
    entry.dataset.kind = marker.kind;
    entry.append(pickButton(marker.tooltip, marker.partId));
    return entry;
  };

  const update = (layout: Layout): void => {
    const focused = doc.activeElement as HTMLElement | null;
    const refocus =
      focused !== null && el.contains(focused) ? (focused.dataset?.partId ?? null) : null;
    const byLane: TimelineItem[][] = layout.lanes.map(() => []);
    for (const item of layout.items) byLane[item.lane]?.push(item);
    lanesList.replaceChildren(
      ...layout.lanes.map((lane, index) => laneEntry(lane, byLane[index] ?? [])),
    );
    markersList.replaceChildren(...layout.markers.map(markerEntry));
    markersList.hidden = layout.markers.length === 0;
    if (refocus !== null) {
      const buttons = el.querySelectorAll<HTMLElement>("button[data-part-id]");
      for (const button of buttons) {
        if (button.dataset.partId === refocus) {
          button.focus();
          break;
        }
      }
    }
  };

  return { el, update };
}
