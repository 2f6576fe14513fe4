/**
 * The find bar: searches the whole run in the store (model/search.ts), says how many
 * matches there are, and steps through them. Each match is revealed in the transcript (its
 * windowed page drawn, closed sections opened, scrolled to) and its card and text marked,
 * with the CSS Custom Highlight API where the browser has it (no change to the DOM).
 */
import { type FindKind, type FindResult, matchLabel, RunSearch, stepMatch } from "../model/search";
import { h, setText } from "./dom";
import { schedule, unschedule } from "./frame";
import type { PanelContext } from "./panel";

/** Name of the highlight the matched text is painted with (`::highlight(cs-find)`). */
export const FIND_HIGHLIGHT = "cs-find";

const KIND_OPTIONS: [FindKind, string][] = [
  ["all", "All parts"],
  ["text", "Text"],
  ["reasoning", "Reasoning"],
  ["tool", "Tools"],
  ["data", "Data and output"],
  ["other", "Other"],
];

/** A mounted find bar. */
export interface FindBar {
  /** The bar's element (hidden until opened). */
  readonly el: HTMLElement;
  /** Show the bar and focus its input. */
  open(): void;
  /** Hide the bar and clear the marks. */
  close(): void;
  /** Stop listening to the store. */
  dispose(): void;
}

let barCount = 0;

