import { describe, expect, it } from "vitest";
import {
  arrange,
  countByStatus,
  type Filter,
  NO_FILTER,
  STATUS_ORDER,
  toggleSort,
} from "../../src/board/order";
import { applyRowsMessage, emptyTable } from "../../src/board/rows";
import type { BoardRow, BoardStatus } from "../../src/model/wire";
import { boardRow, fullMsg, manyRows } from "./builders";

function tableOf(rows: BoardRow[]) {
  const table = emptyTable();
  applyRowsMessage(table, fullMsg(1, rows));
  return table;
}

const labelsOf = (table: ReturnType<typeof tableOf>, ids: string[]) =>
  ids.map((id) => table.byId.get(id)?.label);

const filter = (text: string, statuses: BoardStatus[] = []): Filter => ({
  text,
  statuses: new Set(statuses),
});

describe("sorting the board", () => {
  const table = tableOf([
    boardRow("a", { label: "q10", elapsedMs: 300, totalTokens: null, finishReason: "stop" }),
    boardRow("b", { label: "q2", elapsedMs: 1200, totalTokens: 50, finishReason: null }),
    boardRow("c", { label: "q1", elapsedMs: 300, totalTokens: 900, finishReason: "length" }),
    boardRow("d", { label: "Q3", elapsedMs: null, totalTokens: 7, finishReason: "error" }),
  ]);

  it("keeps the board's order until a column is chosen", () => {
    expect(labelsOf(table, arrange(table, null))).toEqual(["q10", "q2", "q1", "Q3"]);
  });

  it("sorts figures as numbers, ties by label, missing values last both ways", () => {
    expect(labelsOf(table, arrange(table, { key: "elapsedMs", dir: "asc" }))).toEqual([
      "q1",
      "q10",
      "q2",
      "Q3",
    ]);
    expect(labelsOf(table, arrange(table, { key: "elapsedMs", dir: "desc" }))).toEqual([
      "q2",
      "q1",
      "q10",
      "Q3",
    ]);
    expect(labelsOf(table, arrange(table, { key: "totalTokens", dir: "desc" }))).toEqual([
      "q1",
      "q2",
      "Q3",
      "q10",
    ]);
  });

  it("sorts labels as people read them, case aside", () => {
    expect(labelsOf(table, arrange(table, { key: "label", dir: "asc" }))).toEqual([
      "q1",
      "q2",
      "Q3",
      "q10",
    ]);
  });

  it("sorts texts with the runs that have none last", () => {
    expect(labelsOf(table, arrange(table, { key: "finishReason", dir: "asc" }))).toEqual([
      "Q3",
      "q1",
      "q10",
      "q2",
    ]);
  });

  it("sorts statuses from runs going on to finished ones", () => {
    const statuses = tableOf(
      (["finished", "queued", "error", "running"] as const).map((status) =>
        boardRow(status, { status }),
      ),
    );
    const ids = arrange(statuses, { key: "status", dir: "asc" });
    expect(ids).toEqual(["running", "queued", "error", "finished"]);
    expect(STATUS_ORDER[0]).toBe("running");
    expect(arrange(statuses, { key: "status", dir: "desc" })).toEqual([
      "finished",
      "error",
      "queued",
      "running",
    ]);
  });

  it("toggles the direction of the current column and starts a new one ascending", () => {
    const first = toggleSort(null, "steps");
    expect(first).toEqual({ key: "steps", dir: "asc" });
    expect(toggleSort(first, "steps")).toEqual({ key: "steps", dir: "desc" });
    expect(toggleSort({ key: "steps", dir: "desc" }, "label")).toEqual({
      key: "label",
      dir: "asc",
    });
  });

  it("is stable: equal rows keep the board's order", () => {
    const same = tableOf([boardRow("x", { label: "same" }), boardRow("y", { label: "same" })]);
    expect(arrange(same, { key: "steps", dir: "desc" })).toEqual(["x", "y"]);
  });
});

describe("filtering the board", () => {
  const table = tableOf([
    boardRow("a", { label: "weather", tail: "It is Sunny today", status: "finished" }),
    boardRow("b", { label: "stocks", error: "Rate LIMIT reached", status: "error" }),
    boardRow("c", { label: "guard", tripwire: "PII found", status: "tripwire" }),
    boardRow("d", { label: "long", finishReason: "length", status: "running" }),
  ]);

  it("finds text in the label, the text, the error, the tripwire and the finish reason", () => {
    expect(arrange(table, null, filter("sunny"))).toEqual(["a"]);
    expect(arrange(table, null, filter("rate limit"))).toEqual(["b"]);
    expect(arrange(table, null, filter("pii"))).toEqual(["c"]);
    expect(arrange(table, null, filter("LENGTH"))).toEqual(["d"]);
    expect(arrange(table, null, filter("stocks"))).toEqual(["b"]);
    expect(arrange(table, null, filter("   "))).toEqual(["a", "b", "c", "d"]);
  });

  it("keeps the statuses chosen, with the text filter on top", () => {
    expect(arrange(table, null, filter("", ["error", "tripwire"]))).toEqual(["b", "c"]);
    expect(arrange(table, null, filter("guard", ["error", "tripwire"]))).toEqual(["c"]);
    expect(arrange(table, null, NO_FILTER)).toHaveLength(4);
  });

  it("searches a changed row's new text", () => {
    const live = tableOf([boardRow("a", { tail: "old" })]);
    expect(arrange(live, null, filter("new"))).toEqual([]);
    applyRowsMessage(live, { ...fullMsg(2, []), full: false, changes: [{ id: "a", tail: "new" }] });
    expect(arrange(live, null, filter("new"))).toEqual(["a"]);
  });
});

describe("counting by status", () => {
  it("counts each status in the header's order, leaving out those no row has", () => {
    const counts = countByStatus(manyRows(10).map((row) => row));
    expect([...counts]).toEqual([
      ["running", 2],
      ["queued", 2],
      ["error", 2],
      ["tripwire", 2],
      ["finished", 2],
    ]);
  });
});

describe("2,000 rows", () => {
  it("sort and filter in well under a frame's budget of main-thread time", () => {
    const table = tableOf(manyRows(2000));
    arrange(table, { key: "label", dir: "asc" }); // warm up
    let worst = 0;
    for (const key of ["label", "elapsedMs", "status", "tail", "totalTokens"] as const) {
      const started = performance.now();
      const ids = arrange(table, { key, dir: "desc" }, filter("number 1"));
      worst = Math.max(worst, performance.now() - started);
      expect(ids.length).toBeGreaterThan(100);
    }
    expect(worst).toBeLessThan(50);
  });
});
