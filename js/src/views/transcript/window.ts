/**
 * Windowed lists for the transcript. A list of more than `WINDOW_MIN_ITEMS` entries (tool
 * cards of one step, steps of a run, children of one part) is split into pages of
 * `PAGE_ITEMS`; only pages near the visible area hold their entries' elements, the others
 * are empty boxes of the height they had (or are guessed to have). A run of 50k tool calls
 * so costs the DOM of a few hundred cards, whatever its length.
 *
 * Which pages are near is told by an IntersectionObserver with a generous margin; where
 * there is none (tests without layout), every page is drawn.
 *
 * A list of more than `CHAPTER_PAGES` pages also groups its pages in chapters: a chapter far
 * from view is one empty box of its pages' height, and only a near chapter holds (and has
 * observed) its page boxes. Every element in a list costs the browser some work at each
 * layout and each intersection check, so 50k entries are some fifty chapter boxes and a few
 * dozen pages rather than two thousand pages.
 *
 * Drawing cards is the costly part of a frame, so one draw adds cards to near pages only
 * until `DRAW_BUDGET_MS` has passed (at least one card, so it always gets on), and for a
 * reader following a live run, only about a screenful; the draws that follow go on where it
 * stopped, nearest to the reader first (the end of the last list, for a following reader).
 * When a stream moves the bottom by thousands of entries a second, frames stay short instead
 * of growing with it.
 */
import { placeChildren } from "../dom";

/** Lists up to this long are drawn whole, with no pages. A list's new entries are drawn in
 * one frame until it is windowed, so this also bounds the cards one frame may build: a
 * stream that delivers hundreds of calls at once would otherwise draw them all together. */
export const WINDOW_MIN_ITEMS = 100;
/** Entries per page of a windowed list. */
export const PAGE_ITEMS = 25;
/** Pages per chapter of a list that has more than this many pages. */
export const CHAPTER_PAGES = 40;
/** Pages within this distance (px) above or below the visible area are drawn. */
export const NEAR_PX = 1000;
/** Height of one entry before any was measured (px). */
export const ENTRY_HEIGHT_GUESS = 40;
/** Once a draw has run this long (ms), cards still waiting to be drawn wait for the next
 * one; a single card is drawn whatever the time. */
export const DRAW_BUDGET_MS = 12;
/** Cards one budgeted draw adds beyond what fills the visible area. */
export const SPARE_CARDS = 4;

/** How many pages a list of `count` entries is split into: none when it is short. */
export function pageCount(count: number): number {
  return count > WINDOW_MIN_ITEMS ? Math.ceil(count / PAGE_ITEMS) : 0;
}

/** How many chapters a list of `pages` pages is grouped in: none when it has few. */
export function chapterCount(pages: number): number {
  return pages > CHAPTER_PAGES ? Math.ceil(pages / CHAPTER_PAGES) : 0;
}

/** The page of list `listKey` that holds its entry `index`. */
export interface PageRef {
  listKey: string;
  index: number;
}

interface Page {
  readonly el: HTMLElement;
  /** Near the visible area (or asked for), so its entries are drawn. */
  near: boolean;
  /** All its entries are in the DOM now. */
  drawn: boolean;
  /** How many of its entries are in the DOM while it is being filled (from its end when
   * `fromEnd`), over several draws. */
  shown: number;
  fromEnd: boolean;
  /** Entries it held when it was last measured, and their height (px). */
  measuredCount: number;
  measuredHeight: number;
  /** Entries it holds now. */
  count: number;
  /** The height its empty box was given, and for how many entries (so that it is written
   * again only when it must: every write makes the browser lay the list out again). */
  boxHeight: number;
  boxCount: number;
}

/** A group of `CHAPTER_PAGES` pages of a long list. */
interface Chapter {
  readonly el: HTMLElement;
  /** Near the visible area (or asked for), so its pages are in the DOM and observed. */
  near: boolean;
  /** Its page boxes are in the DOM. */
  open: boolean;
  /** The height its empty box was given (px), -1 while it holds its pages. */
  boxHeight: number;
  /** Entries its pages hold, as of the last draw. */
  entries: number;
  /** Its height as last measured while open (gaps between pages included), and how many
   * entries its pages held then. */
  measuredHeight: number;
  measuredCount: number;
}

/** The pages of one windowed list, in order, their elements, and the chapters they are
 * grouped in (none for a list of few pages); the container holds the chapters' elements,
 * or the pages' when there are none. */
