// @vitest-environment jsdom

import { describe, expect, it, vi } from "vitest";
import { TextRope } from "../../src/model/rope";
import { loadHighlighter } from "../../src/views/code/highlight";
import { schedule } from "../../src/views/frame";
import {
  BURST_GROWTH,
  BURST_QUIET_MS,
  CHAPTER_PAGES,
  CHAPTER_SHEETS,
  COMMIT_BUDGET,
  completePrefixLength,
  FRAME_MARKDOWN_MS,
  guessLines,
  isAllowedImageUrl,
  LIVE_MARKDOWN_LIMIT,
  MarkdownView,
  markdownIsWarm,
  PAGE_BLOCKS,
  PENDING_TAIL_LIMIT,
  PLAIN_PIECE,
  renderMarkdown,
  SHEET_PIECES,
  sanitizeSpans,
  warmUpMarkdown,
} from "../../src/views/markdown";
import { waitUntil } from "../helpers";

function html(source: string): HTMLElement {
  const div = document.createElement("div");
  div.append(renderMarkdown(source));
  return div;
}

describe("renderMarkdown", () => {
  it("renders markdown with code blocks", () => {
    const div = html("# Title\n\nSome **bold** text.\n\n```py\nprint('<b>')\n```\n");
    expect(div.querySelector("h1")?.textContent).toBe("Title");
    expect(div.querySelector("strong")?.textContent).toBe("bold");
    expect(div.querySelector("pre code")?.textContent).toBe("print('<b>')\n");
  });

  it("gives nodes of the page's own document, ready to be drawn there", () => {
    const fragment = renderMarkdown("Some *text*.\n\n```py\nx = 1\n```\n");
    expect(fragment.ownerDocument).toBe(document);
    for (const node of fragment.querySelectorAll("*")) expect(node.ownerDocument).toBe(document);
  });

  it("strips event handlers and script", () => {
    const div = html(
      'Look <img src="https://x.test/a.png" onerror="alert(1)"> <script>alert(2)</script>',
    );
    const img = div.querySelector("img");
    expect(img?.getAttribute("onerror")).toBeNull();
    expect(div.querySelector("script")).toBeNull();
    expect(div.innerHTML).not.toContain("alert");
  });

  it("drops javascript: links and opens the rest in a new tab without an opener", () => {
    const div = html("[bad](javascript:alert(1)) and [good](https://example.com)");
    const links = [...div.querySelectorAll("a")];
    expect(links.map((a) => a.getAttribute("href"))).toEqual([null, "https://example.com"]);
    for (const a of links) {
      expect(a.getAttribute("target")).toBe("_blank");
      expect(a.getAttribute("rel")).toBe("noopener noreferrer");
    }
  });

  it("keeps no in-page link, id or name a payload could use to confuse the page", () => {
    const div = html('<a href="#" id=cs-stop name=cs-stop>clobber</a> and [top](#top)');
    expect(div.querySelector("[href]")).toBeNull();
    expect(div.querySelector("[id], [name]")).toBeNull();
    expect(div.textContent).toContain("clobber");
  });

  it("allows only inline images of safe types", () => {
    const div = html(
      "![png](data:image/png;base64,iVBORw0KGgo=) ![svg](data:image/svg+xml;base64,PHN2Zz4=) ![web](https://x.test/i.webp)",
    );
    const sources = [...div.querySelectorAll("img")].map((img) => img.getAttribute("src"));
    expect(sources).toEqual(["data:image/png;base64,iVBORw0KGgo=", null, "https://x.test/i.webp"]);
    expect(html("<svg><script>alert(1)</script></svg>").querySelector("svg")).toBeNull();
  });

  it("keeps markdown's rules and the highlighter's apart, call after call", () => {
    const spans = '<b>b</b><span class="kw">def</span><a href="https://x.test">a</a>';
    for (let round = 0; round < 2; round++) {
      const div = html("**bold** and [a link](https://x.test)");
      expect(div.querySelector("strong")?.textContent).toBe("bold");
      expect(div.querySelector("a")?.getAttribute("target")).toBe("_blank");
      const holder = document.createElement("div");
      const nodes = sanitizeSpans(spans);
      if (nodes !== null) holder.append(nodes);
      expect(holder.innerHTML).toBe('b<span class="kw">def</span>a');
    }
  });

  it("knows which image URLs are allowed", () => {
    expect(isAllowedImageUrl("data:image/gif;base64,R0lGOD")).toBe(true);
    expect(isAllowedImageUrl("data:text/html,<b>")).toBe(false);
    expect(isAllowedImageUrl("javascript:alert(1)")).toBe(false);
  });
});

