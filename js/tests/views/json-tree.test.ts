// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import type { ReportLoad } from "../../src/held/values";
import {
  ENTRY_PAGE,
  type HeldView,
  JsonTree,
  STRING_PAGE,
  STRING_PREVIEW,
} from "../../src/views/json-tree";

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

/** The preview of { rows: 9000 strings of 1000 chars, blob: 1M chars } as the kernel cuts it. */
function preview(): {
  value: { rows: string[]; blob: string };
  held: HeldView;
  asked: ReportLoad[];
} {
  const asked: ReportLoad[] = [];
  const value = {
    rows: Array.from({ length: 100 }, (_, k) => `row ${k} `.padEnd(400, "x")),
    blob: "y".repeat(400),
  };
  const lengths: Record<string, number> = { "$/rows": 9000, "$/blob": 1_000_000 };
  for (let k = 0; k < 100; k++) lengths[`$/rows/${k}`] = 1000;
  const held: HeldView = {
    token: 7,
    size: 10_240_000,
    lengths,
    fetchWhole: (report) => asked.push(report),
  };
  return { value, held, asked };
}

function whole(): { rows: string[]; blob: string } {
  return {
    rows: Array.from({ length: 9000 }, (_, k) => `row ${k} `.padEnd(1000, "x")),
    blob: "y".repeat(1_000_000),
  };
}

const buttons = (tree: JsonTree) => Array.from(tree.el.querySelectorAll(".cs-more"));
const button = (tree: JsonTree, text: string) =>
  buttons(tree).find((b) => b.textContent?.includes(text));

describe("JsonTree over a preview of a held value", () => {
  it("shows the full sizes, not the preview's", () => {
    const { value, held } = preview();
    const tree = new JsonTree(value, { openDepth: 1 });
    tree.update(value, held);
    expect(tree.el.textContent).toContain("rows: [9000]");
    expect(button(tree, "more chars")?.textContent).toBe("show more (999600 more chars)");
    click(tree.el.querySelectorAll(".cs-json-toggle")[1]);
    expect(button(tree, "more of")?.textContent).toBe("show 100 more of 8900");
    // A row of the preview is cut at 400 of its 1000 characters.
    click(tree.el.querySelectorAll(".cs-json-toggle")[1]);
    expect(buttons(tree)).toHaveLength(1);
  });

  it("asks for the whole value once, shows how loading goes, and keeps what was asked across the swap", () => {
    const { value, held, asked } = preview();
    const tree = new JsonTree(null, { openDepth: 1 });
    tree.update(value, held);
    click(button(tree, "more chars"));
    expect(asked).toHaveLength(1);
    const loading = button(tree, "loading");
    expect(loading?.textContent).toBe("loading the full value… 0 of 10,000 KB");
    expect((loading as HTMLButtonElement).disabled).toBe(true);
    asked[0]?.({ state: "loading", received: 5_120_000, total: 10_240_000 });
    expect(button(tree, "loading")?.textContent).toBe("loading the full value… 5,000 of 10,000 KB");
    // Rows wanted too while the value loads: no second request.
    click(tree.el.querySelectorAll(".cs-json-toggle")[1]);
    click(button(tree, "more of 8900"));
    expect(asked).toHaveLength(1);

    tree.update(whole(), null);
    const blob = Array.from(tree.el.querySelectorAll(".cs-json-string")).find((el) =>
      el.textContent?.startsWith('"yyy'),
    );
    expect(blob?.textContent?.length).toBe(STRING_PREVIEW + STRING_PAGE + 2); // the opening quote and "…"
    expect(button(tree, "more of")?.textContent).toBe("show 100 more of 8800");
    expect(button(tree, "loading")).toBeUndefined();
  });

  it("says why when the whole value cannot come, and can ask again", () => {
    const { value, held, asked } = preview();
    const tree = new JsonTree(null, { openDepth: 1 });
    tree.update(value, held);
    click(button(tree, "more chars"));
    asked[0]?.({
      state: "failed",
      message: "no kernel is connected to send the rest of this value",
    });
    expect(tree.el.querySelector(".cs-error-text")?.textContent).toContain(
      "no kernel is connected",
    );
    click(button(tree, "more chars"));
    expect(asked).toHaveLength(2);
  });

  it("does not ask when the preview already holds what is shown next", () => {
    const asked: ReportLoad[] = [];
    const value = Array.from({ length: 150 }, (_, k) => k);
    const tree = new JsonTree(null);
    tree.update(value, {
      token: 1,
      size: 1,
      lengths: { "$/0": 5 },
      fetchWhole: (r) => asked.push(r),
    });
    click(button(tree, "more of 50"));
    expect(asked).toHaveLength(0);
    expect(tree.el.querySelectorAll(".cs-json-number")).toHaveLength(150);
  });
});
