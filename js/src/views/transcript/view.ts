/**
 * The transcript: one block per step, drawn from any StoreState it is handed (the live one
 * or a past one while scrubbing). Part views are kept per part id and updated only when
 * their part changed, so a frame costs what changed plus one pass over the part list.
 */

import { blockBuilder, type PartNode, type TranscriptBlock } from "../../model/selectors";
import type { StoreState } from "../../model/store";
import type { Part } from "../../model/wire";
import { activeElementFor, formatSeconds, h, setText } from "../dom";
import { runAsFrame, schedule, unschedule } from "../frame";
import { warmUpMarkdown } from "../markdown";
import type { PanelContext } from "../panel";
import { createPartView, type PartView } from "./parts";
import { type PageRef, pageCount, Windows } from "./window";

/** Builds the run as it stood at offset `t` (ms); see model/scrub.ts. */
export type PastState = (state: StoreState, t: number) => StoreState;

/** List key of the transcript's blocks (steps and runs of loose parts). */
const BLOCKS_LIST = "blocks";

/** List key of the parts nested under part `id`. */
function childListKey(id: string): string {
  return `kids:${id}`;
}

/**
 * The windowed pages that hold part `partId` or one of its containers, outermost
 * first; null when the part is not in the transcript. A walk over every part, for the rare
 * jump to a part that is not drawn.
 */
export function pagesLeadingTo(
  blocks: readonly TranscriptBlock[],
  partId: string,
): PageRef[] | null {
  const onWay: PageRef[] = [];
  const paged = (listKey: string, count: number, index: number) => {
    if (pageCount(count) > 0) onWay.push({ listKey, index });
  };
  const find = (listKey: string, nodes: readonly PartNode[]): boolean => {
    for (let k = 0; k < nodes.length; k++) {
      const node = nodes[k] as PartNode;
      const depth = onWay.length;
      paged(listKey, nodes.length, k);
      if (node.part.id === partId || find(childListKey(node.part.id), node.children)) return true;
      onWay.length = depth;
    }
    return false;
  };
  for (let b = 0; b < blocks.length; b++) {
    const block = blocks[b] as TranscriptBlock;
    paged(BLOCKS_LIST, blocks.length, b);
    if (block.step?.id === partId || find(block.key, block.nodes)) return onWay;
    onWay.length = 0;
  }
  return null;
}

/** Within this many pixels of the bottom counts as "at the bottom". */
const BOTTOM_SLACK_PX = 24;

/** How long (ms) after the user's last wheel, touch or key on the transcript its scrolling
 * counts as theirs (a wheel's smooth scroll goes on for a few frames). */
export const USER_SCROLL_MS = 1_000;

interface Drawn {
  view: PartView;
  part: Part;
  rev: number;
  ended: boolean;
  /** Where the part's nested parts go (created on demand for kinds without one). */
  children: HTMLElement | null;
}

export class TranscriptView {
  /** The panel's root element. */
  readonly el = h("div", "cs-transcript-panel");
  /** Called when the user clicks a part. */
  onSelect: (partId: string) => void = () => {};
  /** Called when the user leaves a past state for the live one. */
  onBackToLive: () => void = () => {};

