// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import { ENTRY_PAGE, JsonTree, STRING_PREVIEW } from "../src/json-tree";

function click(el: Element | null | undefined): void {
  (el as HTMLElement).dispatchEvent(new MouseEvent("click", { bubbles: true }));
}

describe("JsonTree", () => {
  it("shows keys and values as text, never markup", () => {
    const tree = new JsonTree({ name: "<img src=x onerror=alert(1)>", n: 3, ok: true, none: null });
    expect(tree.el.querySelector("img")).toBeNull();
    expect(tree.el.textContent).toContain('"<img src=x onerror=alert(1)>"');
    expect(tree.el.querySelector(".cs-json-number")?.textContent).toBe("3");
  });

  it("builds children lazily when a node is opened", () => {
    const tree = new JsonTree({ outer: { inner: { deep: 1 } } }, { openDepth: 1 });
    expect(tree.el.textContent).not.toContain("inner");
    const toggles = tree.el.querySelectorAll(".cs-json-toggle");
    click(toggles[1]);
    expect(tree.el.textContent).toContain("inner");
  });

  it("truncates big arrays with a show-more control", () => {
    const tree = new JsonTree(Array.from({ length: 1000 }, (_, k) => k));
    expect(tree.el.querySelectorAll(".cs-json-number")).toHaveLength(ENTRY_PAGE);
    const more = tree.el.querySelector(".cs-more");
    expect(more?.textContent).toContain(`of ${1000 - ENTRY_PAGE}`);
    click(more);
    expect(tree.el.querySelectorAll(".cs-json-number")).toHaveLength(2 * ENTRY_PAGE);
  });

  it("truncates long strings and shows more on request", () => {
    const tree = new JsonTree({ s: "a".repeat(50_000) });
    const shown = () => tree.el.querySelector(".cs-json-string")?.textContent?.length ?? 0;
    expect(shown()).toBeLessThan(STRING_PREVIEW + 5);
    click(tree.el.querySelector(".cs-more"));
    expect(shown()).toBeGreaterThan(20_000);
  });

  it("draws a 10 MB value quickly", () => {
    const big = { rows: Array.from({ length: 100_000 }, (_, k) => ({ k, text: "x".repeat(100) })) };
    const started = performance.now();
    const tree = new JsonTree(big, { openDepth: 3 });
    // Bounded by what is shown (one page of rows), not by the 100k rows held; drawing them
    // all would take many seconds here.
    expect(tree.el.querySelectorAll(".cs-json-row").length).toBeLessThan(ENTRY_PAGE * 4);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it("keeps what the user opened across updates", () => {
    const tree = new JsonTree({ a: { b: 1 } }, { openDepth: 1 });
    click(tree.el.querySelectorAll(".cs-json-toggle")[1]);
    tree.update({ a: { b: 2 } });
    expect(tree.el.textContent).toContain("b: 2");
  });
});
