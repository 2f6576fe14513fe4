// @vitest-environment jsdom
import { afterEach, describe, expect, it } from "vitest";
import { HeldBack } from "../../src/views/held-back";
import { MarkdownView, PLAIN_SHOWN_TAIL, SHEET_PIECES } from "../../src/views/markdown";

/** A stand-in for the browser's IntersectionObserver: the test says what came into view. */
class FakeObserver {
  static last: FakeObserver | null = null;
  readonly watched = new Set<Element>();
  constructor(
    private readonly callback: (entries: { target: Element; isIntersecting: boolean }[]) => void,
  ) {
    FakeObserver.last = this;
  }
  observe(el: Element): void {
    this.watched.add(el);
  }
  unobserve(el: Element): void {
    this.watched.delete(el);
  }
  disconnect(): void {
    this.watched.clear();
  }
  show(...els: Element[]): void {
    this.callback(els.map((target) => ({ target, isIntersecting: true })));
  }
}

const withObserver = () => {
  Reflect.set(globalThis, "IntersectionObserver", FakeObserver);
};

afterEach(() => {
  Reflect.deleteProperty(globalThis, "IntersectionObserver");
  FakeObserver.last = null;
});

describe("HeldBack", () => {
  it("keeps an element out of layout until it comes into view, its text still in the page", () => {
    withObserver();
    const held = new HeldBack();
    const el = document.createElement("div");
    el.textContent = "far down";
    held.hold(el);
    expect(el.getAttribute("hidden")).toBe("until-found");
    expect(el.textContent).toBe("far down");
    FakeObserver.last?.show(el);
    expect(el.hasAttribute("hidden")).toBe(false);
    expect(FakeObserver.last?.watched.has(el)).toBe(false);
  });

  it("holds nothing where nothing could reveal it", () => {
    const el = document.createElement("div");
    new HeldBack().hold(el);
    expect(el.hasAttribute("hidden")).toBe(false);
  });
});

describe("a long plain text's sheets", () => {
  it("holds back the sheets a burst adds, except the last two, and forgets dropped ones", () => {
    withObserver();
    const view = new MarkdownView();
    const line = (k: number) => `line ${k} ${"w".repeat(60)}\n`;
    const text = (lines: number) =>
      `\`\`\`\n${Array.from({ length: lines }, (_, k) => line(k)).join("")}`;
    view.update(text(1_000), false);
    const plain = view.el.querySelector(".cs-md-plain") as HTMLElement;
    const sheets = () => Array.from(plain.querySelectorAll<HTMLElement>(".cs-md-sheet"));
    const heldOnes = () => sheets().filter((sheet) => sheet.hasAttribute("hidden"));
    const first = sheets().length;
    expect(first).toBeGreaterThan(2);
    // Put into the page at once: all but the last two wait to be scrolled to.
    expect(heldOnes()).toEqual(sheets().slice(0, -2));
    // A burst of several sheets more: the new ones but the last two are held as well.
    view.update(text(1_000 + SHEET_PIECES * 30 * 4), false);
    const after = sheets();
    expect(after.length).toBeGreaterThan(first + 2);
    expect(after.slice(-2).some((sheet) => sheet.hasAttribute("hidden"))).toBe(false);
    expect(after.slice(first, -2).every((sheet) => sheet.hasAttribute("hidden"))).toBe(true);
    // Scrolled into view, a held sheet shows; its text was in the page all along.
    const shown = after[1] as HTMLElement;
    FakeObserver.last?.show(shown);
    expect(shown.hasAttribute("hidden")).toBe(false);
    expect(plain.textContent).toBe(text(1_000 + SHEET_PIECES * 30 * 4));
  });
});

