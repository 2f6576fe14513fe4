// @vitest-environment jsdom
import { afterEach, describe, expect, it } from "vitest";
import { createStore, fromSnapshot } from "../../../src/model/store";
import type { ChunkRow, Snapshot, TransientItem } from "../../../src/model/wire";
import { mountInspector, ROW_HEIGHT } from "../../../src/views/inspector/view";
import { createShared, type PanelContext } from "../../../src/views/panel";
import { runInfo, text } from "../timeline/builders";

function rowsOf(count: number): ChunkRow[] {
  return Array.from({ length: count }, (_, i) => ({
    i,
    n: i % 2 === 0 ? 3 : 1,
    t: i * 2,
    type: i % 10 === 9 ? "tool-call" : "text-delta",
    from: "AGENT",
    family: i % 10 === 9 ? "tools" : "text",
    part: i % 10 === 9 ? "p1" : "p0",
    json: { type: "text-delta", payload: { text: `chunk ${i}` } },
  }));
}

function mount(rows: ChunkRow[], transient: TransientItem[] = []) {
  const snap: Snapshot = {
    v: 1,
    seq: 0,
    run: runInfo(),
    parts: [text("p0", 0, 10, "hi", [[0, 2]]), text("p1", 0, 10, "yo", [[0, 2]])],
    rows,
  };
  const store = createStore(fromSnapshot(snap, transient));
  const picked: string[] = [];
  const ctx: PanelContext = {
    store,
    selection: createShared<string | null>(null),
    scrubTime: createShared<number | null>(null),
    scrollToPart: (id) => picked.push(id),
  };
  const container = document.createElement("div");
  document.body.append(container);
  const unmount = mountInspector(container, ctx);
  cleanups.push(() => {
    unmount();
    container.remove();
  });
  const visibleRows = () => [...container.querySelectorAll<HTMLElement>(".cs-row:not([hidden])")];
  return { container, ctx, visibleRows, store };
}

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()?.();
});

describe("chunk inspector", () => {
  it("keeps only a window of 50k rows in the DOM and moves it on scroll", () => {
    const { container, visibleRows } = mount(rowsOf(50_000));
    const spacer = container.querySelector<HTMLElement>(".cs-inspector-spacer");
    expect(spacer?.style.height).toBe(`${50_000 * ROW_HEIGHT}px`);
    expect(visibleRows().length).toBeLessThan(80);
    const list = container.querySelector<HTMLElement>(".cs-inspector-list") as HTMLElement;
    list.scrollTop = 20_000 * ROW_HEIGHT;
    list.dispatchEvent(new Event("scroll"));
    const texts = visibleRows().map((r) => r.querySelector(".cs-row-t")?.textContent);
    expect(texts).toContain("40.0 s");
    expect(visibleRows().length).toBeLessThan(80);
    expect(container.querySelector(".cs-inspector-count")?.textContent).toBe("50,000 rows");
  });

  it("shows offset, type, source and merged count, and marks transient items live only", () => {
    const { visibleRows } = mount(rowsOf(3), [
      { t: 3, i: 1.5, type: "data-progress", id: null, data: { pct: 10 } },
    ]);
    const cells = visibleRows().map((r) =>
      [...r.querySelectorAll("span")].map((s) => s.textContent).filter((t) => t !== ""),
    );
    expect(cells).toEqual([
      ["0 ms", "text-delta", "AGENT", "×3"],
      ["2 ms", "text-delta", "AGENT"],
      ["3 ms", "data-progress", "live only"],
      ["4 ms", "text-delta", "AGENT", "×3"],
    ]);
  });

  it("filters by family chip and type text", () => {
    const { container } = mount(rowsOf(100));
    const count = () => container.querySelector(".cs-inspector-count")?.textContent;
    const chip = container.querySelector<HTMLElement>(
      '.cs-chip[data-family="tools"]',
    ) as HTMLElement;
    expect(chip.textContent).toBe("tools 10");
    chip.click();
    expect(count()).toBe("10 of 100 rows");
    expect(chip.getAttribute("aria-pressed")).toBe("true");
    chip.click();
    const box = container.querySelector<HTMLInputElement>(".cs-inspector-type") as HTMLInputElement;
    box.value = "-tool";
    box.dispatchEvent(new Event("input"));
    expect(count()).toBe("90 of 100 rows");
  });

  it("shows the clicked row's JSON and selects the part it fed", () => {
    const { container, ctx, visibleRows } = mount(rowsOf(20));
    (visibleRows()[9] as HTMLElement).click();
    expect(ctx.selection.get()).toBe("p1");
    const detail = container.querySelector(".cs-inspector-detail") as HTMLElement;
    expect(detail.textContent).toContain("tool-call");
    expect(detail.querySelector(".cs-json")?.textContent).toContain('"chunk 9"');
    expect(visibleRows()[9]?.classList.contains("cs-selected")).toBe(true);
    // Rows of the selected part are highlighted.
    expect(visibleRows()[19]?.classList.contains("cs-linked")).toBe(true);
  });

  it("shows only the rows that had arrived at the scrub time", () => {
    const { container, ctx } = mount(rowsOf(100));
    ctx.scrubTime.set(19);
    expect(container.querySelector(".cs-inspector-count")?.textContent).toBe("10 of 100 rows");
    ctx.scrubTime.set(null);
    expect(container.querySelector(".cs-inspector-count")?.textContent).toBe("100 rows");
  });

  it("takes in rows streamed after mounting", async () => {
    const { container, store } = mount(rowsOf(5));
    store.dispatch({ kind: "batch", seq: 1, ops: [{ op: "rows", rows: rowsOf(8).slice(5) }] });
    await new Promise((resolve) => requestAnimationFrame(() => resolve(null)));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(container.querySelector(".cs-inspector-count")?.textContent).toBe("8 rows");
  });
});