interface PagedList {
  readonly pages: Page[];
  readonly els: HTMLElement[];
  readonly chapters: Chapter[];
  readonly chapterEls: HTMLElement[];
}

/** The pages of every windowed list of one transcript. */
export class Windows {
  /** List key → its pages, in order. */
  private readonly lists = new Map<string, PagedList>();
  /** Lists placed since `begin()`. */
  private readonly seen = new Set<string>();
  private readonly observer: IntersectionObserver | null;
  /** Page element → its page, for the observer's reports; a dropped page is forgotten. */
  private readonly pageOf = new WeakMap<Element, Page>();
  /** Chapter element → its chapter, likewise. */
  private readonly chapterOf = new WeakMap<Element, Chapter>();
  /** Average height of one drawn entry (px), to size pages never drawn. */
  private entryHeight = ENTRY_HEIGHT_GUESS;
  /** Time (performance.now) after which this draw adds no more cards. */
  private deadline = Number.POSITIVE_INFINITY;
  /** Cards added to pages being filled by this draw. */
  private filled = 0;
  /** A near page was left unfinished for want of time: draw again soon. */
  private deferred = false;
  /** Height of the scrolling element's visible area, as the observer last saw it (px). */
  private rootHeight = 0;
  /** Cards this draw may add: about a screenful for a following reader, since a stream that
   * moves the bottom by hundreds of entries a frame replaces every card past that before it
   * is seen. */
  private fillLimit = Number.POSITIVE_INFINITY;

  /**
   * `root` is the scrolling element; `onChange` is called when a page comes near or goes
   * away, so the owner redraws.
   */
  constructor(
    root: HTMLElement,
    private readonly onChange: () => void,
  ) {
    this.observer =
      typeof IntersectionObserver === "function"
        ? new IntersectionObserver((entries) => this.observed(entries), {
            root,
            rootMargin: `${NEAR_PX}px 0px`,
          })
        : null;
  }

  /**
   * Start a draw: pages not placed again before `end()` are dropped. A `budgeted` draw adds
   * cards for about `DRAW_BUDGET_MS`, and at most about a screenful while the reader is
   * `following` the end of a live run; an unbudgeted one (a jump to a part) fills every page.
   * A reader who scrolled elsewhere gets the time budget only: the near pages are then filled
   * in list order, and a screenful could be spent on the margin before the visible page.
   */
  begin(budgeted = true, following = false): void {
    this.seen.clear();
    this.filled = 0;
    this.deferred = false;
    // Without an observer every page is drawn at once: there is no scrolling to wait for.
    const timed = budgeted && this.observer !== null;
    this.deadline = timed ? performance.now() + DRAW_BUDGET_MS : Number.POSITIVE_INFINITY;
    this.fillLimit =
      timed && following && this.rootHeight > 0
        ? Math.ceil(this.rootHeight / this.entryHeight) + SPARE_CARDS
        : Number.POSITIVE_INFINITY;
  }

  /** End a draw: forget the pages of lists that are gone; ask for another draw when near
   * pages were left unfinished. */
  end(): void {
    for (const [listKey, list] of this.lists) {
      if (this.seen.has(listKey)) continue;
      this.dropPages(list, 0);
      this.dropChapters(list, 0);
      this.lists.delete(listKey);
    }
    if (this.deferred) this.onChange();
  }

  /**
   * Make `container`'s children the elements of `items` (drawn by `draw`), in pages when the
   * list is long; entries of pages far from view are not drawn at all. `last` says the list
   * ends the transcript, where a following reader looks first.
   */
  place<T>(
    container: HTMLElement,
    listKey: string,
    items: readonly T[],
    draw: (item: T) => HTMLElement,
    last: boolean,
  ): void {
    const count = pageCount(items.length);
    if (count === 0) {
      placeChildren(container, items.map(draw));
      return;
    }
    const list = this.list(listKey, count, last);
    // A following reader is at the end of the last list: its pages are filled from there.
    for (let k = 0; k < count; k++) {
      const index = last ? count - 1 - k : k;
      const start = index * PAGE_ITEMS;
      const end = Math.min(items.length, start + PAGE_ITEMS);
      const page = list.pages[index] as Page;
      page.count = end - start;
      const chapter = list.chapters[Math.floor(index / CHAPTER_PAGES)];
      if (chapter !== undefined && !chapter.near) page.near = false;
      if (page.drawn && page.near) {
        placeChildren(page.el, items.slice(start, end).map(draw));
      } else if (page.near) {
        this.fill(page, items, start, end, draw, last);
      } else {
        if (page.drawn || page.shown > 0) page.el.replaceChildren();
        page.drawn = false;
        page.shown = 0;
        this.sizeBox(page);
      }
    }
    if (list.chapters.length === 0) placeChildren(container, list.els);
    else this.placeChapters(container, list);
  }