  private readonly banner = h("div", "cs-scrub-banner");
  private readonly bannerText = h("span");
  private readonly scroller = h("div", "cs-transcript");
  private readonly blocksEl = h("div", "cs-blocks");
  private readonly empty = h("div", "cs-empty", "Waiting for the first chunk…");
  private readonly jump = h("button", "cs-jump", "↓ jump to latest");
  private readonly drawn = new Map<string, Drawn>();
  private readonly loose = new Map<string, HTMLElement>();
  private stick = true;
  private selected: string | null = null;
  /** scrollHeight after the last draw, to tell growth without a second layout. */
  private lastHeight = 0;
  /** scrollTop we last scrolled to ourselves; a scroll above it is the user's. */
  private autoTop = 0;
  /** Where the reader was (scrollTop), and whether the view was moved to another output and
   * has not had its position back yet: moving an element loses its scroll position. */
  private readerTop = 0;
  private moving = false;
  /** Until when (performance.now) a scroll counts as the user's, and whether a pointer is
   * held down on the transcript (dragging its scroll bar). */
  private userScrollUntil = 0;
  private pointerHeld = false;
  private drawnOnce = false;
  /** The page watched this run while it streamed: when it has ended by the time this view
   * first draws (JupyterLab built a new view of the output as the run ended), it opens at
   * the bottom the reader was following rather than at its start. */
  followedLive = false;
  /** Follows size changes that happen without a draw (images loading, blocks settling). */
  private resizes: ResizeObserver | null = null;
  /** Long lists drawn only near the visible area. */
  private readonly windows: Windows;
  /** The transcript's blocks, extended frame by frame as parts are added. */
  private readonly blocksOf = blockBuilder();
  /** The state drawn last, to draw again when a far page comes near. */
  private lastState: StoreState | null = null;
  /** Called when windowed pages came near or went away and the view needs a redraw. */
  onWindowChange: () => void = () => {};

  constructor() {
    this.windows = new Windows(this.scroller, () => this.onWindowChange());
    const back = h("button", "cs-link-button", "back to live");
    back.type = "button";
    back.addEventListener("click", () => this.onBackToLive());
    this.banner.append(this.bannerText, document.createTextNode(" · "), back);
    this.banner.hidden = true;
    this.jump.type = "button";
    this.jump.hidden = true;
    this.jump.addEventListener("click", () => {
      this.stick = true;
      this.toBottom();
    });
    this.scroller.append(this.empty, this.blocksEl);
    // The transcript takes the keyboard: ↑ ↓ move from card to card, Enter selects one.
    this.scroller.tabIndex = 0;
    this.scroller.setAttribute("role", "region");
    this.scroller.setAttribute(
      "aria-label",
      "Transcript: arrow up and down move between parts, Enter selects one",
    );
    // Only the user stops the view from following the end. The browser moves the view too:
    // it keeps what is on screen in place when content above changes size (a long text
    // becoming markdown above a reader who follows the end), and it clamps the view when
    // content shrinks. Such a move, read as the user's, left a view that followed a burst
    // of a million deltas stranded far above the end.
    const userInput = (): void => {
      this.userScrollUntil = performance.now() + USER_SCROLL_MS;
    };
    for (const type of ["wheel", "touchmove"]) {
      this.scroller.addEventListener(type, userInput, { passive: true });
    }
    this.scroller.addEventListener("keydown", (event) => {
      userInput();
      this.onKey(event);
    });
    this.scroller.addEventListener("pointerdown", () => {
      this.pointerHeld = true;
      userInput();
      // Whichever of the two ends the press removes both listeners.
      const press = new AbortController();
      const release = (): void => {
        this.pointerHeld = false;
        userInput();
        press.abort();
      };
      window.addEventListener("pointerup", release, { signal: press.signal });
      window.addEventListener("pointercancel", release, { signal: press.signal });
    });
    this.scroller.addEventListener("scroll", () => {
      if (this.moving) return;
      const byUser = this.pointerHeld || performance.now() < this.userScrollUntil;
      // Following, a move that is not the user's changes nothing: no need to read the
      // layout, which the content changed since the last frame would have to be laid out for.
      if (this.stick && !byUser) return;
      this.readerTop = this.scroller.scrollTop;
      // Content settling below us (off-screen blocks getting their real size) also moves
      // the bottom; only a scroll above where we put it means the user scrolled up.
      if (byUser && this.scroller.scrollTop < this.autoTop - BOTTOM_SLACK_PX) this.stick = false;
      if (this.atBottom()) this.stick = true;
      if (this.stick) this.jump.hidden = true;
    });
    if (typeof ResizeObserver === "function") {
      // Followed in the next frame rather than at once: the callback runs inside the frame
      // that laid the content out, which is long enough already while a stream pours in.
      this.resizes = new ResizeObserver(() => {
        // Read here, after the frame's layout, where the geometry costs no layout.
        if (this.stick && !this.atBottom(1)) schedule(this.keepAtBottom, "read");
      });
      this.resizes.observe(this.blocksEl);
    }
    this.blocksEl.addEventListener("click", (event) => {
      const target = event.target as Element | null;
      const partEl = target?.closest?.("[data-part-id]") as HTMLElement | null;
      if (partEl?.dataset.partId !== undefined) this.onSelect(partEl.dataset.partId);
    });
    this.el.append(this.banner, this.scroller, this.jump);
  }