describe("incremental rendering", () => {
  it("guesses how many lines a plain text takes, long lines wrapped", () => {
    expect(guessLines("")).toBe(0);
    expect(guessLines("one\ntwo\n")).toBe(2);
    expect(guessLines("a\n\nb")).toBe(3);
    expect(guessLines(`${"x".repeat(250)}\nshort\n`)).toBe(4);
  });

  it("finds where the complete blocks end", () => {
    expect(completePrefixLength("one paragraph")).toBe(0);
    expect(completePrefixLength("first\n\nsecond")).toBe("first\n\n".length);
    expect(completePrefixLength("```\ncode\n\nmore")).toBe(0); // an open fence is one block
  });

  it("keeps finished blocks' DOM and re-renders only the growing one", () => {
    const view = new MarkdownView();
    view.update("# Head\n\nFirst para", false);
    const heading = view.el.querySelector("h1");
    view.update("# Head\n\nFirst paragraph.\n\nSecond *em", false);
    expect(view.el.querySelector("h1")).toBe(heading);
    view.update("# Head\n\nFirst paragraph.\n\nSecond *emphasis*", true);
    expect(view.el.querySelector("h1")).toBe(heading);
    expect(view.el.querySelector("em")?.textContent).toBe("emphasis");
    expect(view.el.textContent).toContain("First paragraph.");
  });

  it("shows a huge unfinished block as plain text, and as markdown once it ends", () => {
    const view = new MarkdownView();
    const code = `\`\`\`\n${"line <b>\n".repeat(LIVE_MARKDOWN_LIMIT / 5)}`;
    view.update(code, false);
    expect(view.el.querySelector(".cs-md-plain")?.textContent).toBe(code);
    expect(view.el.querySelector("pre")).toBeNull();
    view.update(`${code}\`\`\`\n`, true);
    expect(view.el.querySelector(".cs-md-plain")).toBeNull();
    expect(view.el.querySelector("pre code")?.textContent?.startsWith("line <b>")).toBe(true);
  });

  it("draws a long plain backlog in pieces and keeps the pieces that did not change", () => {
    const view = new MarkdownView();
    const line = (k: number) => `line ${k} ${"w".repeat(60)}\n`;
    const code = `\`\`\`\n${Array.from({ length: 2_000 }, (_, k) => line(k)).join("")}`;
    view.update(code, false);
    const plain = view.el.querySelector(".cs-md-plain") as HTMLElement;
    expect(plain.textContent).toBe(code);
    const pieces = Array.from(plain.querySelectorAll(".cs-md-piece"));
    expect(pieces.length).toBeGreaterThan(code.length / (PLAIN_PIECE + 100));
    for (const piece of pieces.slice(0, -1)) expect(piece.textContent?.endsWith("\n")).toBe(true);
    // The pieces are grouped in sheets, the unit the browser checks against the viewport,
    // and the sheets in chapters.
    expect(Array.from(plain.children).every((c) => c.classList.contains("cs-md-sheets"))).toBe(
      true,
    );
    const sheets = Array.from(plain.querySelectorAll(".cs-md-sheets > *"));
    expect(sheets.every((sheet) => sheet.classList.contains("cs-md-sheet"))).toBe(true);
    expect(sheets.length).toBe(Math.ceil(pieces.length / SHEET_PIECES));
    expect(sheets.slice(0, -1).every((s) => s.childElementCount === SHEET_PIECES)).toBe(true);
    const grown = `${code}${line(2_000)}${line(2_001)}`;
    view.update(grown, false);
    expect(plain.textContent).toBe(grown);
    const after = Array.from(plain.querySelectorAll(".cs-md-piece"));
    expect(after.slice(0, pieces.length - 1)).toEqual(pieces.slice(0, -1));
  });

  it("shows a text in the first frame that draws it as plain text, and as markdown in the next", async () => {
    // A warm parser could render it in that frame: the first words are still not held up.
    warmUpMarkdown();
    await waitUntil(() => markdownIsWarm());
    const view = new MarkdownView();
    await new Promise<void>((resolve) =>
      schedule(() => {
        view.update("The *first* words", false);
        resolve();
      }),
    );
    expect(view.el.querySelector(".cs-md-plain")?.textContent).toBe("The *first* words");
    expect(view.el.querySelector("em")).toBeNull();
    await waitUntil(() => view.el.querySelector("em") !== null);
    expect(view.el.querySelector(".cs-md-plain")).toBeNull();
    // A text that replaces it (a past state while scrubbing) is markdown in its first frame.
    await new Promise<void>((resolve) =>
      schedule(() => {
        view.update("An *earlier* state", false);
        resolve();
      }),
    );
    expect(view.el.querySelector("em")?.textContent).toBe("earlier");
    // Drawn outside a frame (a view mounted with its run), it is markdown at once, and stays
    // markdown when a frame draws it again.
    const mounted = new MarkdownView();
    mounted.update("The *first* words", false);
    expect(mounted.el.querySelector("em")?.textContent).toBe("first");
    await new Promise<void>((resolve) =>
      schedule(() => {
        mounted.update("The *first* words", true);
        resolve();
      }),
    );
    expect(mounted.el.querySelector(".cs-md-plain")).toBeNull();
    expect(mounted.el.querySelector("em")?.textContent).toBe("first");
  });

  it("draws text that comes late in a frame as plain text, and as markdown in the next", async () => {
    const view = new MarkdownView();
    view.update("Some", false);
    const spent = new Promise<void>((resolve) =>
      schedule(() => {
        const until = performance.now() + FRAME_MARKDOWN_MS + 2;
        while (performance.now() < until) {
          // another view took the frame's time
        }
        view.update("Some *emphasis* here", false);
        resolve();
      }),
    );
    await spent;
    expect(view.el.querySelector(".cs-md-plain")?.textContent).toBe("Some *emphasis* here");
    expect(view.el.querySelector("em")).toBeNull();
    await waitUntil(() => view.el.querySelector("em") !== null);
    expect(view.el.querySelector("em")?.textContent).toBe("emphasis");
    expect(view.el.querySelector(".cs-md-plain")).toBeNull();
  });

  it("highlights a code block once it is complete, not on every frame while it grows", async () => {
    const view = new MarkdownView();
    const settle = async () => {
      await loadHighlighter();
      await new Promise((resolve) => setTimeout(resolve, 20));
    };
    view.update("```python\ndef add(a, b):\n    return a + b\n", false);
    await settle();
    expect(view.el.querySelector(".cs-code")).not.toBeNull();
    expect(view.el.querySelector("code.hljs")).toBeNull();
    view.update("```python\ndef add(a, b):\n    return a + b\n```\n", true);
    await settle();
    expect(view.el.querySelector("code.hljs .hljs-keyword")?.textContent).toBe("def");
  });

  it("starts over when the text is not a continuation (a past state)", () => {
    const view = new MarkdownView();
    view.update("alpha\n\nbeta\n\ngamma", true);
    view.update("alpha\n\nbe", false);
    expect(view.el.textContent?.replace(/\s+/g, " ").trim()).toBe("alpha be");
  });

  it("keeps finished blocks in pages, so a long text is a few hundred elements to lay out", async () => {
    const view = new MarkdownView();
    const paragraphs = Array.from({ length: 100 }, (_, k) => `paragraph ${k} ${"x".repeat(1890)}`);
    view.update(`${paragraphs.join("\n\n")}\n`, true);
    for (let k = 0; k < 100 && view.el.querySelector(".cs-md-plain") !== null; k++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const done = view.el.querySelector(".cs-md-done") as HTMLElement;
    const blocks = done.querySelectorAll(".cs-md-block").length;
    expect(blocks).toBeGreaterThan(PAGE_BLOCKS * 2);
    expect(done.querySelectorAll(".cs-md-page").length).toBe(Math.ceil(blocks / PAGE_BLOCKS));
    for (const page of done.querySelectorAll(".cs-md-chapter > *")) {
      expect(page.className).toBe("cs-md-page");
    }
    expect(view.el.querySelectorAll("p")).toHaveLength(100);
  });

  it("drops a sheet of plain pieces, and a chapter of sheets, once markdown has taken all of its text", async () => {
    const view = new MarkdownView();
    const paragraphs = Array.from({ length: 300 }, (_, k) => `paragraph ${k} ${"x".repeat(1890)}`);
    const text = `${paragraphs.join("\n\n")}\n\nstill typing`;
    view.update(text, false);
    const first = view.el.querySelector(".cs-md-plain > .cs-md-sheets") as HTMLElement;
    expect(first.childElementCount).toBeGreaterThan(0);
    expect(first.childElementCount).toBeLessThanOrEqual(CHAPTER_SHEETS);
    const sheetCounts: number[] = [];
    const chapterCounts: number[] = [];
    for (let k = 0; k < 300; k++) {
      const plain = view.el.querySelector(".cs-md-plain");
      if (plain === null) break;
      const chapters = Array.from(plain.children);
      const sheets = Array.from(plain.querySelectorAll(".cs-md-sheet"));
      expect(chapters.every((chapter) => chapter.childElementCount > 0)).toBe(true);
      expect(sheets.every((sheet) => sheet.childElementCount > 0)).toBe(true);
      expect(plain.textContent?.endsWith("still typing")).toBe(true);
      sheetCounts.push(sheets.length);
      chapterCounts.push(chapters.length);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(sheetCounts[0]).toBeGreaterThan(CHAPTER_SHEETS);
    expect(sheetCounts.at(-1) ?? 0).toBeLessThan(sheetCounts[0] as number);
    expect(chapterCounts[0]).toBe(2);
    expect(chapterCounts).toContain(1);
    expect(first.isConnected).toBe(false);
    expect(view.el.querySelectorAll("p")).toHaveLength(301);
  });

  it("draws a growing rope as it draws the same text as a string", async () => {
    const byString = new MarkdownView();
    const byRope = new MarkdownView();
    const rope = new TextRope();
    let text = "";
    for (let k = 0; k < 300; k++) {
      const piece = k % 50 === 49 ? "\n\n```\ncode\n```\n\n" : `word ${k} *w* `;
      text += k % 7 === 6 ? `${piece}\n\n` : piece;
      rope.append(k % 7 === 6 ? `${piece}\n\n` : piece);
      byString.update(text, false);
      byRope.update(rope, false);
      if (k % 60 === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    byString.update(text, true);
    byRope.update(rope, true);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(byRope.el.innerHTML).toBe(byString.el.innerHTML);
    expect(byRope.el.querySelectorAll("pre").length).toBe(6);
  });

  it("leaves a backlog's markdown to a task after the frame that shows its text", async () => {
    const view = new MarkdownView();
    const paragraphs = Array.from({ length: 60 }, (_, k) => `paragraph ${k} ${"y".repeat(990)}`);
    const text = `${paragraphs.join("\n\n")}\n\nstill`;
    let blocksInFrame = -1;
    await new Promise<void>((resolve) =>
      schedule(() => {
        view.update(text, false);
        blocksInFrame = view.el.querySelectorAll(".cs-md-block").length;
        resolve();
      }),
    );
    expect(blocksInFrame).toBe(0);
    expect(view.el.querySelector(".cs-md-plain")?.textContent).toBe(text);
    for (let k = 0; k < 50 && view.el.querySelector(".cs-md-block") === null; k++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(view.el.querySelectorAll(".cs-md-block").length).toBeGreaterThan(0);
    expect(view.el.textContent?.replace(/\s+/g, "")).toBe(text.replace(/\s+/g, ""));
  });

  it("keeps a backlog plain while its text arrives in a burst, and renders it once the burst passed", async () => {
    const paragraph = (k: number) => `paragraph ${k} ${"b".repeat(990)}\n\n`;
    const inFrame = (job: () => void) =>
      new Promise<void>((resolve) =>
        schedule(() => {
          job();
          resolve();
        }),
      );
    const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    let now = 1_000;
    const clock = vi.spyOn(performance, "now").mockImplementation(() => now);
    try {
      // A saved text opened whole is not a burst: its markdown comes in the next tasks.
      const opened = new MarkdownView();
      const saved = Array.from({ length: 60 }, (_, k) => paragraph(k)).join("");
      await inFrame(() => opened.update(saved, false));
      await waitUntil(() => opened.el.querySelector(".cs-md-block") !== null);
      expect(opened.el.querySelector(".cs-md-block")).not.toBeNull();

      // A streaming text that grows by more than a frame renders, frame after frame.
      const view = new MarkdownView();
      let text = "Intro.\n\n";
      await inFrame(() => view.update(text, false));
      for (let frame = 0; frame < 6; frame++) {
        const added = Array.from({ length: 17 }, (_, k) => paragraph(frame * 17 + k)).join("");
        expect(added.length).toBeGreaterThanOrEqual(BURST_GROWTH);
        text += added;
        await inFrame(() => view.update(text, false));
        now += 30;
      }
      await pause(100);
      // All of it is on screen, as plain text: no markdown step ran during the burst.
      expect(view.el.querySelectorAll("p").length).toBeLessThanOrEqual(1);
      expect(view.el.textContent?.replace(/\s+/g, "")).toBe(text.replace(/\s+/g, ""));

      now += BURST_QUIET_MS;
      // The introduction and the 102 paragraphs, the last one the live tail.
      const paragraphs = () => view.el.querySelectorAll("p").length;
      for (let k = 0; k < 500 && paragraphs() < 103; k++) await pause(20);
      expect(paragraphs()).toBe(103);
      expect(view.el.querySelector(".cs-md-plain")).toBeNull();
      expect(view.el.textContent?.replace(/\s+/g, "")).toBe(text.replace(/\s+/g, ""));
    } finally {
      clock.mockRestore();
    }
  });

  it("renders no long tail as markdown while a backlog still has blocks to commit", async () => {
    const view = new MarkdownView();
    const paragraphs = Array.from({ length: 60 }, (_, k) => `paragraph ${k} ${"z".repeat(990)}`);
    const text = `${paragraphs.join("\n\n")}\n\nstill`;
    // Every markdown tail the catch-up draws, measured after each task that changed the view.
    const tails: number[] = [];
    // A page fast enough to render every block it finds within a frame's time for markdown.
    const clock = vi.spyOn(performance, "now").mockReturnValue(1_000);
    const observer = new MutationObserver(() => {
      const live = view.el.querySelector(".cs-md-live") as HTMLElement;
      if (live.querySelector(".cs-md-plain") === null)
        tails.push(live.textContent?.trim().length ?? 0);
    });
    observer.observe(view.el, { childList: true, subtree: true, characterData: true });
    try {
      await new Promise<void>((resolve) =>
        schedule(() => {
          view.update(text, false);
          resolve();
        }),
      );
      await waitUntil(
        () =>
          view.el.querySelectorAll(".cs-md-block").length === 60 &&
          view.el.querySelector(".cs-md-plain") === null,
      );
      await new Promise((resolve) => setTimeout(resolve, 0));
    } finally {
      observer.disconnect();
      clock.mockRestore();
    }
    // The text that becomes markdown a block at a time stays plain until its turn; the
    // tail drawn as markdown is the last, unfinished paragraph.
    expect(tails.length).toBeGreaterThan(0);
    expect(Math.max(...tails)).toBeLessThanOrEqual(PENDING_TAIL_LIMIT);
    expect(tails.at(-1)).toBe("still".length);
    expect(view.el.textContent?.replace(/\s+/g, "")).toBe(text.replace(/\s+/g, ""));
  });

  it("draws a long unfinished last block as markdown in the frame that commits the one before", () => {
    const clock = vi.spyOn(performance, "now").mockReturnValue(1_000);
    try {
      const view = new MarkdownView();
      const text = `Done paragraph.\n\nStill growing ${"w ".repeat(2_000)}`;
      view.update(text, false);
      expect(view.el.querySelectorAll(".cs-md-block")).toHaveLength(1);
      // The whole window was searched for blocks: the tail is one block, drawn as markdown.
      expect(view.el.querySelector(".cs-md-plain")).toBeNull();
      expect(view.el.querySelector(".cs-md-live p")?.textContent).toContain("Still growing");
    } finally {
      clock.mockRestore();
    }
  });

  it("starts over when a longer text replaces the one committed", () => {
    const view = new MarkdownView();
    view.update("alpha\n\nbeta\n\ngamma", true);
    view.update("other\n\nbeta\n\ngamma and more", true);
    expect(view.el.textContent?.replace(/\s+/g, " ").trim()).toBe("other beta gamma and more");
    view.update("other\n\nbeta\n\ngamma and more\n\nstill", true);
    expect(view.el.textContent?.replace(/\s+/g, " ").trim()).toBe(
      "other beta gamma and more still",
    );
  });

  it("renders a long finished text a budget at a time, one frame after another", async () => {
    const view = new MarkdownView();
    const paragraphs = Array.from({ length: 1600 }, (_, k) => `Paragraph ${k} with *some* words.`);
    const text = `${paragraphs.join("\n\n")}\n`;
    view.update(text, true);
    const firstFrame = view.el.querySelectorAll(".cs-md-done p").length;
    expect(firstFrame).toBeGreaterThan(0);
    expect(firstFrame * 34).toBeLessThanOrEqual(COMMIT_BUDGET + 100);
    expect(view.el.querySelector(".cs-md-plain")).not.toBeNull();
    for (let k = 0; k < 100 && view.el.querySelectorAll("p").length < 1600; k++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(view.el.querySelectorAll("p")).toHaveLength(1600);
    expect(view.el.querySelectorAll("em")).toHaveLength(1600);
    expect(view.el.querySelector(".cs-md-plain")).toBeNull();
  });
});

describe("chapters of pages", () => {
  it("keeps pages in chapters, so laying out the end of a long text does not go over every page", async () => {
    const view = new MarkdownView();
    // Streamed a paragraph at a time, each paragraph is a block of its own.
    const count = CHAPTER_PAGES * PAGE_BLOCKS * 2 + 40;
    const paragraphs = Array.from({ length: count }, (_, k) => `paragraph ${k} ${"c".repeat(40)}`);
    let text = "";
    for (const paragraph of paragraphs) {
      text += `${paragraph}\n\n`;
      view.update(text, false);
    }
    view.update(text, true);
    await waitUntil(() => view.el.querySelector(".cs-md-plain") === null);
    const done = view.el.querySelector(".cs-md-done") as HTMLElement;
    const chapters = Array.from(done.children);
    const pages = done.querySelectorAll(".cs-md-page").length;
    expect(pages).toBe(Math.ceil(count / PAGE_BLOCKS));
    expect(chapters).toHaveLength(Math.ceil(pages / CHAPTER_PAGES));
    for (const chapter of chapters) expect(chapter.className).toBe("cs-md-chapter");
    for (const chapter of chapters.slice(0, -1)) {
      expect(chapter.childElementCount).toBe(CHAPTER_PAGES);
    }
    // In order, every paragraph once.
    const shown = Array.from(view.el.querySelectorAll("p"), (p) => p.textContent);
    expect(shown).toEqual(paragraphs);
  });
});