  /** Put near chapters' pages in the DOM (observed) and make far ones single boxes. */
  private placeChapters(container: HTMLElement, list: PagedList): void {
    for (let c = 0; c < list.chapters.length; c++) {
      const chapter = list.chapters[c] as Chapter;
      const pages = list.pages.slice(c * CHAPTER_PAGES, (c + 1) * CHAPTER_PAGES);
      let height = 0;
      chapter.entries = 0;
      for (const page of pages) {
        height += page.boxHeight;
        chapter.entries += page.count;
      }
      if (chapter.near) {
        if (!chapter.open) {
          chapter.open = true;
          chapter.boxHeight = -1;
          chapter.el.style.height = "";
          for (const page of pages) this.observer?.observe(page.el);
        }
        placeChildren(chapter.el, list.els.slice(c * CHAPTER_PAGES, (c + 1) * CHAPTER_PAGES));
        continue;
      }
      if (chapter.open) {
        chapter.open = false;
        for (const page of pages) this.observer?.unobserve(page.el);
        chapter.el.replaceChildren();
      }
      if (chapter.measuredCount === chapter.entries && chapter.measuredHeight > 0) {
        height = chapter.measuredHeight;
      }
      if (height !== chapter.boxHeight) chapter.el.style.height = `${height}px`;
      chapter.boxHeight = height;
    }
    placeChildren(container, list.chapterEls);
  }

  /** The pages of list `listKey`, made or dropped so that there are `count`. */
  private list(listKey: string, count: number, last: boolean): PagedList {
    this.seen.add(listKey);
    let list = this.lists.get(listKey);
    if (list === undefined) {
      list = { pages: [], els: [], chapters: [], chapterEls: [] };
      this.lists.set(listKey, list);
    }
    if (list.pages.length > count) this.dropPages(list, count);
    const chapters = chapterCount(count);
    // Pages gathered in chapters are observed only while their chapter is open; a list
    // that shrank below chapters has all its pages watched again.
    const observed = chapters === 0;
    if (observed && list.chapters.length > 0) {
      this.dropChapters(list, 0);
      for (const page of list.pages) this.observer?.observe(page.el);
    }
    for (let index = list.pages.length; index < count; index++) {
      // The first page (where a finished run opens) and the last one of the last list
      // (where a live one is followed) are drawn before any observer has spoken.
      const page = this.newPage(index === 0 || (last && index === count - 1), observed);
      list.pages.push(page);
      list.els.push(page.el);
    }
    if (list.chapters.length > chapters) this.dropChapters(list, chapters);
    for (let index = list.chapters.length; index < chapters; index++) {
      const chapter = this.newChapter(index === 0 || (last && index === chapters - 1));
      list.chapters.push(chapter);
      list.chapterEls.push(chapter.el);
    }
    return list;
  }

  /** Forget the pages of `list` from `from` on. */
  private dropPages(list: PagedList, from: number): void {
    for (let index = from; index < list.pages.length; index++) {
      const page = list.pages[index] as Page;
      this.observer?.unobserve(page.el);
      this.pageOf.delete(page.el);
    }
    list.pages.length = from;
    list.els.length = from;
  }

  /** Forget the chapters of `list` from `from` on (their pages stay). */
  private dropChapters(list: PagedList, from: number): void {
    for (let index = from; index < list.chapters.length; index++) {
      const chapter = list.chapters[index] as Chapter;
      this.observer?.unobserve(chapter.el);
      this.chapterOf.delete(chapter.el);
      chapter.el.replaceChildren();
    }
    list.chapters.length = from;
    list.chapterEls.length = from;
  }

  /** Put the page's entries in the DOM: those already there, then more while time is left. */
  private fill<T>(
    page: Page,
    items: readonly T[],
    start: number,
    end: number,
    draw: (item: T) => HTMLElement,
    fromEnd: boolean,
  ): void {
    if (page.shown === 0) {
      page.fromEnd = fromEnd;
      page.el.style.height = "";
      page.boxHeight = -1;
    }
    const count = end - start;
    let shown = Math.min(page.shown, count);
    const first = page.fromEnd ? end - shown : start;
    const els = items.slice(first, first + shown).map(draw);
    while (shown < count && this.mayFill()) {
      if (page.fromEnd) els.unshift(draw(items[end - shown - 1] as T));
      else els.push(draw(items[start + shown] as T));
      shown += 1;
      this.filled += 1;
    }
    placeChildren(page.el, els);
    page.shown = shown;
    page.drawn = shown === count;
    if (!page.drawn) this.deferred = true;
  }

