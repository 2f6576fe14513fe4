import { describe, expect, it } from "vitest";
import { adoptSavedRows, applyRowsMessage, emptyTable, tableFromSaved } from "../../src/board/rows";
import { boardRow, changesMsg, fullMsg, savedBoard } from "./builders";

const labels = (table: ReturnType<typeof emptyTable>) =>
  table.ids.map((id) => table.byId.get(id)?.label);

describe("the board's rows", () => {
  it("starts from the saved board", () => {
    const table = tableFromSaved(savedBoard([boardRow("a"), boardRow("b")], { seq: 4 }));
    expect(labels(table)).toEqual(["a", "b"]);
    expect(table.seq).toBe(4);
    expect(table.receivedAt).toBeNull();
  });

  it("replaces every row on a full message and keeps the kernel's time", () => {
    const table = tableFromSaved(savedBoard([boardRow("old")]));
    expect(applyRowsMessage(table, fullMsg(2, [boardRow("a"), boardRow("b")], 5000), 77)).toBe(
      "changed",
    );
    expect(labels(table)).toEqual(["a", "b"]);
    expect(table.elapsedMs).toBe(5000);
    expect(table.receivedAt).toBe(77);
  });

  it("adds new rows and merges changed fields, making a new object of a changed row only", () => {
    const table = emptyTable();
    applyRowsMessage(table, fullMsg(1, [boardRow("a"), boardRow("b")]));
    const b = table.byId.get("b");
    applyRowsMessage(
      table,
      changesMsg(2, [{ id: "a", status: "running", steps: 3 }], [boardRow("c")]),
    );
    expect(labels(table)).toEqual(["a", "b", "c"]);
    expect(table.byId.get("a")).toMatchObject({ status: "running", steps: 3, label: "a" });
    expect(table.byId.get("b")).toBe(b);
  });

  it("applies messages in seq order: an old one is ignored", () => {
    const table = emptyTable();
    applyRowsMessage(table, fullMsg(3, [boardRow("a")]));
    expect(applyRowsMessage(table, changesMsg(3, [{ id: "a", steps: 9 }]))).toBe("ignored");
    expect(applyRowsMessage(table, fullMsg(2, [boardRow("z")]))).toBe("ignored");
    expect(labels(table)).toEqual(["a"]);
    expect(table.byId.get("a")?.steps).toBe(1);
  });

  it("calls a skipped message a gap and ignores changes until every row comes again", () => {
    const table = emptyTable();
    applyRowsMessage(table, fullMsg(1, [boardRow("a")]));
    expect(applyRowsMessage(table, changesMsg(3, [{ id: "a", steps: 5 }]))).toBe("gap");
    expect(table.needsFull).toBe(true);
    expect(applyRowsMessage(table, changesMsg(4, [{ id: "a", steps: 6 }]))).toBe("ignored");
    expect(table.byId.get("a")?.steps).toBe(1);
    applyRowsMessage(table, fullMsg(5, [boardRow("a", { steps: 6 })]));
    expect(table.needsFull).toBe(false);
    expect(applyRowsMessage(table, changesMsg(6, [{ id: "a", steps: 7 }]))).toBe("changed");
    expect(table.byId.get("a")?.steps).toBe(7);
  });

  it("says a table that never followed the kernel missed messages, and waits for a full one", () => {
    const table = tableFromSaved(savedBoard([boardRow("a")], { seq: 1 }));
    expect(applyRowsMessage(table, changesMsg(5, [{ id: "a", steps: 5 }]))).toBe("missed");
    expect(table.needsFull).toBe(false);
    expect(table.byId.get("a")?.steps).not.toBe(5);
    // Changes that follow the saved state directly apply to it.
    expect(applyRowsMessage(table, changesMsg(2, [{ id: "a", steps: 2 }]))).toBe("changed");
    expect(table.byId.get("a")?.steps).toBe(2);
  });

  it("takes a newer saved board and leaves an older one", () => {
    const table = emptyTable();
    applyRowsMessage(table, fullMsg(5, [boardRow("a")]));
    expect(adoptSavedRows(table, savedBoard([boardRow("x")], { seq: 4 }))).toBe(false);
    expect(adoptSavedRows(table, savedBoard([boardRow("x")], { seq: 6 }))).toBe(true);
    expect(labels(table)).toEqual(["x"]);
  });

  it("skips rows without an id", () => {
    const table = emptyTable();
    const bad = { label: "no id" } as unknown as ReturnType<typeof boardRow>;
    applyRowsMessage(table, fullMsg(1, [bad, boardRow("a")]));
    expect(labels(table)).toEqual(["a"]);
  });
});
