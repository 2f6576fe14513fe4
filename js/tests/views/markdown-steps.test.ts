// @vitest-environment jsdom

import { describe, expect, it, vi } from "vitest";
import { placeChildren } from "../../src/views/dom";
import { CHAPTER_SHEETS, MarkdownView } from "../../src/views/markdown";

// Every sheet and chapter of plain text that a draw goes over is placed with placeChildren:
// counting its calls counts what a draw goes over.
vi.mock("../../src/views/dom", async (importOriginal) => {
  const dom = await importOriginal<typeof import("../../src/views/dom")>();
  return { ...dom, placeChildren: vi.fn(dom.placeChildren) };
});

const placed = vi.mocked(placeChildren);

function sheetsIn(view: MarkdownView): number {
  return view.el.querySelectorAll(".cs-md-plain .cs-md-sheet").length;
}

describe("a long plain text drawn again", () => {
  it("goes over the sheets at its end only when the text grows", () => {
    const view = new MarkdownView();
    const line = (k: number) => `line ${k} ${"w".repeat(60)}\n`;
    let code = `\`\`\`\n${Array.from({ length: 20_000 }, (_, k) => line(k)).join("")}`;
    view.update(code, false);
    expect(sheetsIn(view)).toBeGreaterThan(4 * CHAPTER_SHEETS);
    for (let k = 0; k < 50; k++) {
      code += line(20_000 + k);
      placed.mockClear();
      view.update(code, false);
      // The last sheet, its chapter and the list of chapters; a new sheet or chapter adds one.
      expect(placed.mock.calls.length).toBeLessThanOrEqual(5);
    }
    expect(view.el.querySelector(".cs-md-plain")?.textContent).toBe(code);
  });

  it("goes over the sheets at its two ends only as markdown takes its start", async () => {
    const view = new MarkdownView();
    const paragraphs = Array.from(
      { length: 1_500 },
      (_, k) => `paragraph ${k} ${"x".repeat(1890)}`,
    );
    const text = `${paragraphs.join("\n\n")}\n\nstill typing`;
    view.update(text, false);
    const before = sheetsIn(view);
    expect(before).toBeGreaterThan(4 * CHAPTER_SHEETS);
    // What each draw goes over, counted per draw (a step of markdown, or a frame's redraw):
    // on a busy machine several steps can fall between two looks at the clock.
    const calls: number[] = [];
    const draw = view.update.bind(view);
    view.update = (next, final) => {
      placed.mockClear();
      draw(next, final);
      if (placed.mock.calls.length > 0) calls.push(placed.mock.calls.length);
    };
    for (let k = 0; k < 40; k++) await new Promise((resolve) => setTimeout(resolve, 20));
    // Markdown took the text's start meanwhile, step by step: the first sheets went.
    expect(sheetsIn(view)).toBeLessThan(before);
    expect(calls.length).toBeGreaterThan(5);
    // Each step: the first sheet and the last, their chapters, the list of chapters.
    expect(Math.max(...calls)).toBeLessThanOrEqual(6);
    const plain = view.el.querySelector(".cs-md-plain") as HTMLElement;
    expect(plain.textContent?.endsWith("still typing")).toBe(true);
    const shown = (view.el.querySelector(".cs-md-done")?.textContent ?? "") + plain.textContent;
    expect(shown.replace(/\s+/g, "")).toBe(text.replace(/\s+/g, ""));
  });
});