  /** Keyboard navigation of the cards. */
  private onKey(event: KeyboardEvent): void {
    const active = activeElementFor(this.el);
    const card =
      active instanceof HTMLElement && active.dataset.partId !== undefined ? active : null;
    if (event.key === "Enter" && card !== null && card.dataset.partId !== undefined) {
      event.preventDefault();
      this.onSelect(card.dataset.partId);
      return;
    }
    if (event.key !== "ArrowDown" && event.key !== "ArrowUp") return;
    if (active !== this.scroller && card === null) return; // a control inside a card
    event.preventDefault();
    const cards = Array.from(this.blocksEl.querySelectorAll<HTMLElement>("[data-part-id]"));
    if (cards.length === 0) return;
    let to: number;
    if (card === null) {
      // From the transcript itself: the first card below its top edge.
      const top = this.scroller.getBoundingClientRect().top;
      to = cards.findIndex((c) => c.getBoundingClientRect().bottom > top);
      if (to < 0) to = 0;
    } else {
      const at = cards.indexOf(card);
      to = Math.min(cards.length - 1, Math.max(0, at + (event.key === "ArrowDown" ? 1 : -1)));
    }
    const target = cards[to] as HTMLElement;
    if (card !== null && card !== target) card.removeAttribute("tabindex");
    target.tabIndex = -1;
    this.stick = false;
    target.focus();
    target.scrollIntoView?.({ block: "nearest" });
  }

  private readonly keepAtBottom = (): void => {
    if (this.stick) this.toBottom();
  };

  /** The view's element was moved to another place in the page: put the reader back where
   * they were (at the bottom while following) once it is laid out there. */
  moved(): void {
    this.moving = true;
    schedule(this.restorePosition, "read");
  }

  private readonly restorePosition = (): void => {
    this.moving = false;
    if (this.stick) this.toBottom();
    else this.scroller.scrollTop = this.readerTop;
  };

  /** Remove the view and stop observing it. */
  dispose(): void {
    unschedule(this.keepAtBottom);
    unschedule(this.restorePosition);
    this.resizes?.disconnect();
    this.windows.dispose();
    this.el.remove();
  }

  /** Show the "viewing a past state" banner for offset `t`, or hide it (null). */
  setScrubTime(t: number | null): void {
    this.banner.hidden = t === null;
    if (t !== null) setText(this.bannerText, `viewing t = ${formatSeconds(t)}`);
  }

  /** Draw `state` and then follow the bottom (see `render` and `followBottom`). */
  draw(state: StoreState): void {
    this.render(state);
    this.followBottom();
  }

  /**
   * Update the DOM to `state`; only parts whose object or revision changed are updated.
   * A `budgeted` render may leave far-off pages of long lists for the next frames (see
   * window.ts); an unbudgeted one draws every page that is due.
   */
  render(state: StoreState, budgeted = true): void {
    this.lastState = state;
    const ended = state.run.ended;
    const seen = new Set<string>();
    const blocks = this.blocksOf(state);
    this.windows.begin(budgeted, this.stick);
    this.windows.place(
      this.blocksEl,
      BLOCKS_LIST,
      blocks,
      (block) => this.drawBlock(block, state, ended, seen, block === blocks[blocks.length - 1]),
      true,
    );
    this.windows.end();
    for (const [id, drawn] of this.drawn) {
      if (!seen.has(id)) {
        drawn.view.el.remove();
        this.drawn.delete(id);
      }
    }
    const liveKeys = new Set(blocks.map((b) => b.key));
    for (const key of this.loose.keys()) if (!liveKeys.has(key)) this.loose.delete(key);
    this.empty.hidden = state.parts.length > 0;
    this.highlight(this.selected);
    // A finished run opens at its start; a live one, or one this page watched live, follows
    // the bottom.
    if (!this.drawnOnce && state.parts.length > 0) {
      this.drawnOnce = true;
      if (ended && !this.followedLive) this.stick = false;
      this.lastHeight = Number.POSITIVE_INFINITY;
    }
  }

