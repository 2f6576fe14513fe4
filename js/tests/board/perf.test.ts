// @vitest-environment jsdom
import { afterEach, describe, expect, it } from "vitest";
import { createBoardSource } from "../../src/board/source";
import { type BoardHandle, mountBoard } from "../../src/board/view";
import type { BoardRowPatch } from "../../src/model/wire";
import { schedule } from "../../src/views/frame";
import { changesMsg, fullMsg, manyRows } from "./builders";

let view: BoardHandle | null = null;
afterEach(() => {
  view?.unmount();
  document.body.replaceChildren();
});

/** The frames drawing what is pending (the margin after rows in sight) are done. */
async function settle(): Promise<void> {
  for (let k = 0; k < 3; k++) await new Promise<void>((resolve) => schedule(resolve));
}

/** How long the next frame's drawing took, after `act` scheduled it (ms). */
async function timeDraw(act: () => void): Promise<number> {
  await settle();
  let started = 0;
  let ended = 0;
  schedule(() => {
    started = performance.now();
  });
  act();
  await new Promise<void>((resolve) =>
    schedule(() => {
      ended = performance.now();
      resolve();
    }),
  );
  return ended - started;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1] ?? 0;
const ms = (value: number) => `${value.toFixed(1)} ms`;

describe("a board of 2,000 runs", () => {
  // jsdom's DOM is about ten times slower than a browser's, and this machine's cores are
  // shared: the bounds below catch a table that draws every row (which takes seconds here),
  // not the 50 ms a browser must stay within; the log says what a run measured.
  it("applies and draws 100 changed rows, sorts and filters without drawing every row", async () => {
    const source = createBoardSource({ send: () => {}, saved: null, title: "perf" });
    source.receive(fullMsg(1, manyRows(2000)));
    const el = document.createElement("div");
    document.body.append(el);
    let started = performance.now();
    view = mountBoard(el, source);
    const mount = performance.now() - started;

    const applied: number[] = [];
    const drawn: number[] = [];
    for (let seq = 2; seq < 22; seq++) {
      // 100 rows change at once, as when 100 runs stream together (20 messages a second).
      const changes: BoardRowPatch[] = Array.from({ length: 100 }, (_, k) => ({
        id: `r${k * 20 + (seq % 20)}`,
        steps: seq,
        outputTokens: seq * 10 + k,
        tail: `text after message ${seq} of row ${k}`,
        elapsedMs: seq * 50 + k,
      }));
      drawn.push(
        await timeDraw(() => {
          started = performance.now();
          source.receive(changesMsg(seq, changes, [], seq * 50));
          applied.push(performance.now() - started);
        }),
      );
    }
    const headings = [...el.querySelectorAll<HTMLButtonElement>(".cs-bsort")];
    const sorts: number[] = [];
    for (const heading of ["Elapsed", "Run", "Status", "Total", "Text", "Elapsed"]) {
      const button = headings.find((b) => b.textContent === heading) as HTMLButtonElement;
      sorts.push(await timeDraw(() => button.click()));
    }
    const input = el.querySelector(".cs-board-filter") as HTMLInputElement;
    const filters: number[] = [];
    for (const text of ["a", "an", "answer 1", "answer 19", "", "number"]) {
      filters.push(
        await timeDraw(() => {
          input.value = text;
          input.dispatchEvent(new Event("input"));
        }),
      );
    }
    console.log(
      `2,000 rows in jsdom (median / worst): mount ${ms(mount)}; 100-row message applied ` +
        `${ms(median(applied))} / ${ms(Math.max(...applied))}, drawn ${ms(median(drawn))} / ` +
        `${ms(Math.max(...drawn))}; sort ${ms(median(sorts))} / ${ms(Math.max(...sorts))}; ` +
        `filter ${ms(median(filters))} / ${ms(Math.max(...filters))}`,
    );
    // Medians: a machine shared with other work adds its pauses to single samples.
    expect(median(applied) + median(drawn)).toBeLessThan(50);
    expect(median(sorts)).toBeLessThan(150);
    expect(median(filters)).toBeLessThan(150);
  });
});
