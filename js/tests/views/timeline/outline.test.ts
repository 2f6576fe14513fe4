// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import { layoutTimeline } from "../../../src/views/timeline/layout";
import {
  createOutline,
  describeItem,
  OUTLINE_ITEMS_PER_LANE,
} from "../../../src/views/timeline/outline";
import { runInfo, step, tool } from "./builders";
import backgroundFailure from "./fixtures/background-task-failure";
import parallelTools from "./fixtures/parallel-tool-calls";
import tripwireOutput from "./fixtures/tripwire-output";

function lanesOf(el: HTMLElement) {
  return Array.from(el.querySelectorAll<HTMLElement>(".cs-outline-lane")).map((lane) => ({
    label: lane.querySelector(".cs-outline-lane-label")?.textContent,
    rows: lane.dataset.rows,
    count: lane.dataset.count,
    items: Array.from(lane.querySelectorAll<HTMLElement>(".cs-outline-item")).map(
      (i) => i.textContent,
    ),
  }));
}

describe("timeline outline", () => {
  it("lists lanes, stacked rows and each item's state in words", () => {
    const outline = createOutline(document, () => {});
    outline.update(layoutTimeline(parallelTools));
    const lanes = lanesOf(outline.el);
    expect(lanes.map((l) => [l.label, l.count, l.rows])).toEqual([
      ["Run", "3", "2"],
      ["Text", "1", "1"],
      ["Tools", "3", "3"],
    ]);
    const tools = lanes[2]?.items ?? [];
    expect(tools).toHaveLength(3);
    for (const line of tools)
      expect(line).toMatch(/^get-weather · done · from \d+ ms, took \d+ ms$/);
    const rows = Array.from(
      outline.el.querySelectorAll<HTMLElement>(
        ".cs-outline-lane[data-kind=tools] .cs-outline-item",
      ),
    ).map((i) => i.dataset.row);
    expect(rows).toEqual(["0", "1", "2"]);
    expect(outline.el.querySelector(".cs-outline-lane-count")?.textContent).toBe(
      " (3 items in 2 rows)",
    );
  });

  it("says a background task failed, not only in red", () => {
    const outline = createOutline(document, () => {});
    outline.update(layoutTimeline(backgroundFailure));
    const task = outline.el.querySelector<HTMLElement>(
      ".cs-outline-lane[data-kind=background] .cs-outline-item",
    );
    expect(task?.dataset.color).toBe("failure");
    expect(task?.textContent).toMatch(/^deep-research · failed · /);
  });

  it("lists markers with their hover text, and a button picks the marker's part", () => {
    const picked: string[] = [];
    const outline = createOutline(document, (id) => picked.push(id));
    const layout = layoutTimeline(tripwireOutput);
    outline.update(layout);
    const trip = outline.el.querySelector<HTMLElement>(".cs-outline-marker[data-kind=tripwire]");
    expect(trip?.textContent).toContain("block-forbidden-word");
    trip?.querySelector("button")?.click();
    const marker = layout.markers.find((m) => m.kind === "tripwire");
    expect(picked).toEqual([marker?.partId]);
  });

  it("keeps a long lane short and says how many more it holds", () => {
    const parts = [step("s", 0, 0, 100_000, "stop")];
    for (let i = 0; i < 1000; i++)
      parts.push(
        tool(
          `t${i}`,
          "search",
          [
            [i * 10, "running"],
            [i * 10 + 5, "done"],
          ],
          i * 10 + 5,
        ) as never,
      );
    const outline = createOutline(document, () => {});
    outline.update(layoutTimeline({ run: runInfo({ elapsedMs: 100_000 }), parts }));
    const tools = outline.el.querySelector<HTMLElement>(".cs-outline-lane[data-kind=tools]");
    expect(tools?.dataset.count).toBe("1000");
    expect(tools?.querySelectorAll(".cs-outline-item")).toHaveLength(OUTLINE_ITEMS_PER_LANE);
    expect(tools?.querySelector(".cs-outline-more")?.textContent).toBe(
      `and ${1000 - OUTLINE_ITEMS_PER_LANE} more`,
    );
  });

  it("keeps the focus on the same part's button across updates", () => {
    const outline = createOutline(document, () => {});
    document.body.append(outline.el);
    const layout = layoutTimeline(parallelTools);
    outline.update(layout);
    const second = outline.el.querySelectorAll<HTMLElement>(
      ".cs-outline-lane[data-kind=tools] button",
    )[1];
    second?.focus();
    const id = second?.dataset.partId;
    outline.update(layoutTimeline(parallelTools));
    expect((document.activeElement as HTMLElement | null)?.dataset.partId).toBe(id);
    expect(document.activeElement).not.toBe(second);
    outline.el.remove();
  });

  it("names unlabelled ticks and open bars", () => {
    const layout = layoutTimeline({
      run: runInfo({ elapsedMs: 500, ended: false, status: "running" }),
      parts: [tool("k", "fetch", [[100, "running"]], null)],
    });
    const item = layout.items.find((i) => i.partId === "k");
    expect(item && describeItem(item)).toBe("fetch · running · from 100 ms, open for 400 ms");
  });
});