  /**
   * Scroll to the bottom while following, or offer the jump control when content grew
   * below a user who scrolled up. Reads layout: run it after every view's DOM writes.
   */
  followBottom(): void {
    const height = this.scroller.scrollHeight;
    // Once the transcript overflows, its box no longer depends on what it holds: fixing its
    // height lets the browser lay out what changed inside it without the notebook around it.
    this.scroller.classList.toggle("cs-full", height > this.scroller.clientHeight);
    if (this.stick) this.toBottom(height);
    else if (height > this.lastHeight) this.jump.hidden = false;
    this.lastHeight = height;
  }

  /** Mark the part with id `partId` as selected (null clears). */
  highlight(partId: string | null): void {
    if (this.selected !== null)
      this.drawn.get(this.selected)?.view.el.classList.remove("cs-selected");
    this.selected = partId;
    if (partId !== null) this.drawn.get(partId)?.view.el.classList.add("cs-selected");
  }

  /** Scroll the part's element into view; false when it is not in the transcript. */
  scrollTo(partId: string): boolean {
    if (!this.drawn.has(partId) && this.lastState !== null) {
      // In a windowed list far from view: draw the pages on its way first.
      const pages = pagesLeadingTo(this.blocksOf(this.lastState), partId);
      if (pages === null) return false;
      for (const ref of pages) this.windows.reveal(ref);
      this.render(this.lastState, false);
    }
    const drawn = this.drawn.get(partId);
    if (drawn === undefined) return false;
    this.stick = false;
    for (let node: HTMLElement | null = drawn.view.el; node !== null; node = node.parentElement) {
      if (node instanceof HTMLDetailsElement) node.open = true; // reveal it inside a closed run
    }
    drawn.view.el.scrollIntoView?.({ block: "center" });
    this.highlight(partId);
    return true;
  }

  private drawBlock(
    block: TranscriptBlock,
    state: StoreState,
    ended: boolean,
    seen: Set<string>,
    last: boolean,
  ): HTMLElement {
    let el: HTMLElement;
    let container: HTMLElement;
    if (block.step !== null) {
      const drawn = this.ensure(block.step, state, ended, seen);
      el = drawn.view.el;
      container = this.childrenOf(drawn);
    } else {
      let loose = this.loose.get(block.key);
      if (loose === undefined) {
        loose = h("div", "cs-block cs-children");
        this.loose.set(block.key, loose);
      }
      el = loose;
      container = loose;
    }
    this.windows.place(
      container,
      block.key,
      block.nodes,
      (node) => this.drawNode(node, state, ended, seen),
      last,
    );
    return el;
  }

  private drawNode(
    node: PartNode,
    state: StoreState,
    ended: boolean,
    seen: Set<string>,
  ): HTMLElement {
    const drawn = this.ensure(node.part, state, ended, seen);
    if (node.children.length > 0 || drawn.children !== null) {
      const draw = (child: PartNode) => this.drawNode(child, state, ended, seen);
      this.windows.place(
        this.childrenOf(drawn),
        childListKey(node.part.id),
        node.children,
        draw,
        false,
      );
    }
    return drawn.view.el;
  }