describe("a burst's plain pieces", () => {
  const line = (k: number) => `line ${k} ${"v".repeat(60)}\n`;
  const text = (lines: number) =>
    `\`\`\`\n${Array.from({ length: lines }, (_, k) => line(k)).join("")}`;
  const piecesOf = (view: MarkdownView) =>
    Array.from(view.el.querySelectorAll<HTMLElement>(".cs-md-sheet > .cs-md-piece"));
  const isHeld = (el: Element) => el.getAttribute("hidden") === "until-found";

  it("holds back the pieces drawn far above the end, and shows the last lines", () => {
    withObserver();
    const view = new MarkdownView();
    const shown = text(1_000);
    view.update(shown, false);
    const sheets = Array.from(view.el.querySelectorAll<HTMLElement>(".cs-md-sheet"));
    // In the last two sheets, a piece is held when it ends more than PLAIN_SHOWN_TAIL
    // characters before the end: the box a reader following the end sees is laid out.
    let end = 0;
    const lastTwo = new Set(sheets.slice(-2).flatMap((sheet) => Array.from(sheet.children)));
    let checked = 0;
    for (const piece of piecesOf(view)) {
      end += piece.textContent?.length ?? 0;
      if (!lastTwo.has(piece)) continue;
      expect(isHeld(piece)).toBe(end < shown.length - PLAIN_SHOWN_TAIL);
      checked += 1;
    }
    expect(checked).toBeGreaterThan(SHEET_PIECES);
    expect(piecesOf(view).filter(isHeld).length).toBeGreaterThan(0);
    const last = piecesOf(view).at(-1) as HTMLElement;
    expect(isHeld(last)).toBe(false);
    expect(view.el.querySelector(".cs-md-plain")?.textContent).toBe(shown);
    // Scrolled into view, a held piece shows.
    const held = piecesOf(view).filter(isHeld).at(-1) as HTMLElement;
    FakeObserver.last?.show(held);
    expect(isHeld(held)).toBe(false);
  });

  it("holds a sheet whole once it is past the last two, unless one of its pieces was read", () => {
    withObserver();
    const view = new MarkdownView();
    let lines = 1_000;
    view.update(text(lines), false);
    const sheetOf = (piece: HTMLElement) => piece.parentElement as HTMLElement;
    const sheetsWithHeld = () => [
      ...new Set(
        piecesOf(view)
          .filter(isHeld)
          .map((piece) => sheetOf(piece)),
      ),
    ];
    const grow = () => {
      lines += SHEET_PIECES * 30;
      view.update(text(lines), false);
    };
    // A sheet with held pieces nobody scrolls to, and one with a piece a reader scrolls to.
    const quiet = sheetsWithHeld()[0] as HTMLElement;
    grow();
    const read = sheetsWithHeld().find((sheet) => sheet !== quiet) as HTMLElement;
    expect(quiet).toBeDefined();
    expect(read).toBeDefined();
    const readPiece = Array.from(read.children).find(isHeld) as HTMLElement;
    FakeObserver.last?.show(readPiece);
    // A sheet's worth of text at a time, until both are past the last two sheets.
    for (let k = 0; k < 3; k++) grow();
    const observer = FakeObserver.last as FakeObserver;
    // Held whole: its pieces back in it, no longer watched one by one.
    expect(isHeld(quiet)).toBe(true);
    expect(observer.watched.has(quiet)).toBe(true);
    for (const piece of Array.from(quiet.children)) {
      expect(isHeld(piece)).toBe(false);
      expect(observer.watched.has(piece)).toBe(false);
    }
    // Being read: left as it is, its other held pieces still waiting to be scrolled to.
    expect(isHeld(read)).toBe(false);
    expect(isHeld(readPiece)).toBe(false);
    const stillHeld = Array.from(read.children).filter(isHeld);
    expect(stillHeld.length).toBeGreaterThan(0);
    expect(stillHeld.every((piece) => observer.watched.has(piece))).toBe(true);
    expect(view.el.querySelector(".cs-md-plain")?.textContent).toBe(text(lines));
  });
});

describe("the markdown pages of a backlog", () => {
  it("holds back a page begun far from both ends, and not one a reader is near", async () => {
    withObserver();
    const view = new MarkdownView();
    const paragraphs = Array.from({ length: 120 }, (_, k) => `paragraph ${k} ${"z".repeat(990)}`);
    const text = `${paragraphs.join("\n\n")}\n\nstill typing`;
    view.update(text, false);
    const done = view.el.querySelector(".cs-md-done") as HTMLElement;
    const pages = () => Array.from(done.querySelectorAll<HTMLElement>(".cs-md-page"));
    for (let k = 0; k < 200 && view.el.querySelector(".cs-md-plain") !== null; k++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(view.el.querySelectorAll("p")).toHaveLength(121);
    const isHeld = (page: HTMLElement) => page.getAttribute("hidden") === "until-found";
    const held = pages().filter(isHeld);
    // Held: the pages begun more than LIVE_MARKDOWN_LIMIT characters from either end of the
    // 121 KB text. Shown: the first ones (a saved text opens at its start) and the last.
    expect(held.length).toBeGreaterThan(3);
    const first = pages().indexOf(held[0] as HTMLElement);
    expect(first).toBeGreaterThan(0);
    expect(pages().slice(first, first + held.length)).toEqual(held);
    expect(pages().slice(0, first).some(isHeld)).toBe(false);
    expect(isHeld(pages().at(-1) as HTMLElement)).toBe(false);
    // A held page shows once it is scrolled into view, its text in the page all along.
    expect(held[0]?.textContent).toContain("paragraph ");
    FakeObserver.last?.show(held[0] as HTMLElement);
    expect(held[0]?.hasAttribute("hidden")).toBe(false);
  });

  it("holds back nothing of a text that streams at a reading pace", () => {
    withObserver();
    const view = new MarkdownView();
    let text = "";
    for (let k = 0; k < 200; k++) {
      text += `paragraph ${k} ${"q".repeat(400)}\n\n`;
      view.update(text, false);
    }
    expect(view.el.querySelectorAll(".cs-md-page").length).toBeGreaterThan(2);
    expect(view.el.querySelector("[hidden]")).toBeNull();
  });
});