  /** Whether this draw may add one more card: always its first, then while time is left
   * and the screenful is not full. */
  private mayFill(): boolean {
    return this.filled === 0 || (this.filled < this.fillLimit && performance.now() < this.deadline);
  }

  /** Draw the page `ref` from now on, until it is seen far from view. */
  reveal(ref: PageRef): void {
    const list = this.lists.get(ref.listKey);
    const pageIndex = Math.floor(ref.index / PAGE_ITEMS);
    const page = list?.pages[pageIndex];
    if (page !== undefined) page.near = true;
    const chapter = list?.chapters[Math.floor(pageIndex / CHAPTER_PAGES)];
    if (chapter !== undefined) chapter.near = true;
  }

  /** Stop observing. */
  dispose(): void {
    this.observer?.disconnect();
    this.lists.clear();
  }

  private newChapter(nearAtFirst: boolean): Chapter {
    const el = document.createElement("div");
    el.className = "cs-chapter";
    const chapter: Chapter = {
      el,
      near: nearAtFirst || this.observer === null,
      open: false,
      boxHeight: -1,
      entries: 0,
      measuredHeight: 0,
      measuredCount: -1,
    };
    this.chapterOf.set(el, chapter);
    this.observer?.observe(el);
    return chapter;
  }

  private newPage(nearAtFirst: boolean, observed: boolean): Page {
    const el = document.createElement("div");
    el.className = "cs-page";
    const page: Page = {
      el,
      // Without an observer nothing would ever call a page near: draw them all.
      near: nearAtFirst || this.observer === null,
      drawn: false,
      shown: 0,
      fromEnd: false,
      measuredCount: 0,
      measuredHeight: 0,
      count: 0,
      boxHeight: -1,
      boxCount: -1,
    };
    this.pageOf.set(el, page);
    if (observed) this.observer?.observe(el);
    return page;
  }

  /** Give a page that is not drawn its measured height, or a guess kept until its entries
   * change. */
  private sizeBox(page: Page): void {
    const measured = page.measuredCount === page.count && page.measuredHeight > 0;
    if (!measured && page.boxCount === page.count && page.boxHeight >= 0) return;
    const height = measured ? page.measuredHeight : Math.round(page.count * this.entryHeight);
    if (height !== page.boxHeight) page.el.style.height = `${height}px`;
    page.boxHeight = height;
    page.boxCount = page.count;
  }

  private observed(entries: IntersectionObserverEntry[]): void {
    let changed = false;
    for (const entry of entries) {
      const chapter = this.chapterOf.get(entry.target);
      if (chapter !== undefined) {
        if (chapter.open && entry.boundingClientRect.height > 0) {
          chapter.measuredHeight = entry.boundingClientRect.height;
          chapter.measuredCount = chapter.entries;
        }
        if ((entry.rootBounds?.height ?? 0) === 0 && !entry.isIntersecting) continue;
        if (chapter.near !== entry.isIntersecting) {
          chapter.near = entry.isIntersecting;
          changed = true;
        }
        continue;
      }
      const page = this.pageOf.get(entry.target);
      if (page === undefined) continue;
      const height = entry.boundingClientRect.height;
      if (page.drawn && height > 0 && page.count > 0) {
        page.measuredCount = page.count;
        page.measuredHeight = height;
        this.entryHeight = (this.entryHeight * 3 + height / page.count) / 4;
      }
      // A hidden transcript (another tab shown) has no size: keep what is drawn for when
      // it comes back rather than dropping and rebuilding every card.
      const rootHeight = entry.rootBounds?.height ?? 0;
      // The observer's root is the visible area grown by the margin on both sides.
      if (rootHeight > 0) this.rootHeight = Math.max(1, rootHeight - 2 * NEAR_PX);
      if (rootHeight === 0 && !entry.isIntersecting) continue;
      if (page.near !== entry.isIntersecting) {
        page.near = entry.isIntersecting;
        changed = true;
      }
    }
    if (changed) this.onChange();
  }
}