  private ensure(part: Part, state: StoreState, ended: boolean, seen: Set<string>): Drawn {
    seen.add(part.id);
    const rev = state.partRev.get(part.id) ?? -1;
    let drawn = this.drawn.get(part.id);
    if (drawn === undefined || drawn.part.kind !== part.kind) {
      drawn?.view.el.remove();
      const view = createPartView(part);
      drawn = { view, part, rev: Number.NaN, ended, children: view.children };
      this.drawn.set(part.id, drawn);
    }
    if (drawn.part !== part || drawn.rev !== rev || drawn.ended !== ended) {
      drawn.view.update(part, { ended, partById: (id) => state.byId.get(id) });
      drawn.part = part;
      drawn.rev = rev;
      drawn.ended = ended;
    }
    return drawn;
  }

  private childrenOf(drawn: Drawn): HTMLElement {
    if (drawn.children === null) {
      drawn.children = h("div", "cs-children");
      drawn.view.el.append(drawn.children);
    }
    return drawn.children;
  }

  /** Scrolled to within `slack` px of the end. */
  private atBottom(slack = BOTTOM_SLACK_PX): boolean {
    const s = this.scroller;
    return s.scrollHeight - s.scrollTop - s.clientHeight <= slack;
  }

  private toBottom(height = this.scroller.scrollHeight): void {
    this.scroller.scrollTop = height;
    this.autoTop = this.scroller.scrollTop;
    this.jump.hidden = true;
  }
}

/** Stores whose run a transcript of this page drew while it streamed. */
const watchedLive = new WeakSet<object>();

/** A mounted transcript: unmount it, or scroll it to a part. */
export interface TranscriptHandle {
  /** Stop listening and remove the transcript. */
  unmount(): void;
  /** Scroll to a part (leaving a past state first when the part is not in it). */
  scrollTo(partId: string): void;
  /** The transcript was moved to another place in the page; see `TranscriptView.moved`. */
  moved(): void;
}

/**
 * Mount the transcript in `container`, redrawn at most once per animation frame from the
 * store (or from `pastState(store, t)` while `ctx.scrubTime` holds an offset).
 */
export function mountTranscript(
  container: HTMLElement,
  ctx: PanelContext,
  pastState: PastState | null,
): TranscriptHandle {
  const view = new TranscriptView();
  view.followedLive = watchedLive.has(ctx.store);
  const noteLive = (state: StoreState): void => {
    if (!state.run.ended && state.parts.length > 0) watchedLive.add(ctx.store);
  };
  container.append(view.el);
  warmUpMarkdown();
  view.onSelect = (id) => ctx.selection.set(id);
  view.onBackToLive = () => ctx.scrubTime.set(null);
  const follow = () => view.followBottom();
  const redraw = () => {
    const t = ctx.scrubTime.get();
    const live = ctx.store.get();
    noteLive(live);
    const past = t !== null && pastState !== null;
    view.setScrubTime(past ? t : null);
    view.render(past ? pastState(live, t) : live);
    schedule(follow, "read");
  };
  const later = () => schedule(redraw);
  view.onWindowChange = later;
  const stops = [
    ctx.store.subscribe(later),
    ctx.scrubTime.subscribe(later),
    ctx.selection.subscribe((id) => view.highlight(id)),
  ];
  // Drawn now, and followed in the first frame: reading the height here would lay the page
  // out in the middle of the notebook drawing the output. The first draw keeps a frame's
  // limits, whether the run streams or has ended (a saved notebook opened again): its text
  // is plain until the markdown parser has warmed up, and becomes markdown a few frames
  // later. Drawn whole at once, the 70 KB transcript of a run of 10k deltas was a task of
  // 50 ms (the parser's cold start, then lexing, rendering and sanitizing all of it).
  const first = ctx.store.get();
  noteLive(first);
  runAsFrame(() => view.render(first));
  schedule(follow, "read");
  view.highlight(ctx.selection.get());

  return {
    unmount() {
      for (const stop of stops) stop();
      unschedule(redraw);
      unschedule(follow);
      view.dispose();
    },
    moved: () => view.moved(),
    scrollTo(partId) {
      if (!view.scrollTo(partId) && ctx.scrubTime.get() !== null) {
        ctx.scrubTime.set(null);
        view.draw(ctx.store.get());
        view.scrollTo(partId);
      }
    },
  };
}