/** The find bar of one view; `root` is the view's element (where matches are looked up). */
export function createFindBar(root: HTMLElement, ctx: PanelContext, onClose: () => void): FindBar {
  barCount += 1;
  const el = h("div", "cs-find");
  el.setAttribute("role", "search");
  el.hidden = true;
  const input = h("input", "cs-find-input");
  input.type = "search";
  input.placeholder = "Find in run";
  input.setAttribute("aria-label", "Find in run");
  const kind = h("select", "cs-find-kind");
  kind.setAttribute("aria-label", "Part kinds to search");
  for (const [value, label] of KIND_OPTIONS) {
    const option = h("option", "", label);
    option.value = value;
    kind.append(option);
  }
  const count = h("span", "cs-find-count");
  count.id = `cs-find-count-${barCount}`;
  count.setAttribute("role", "status");
  count.setAttribute("aria-live", "polite");
  input.setAttribute("aria-describedby", count.id);
  const button = (text: string, label: string, onClick: () => void) => {
    const b = h("button", "cs-find-button", text);
    b.type = "button";
    b.setAttribute("aria-label", label);
    b.title = label;
    b.addEventListener("click", onClick);
    return b;
  };
  const previous = button("↑", "Previous match", () => go(-1));
  const next = button("↓", "Next match", () => go(1));
  const close = button("✕", "Close find", () => bar.close());
  el.append(input, kind, count, previous, next, close);

  const search = new RunSearch();
  let result: FindResult = { matches: [], truncated: false };
  let current = -1;
  let markedCard: Element | null = null;

  const run = () => {
    const state = ctx.store.get();
    const before = result.matches[current];
    result = search.search(
      state.parts,
      input.value,
      kind.value as FindKind,
      (id) => state.partRev.get(id) ?? -1,
    );
    // Keep the match the user was on when the run grows under it.
    current = -1;
    if (before !== undefined) {
      current = result.matches.findIndex(
        (m) => m.partId === before.partId && m.field === before.field && m.start === before.start,
      );
    }
    previous.disabled = next.disabled = result.matches.length === 0;
    setText(count, input.value === "" ? "" : matchLabel(current, result));
    if (current < 0) clearMarks();
  };
  const later = () => schedule(run);

  const go = (step: 1 | -1) => {
    if (result.matches.length === 0) run();
    current = stepMatch(current, result.matches.length, step);
    setText(count, matchLabel(current, result));
    const match = result.matches[current];
    if (match === undefined) return;
    ctx.scrollToPart(match.partId);
    revealField(match.partId, match.field);
    mark(match.partId);
    // Markdown and pages settle over the next frames: mark again once they did.
    schedule(remark, "read");
    for (const wait of [120, 400]) setTimeout(remark, wait);
  };
  /** Mark the current match again, and bring its card back into view if pages drawn
   * around it since moved it away. */
  const remark = () => {
    const match = result.matches[current];
    if (match === undefined || el.hidden) return;
    mark(match.partId);
    const card = cardOf(match.partId);
    const scroller = card?.closest(".cs-transcript");
    if (card === null || card === undefined || scroller === null || scroller === undefined) return;
    const box = scroller.getBoundingClientRect();
    const at = card.getBoundingClientRect();
    if (at.bottom < box.top || at.top > box.bottom) card.scrollIntoView?.({ block: "center" });
  };

  const cardOf = (partId: string): HTMLElement | null =>
    root.querySelector(`[data-part-id="${cssEscape(partId)}"]`);

  /** Open the closed section (`<details>`) the field is drawn in, when it has one. */
  const revealField = (partId: string, field: string) => {
    const card = cardOf(partId);
    if (card === null) return;
    for (const details of Array.from(card.querySelectorAll("details"))) {
      if (details.closest("[data-part-id]") !== card) continue;
      const summary = details.querySelector("summary")?.textContent ?? "";
      if (details.classList.contains("cs-reasoning") || summary.includes(field))
        details.open = true;
    }
  };

  const mark = (partId: string) => {
    const card = cardOf(partId);
    if (markedCard !== card) {
      markedCard?.classList.remove("cs-find-current");
      markedCard = card;
      card?.classList.add("cs-find-current");
    }
    const highlights = highlightRegistry();
    if (highlights === null || card === null) return;
    const ranges = textRanges(card, input.value);
    highlights.set(FIND_HIGHLIGHT, new Highlight(...ranges));
  };

  const clearMarks = () => {
    markedCard?.classList.remove("cs-find-current");
    markedCard = null;
    highlightRegistry()?.delete(FIND_HIGHLIGHT);
  };

  input.addEventListener("input", () => {
    current = -1;
    result = { matches: [], truncated: false };
    run();
  });
  kind.addEventListener("change", () => {
    current = -1;
    result = { matches: [], truncated: false };
    run();
  });
  input.addEventListener("keydown", (event) => {
    if (event.key === "Enter") {
      event.preventDefault();
      go(event.shiftKey ? -1 : 1);
    }
  });
  el.addEventListener("keydown", (event) => {
    if (event.key === "Escape") {
      event.preventDefault();
      event.stopPropagation();
      bar.close();
    }
  });

  let stop: (() => void) | null = null;
  const bar: FindBar = {
    el,
    open() {
      el.hidden = false;
      if (stop === null) stop = ctx.store.subscribe(later);
      run();
      input.focus();
      input.select();
    },
    close() {
      el.hidden = true;
      stop?.();
      stop = null;
      unschedule(run);
      clearMarks();
      onClose();
    },
    dispose() {
      stop?.();
      stop = null;
      unschedule(run);
      unschedule(remark);
      clearMarks();
    },
  };
  return bar;
}

function cssEscape(value: string): string {
  return typeof CSS !== "undefined" && typeof CSS.escape === "function"
    ? CSS.escape(value)
    : value.replace(/["\\]/g, "\\$&");
}

function highlightRegistry(): HighlightRegistry | null {
  if (typeof CSS === "undefined" || !("highlights" in CSS) || typeof Highlight !== "function")
    return null;
  return CSS.highlights;
}

/** Ranges over every occurrence of `query` (ignoring case) in the text under `root`. */
export function textRanges(root: Element, query: string): Range[] {
  const needle = query.toLowerCase();
  const ranges: Range[] = [];
  if (needle === "") return ranges;
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
    const text = (node.nodeValue ?? "").toLowerCase();
    for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + needle.length)) {
      const range = document.createRange();
      range.setStart(node, at);
      range.setEnd(node, at + needle.length);
      ranges.push(range);
      if (ranges.length >= 500) return ranges;
    }
  }
  return ranges;
}
