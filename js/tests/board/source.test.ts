import { describe, expect, it } from "vitest";
import { createBoardSource } from "../../src/board/source";
import { pack } from "../../src/model/persisted";
import { type BoardUp, PACKED_ENCODING } from "../../src/model/wire";
import { batch, part, snapshot, snapshotMsg } from "../helpers";
import { boardRow, changesMsg, fullMsg, savedBoard } from "./builders";

function live() {
  const sent: BoardUp[] = [];
  const source = createBoardSource({ send: (up) => sent.push(up), saved: null, title: "t" });
  return { sent, source };
}

describe("a board's source", () => {
  it("counts as live once the kernel sent every row", () => {
    const { source } = live();
    expect(source.get().live).toBe(false);
    source.receive(fullMsg(1, [boardRow("a")]));
    expect(source.get().live).toBe(true);
  });

  it("asks for every row once while no full answer has come", () => {
    const { sent, source } = live();
    source.ready();
    source.ready();
    expect(sent).toEqual([{ kind: "ready" }]);
    source.receive(fullMsg(1, [boardRow("a")]));
    source.ready(); // a later ask (another view) is sent
    expect(sent).toEqual([{ kind: "ready" }, { kind: "ready" }]);
  });

  it("counts as live from the board's first row message on, without a full answer", () => {
    const { sent, source } = live();
    source.receive(changesMsg(1, [], [boardRow("a")]));
    expect(source.get().live).toBe(true);
    expect(source.get().table.followed).toBe(true);
    expect(sent).toEqual([]);
  });

  it("asks for every row again once when a row message was missed", () => {
    const { sent, source } = live();
    source.receive(fullMsg(1, [boardRow("a")]));
    source.receive(changesMsg(3, [{ id: "a", steps: 3 }]));
    source.receive(changesMsg(4, [{ id: "a", steps: 4 }]));
    expect(sent).toEqual([{ kind: "ready" }]);
    source.receive(fullMsg(5, [boardRow("a", { steps: 4 })]));
    source.receive(changesMsg(7, [{ id: "a", steps: 7 }]));
    expect(sent).toEqual([{ kind: "ready" }, { kind: "ready" }]);
  });

  it("opens a run from the kernel with its run messages wrapped", () => {
    const { sent, source } = live();
    source.receive(fullMsg(1, [boardRow("a")]));
    source.open("a");
    const opened = source.get().opened;
    expect(opened?.from).toBe("kernel");
    const run = snapshot([], { seq: 2 });
    delete run.rows; // a live kernel sends rows only once asked
    source.receive({ kind: "run", id: "a", message: snapshotMsg(run) });
    opened?.feed.wantRows();
    expect(sent.at(-1)).toEqual({ kind: "run", id: "a", message: { kind: "rows" } });
    source.open("a");
    expect(sent.filter((up) => up.kind === "open")).toHaveLength(1);
  });

  it("applies a round's messages in order: the opened run's batch and the rows", () => {
    const { source } = live();
    source.receive(fullMsg(1, [boardRow("a"), boardRow("b")]));
    source.open("a");
    source.receive({
      kind: "run",
      id: "a",
      message: snapshotMsg(snapshot([part("text", { id: "t", text: "Hel" })], { seq: 1 })),
    });
    let heard = 0;
    source.subscribe(() => {
      heard += 1;
    });
    source.receive({
      kind: "round",
      messages: [
        {
          kind: "run",
          id: "a",
          message: batch(2, { op: "append", id: "t", field: "text", text: "lo", t: 3 }),
        },
        changesMsg(2, [{ id: "b", steps: 2 }]),
        changesMsg(3, [{ id: "b", steps: 3 }]),
      ],
    });
    expect(source.get().opened?.feed.store.get().byId.get("t")).toMatchObject({ text: "Hello" });
    expect(source.get().table.byId.get("b")?.steps).toBe(3);
    expect(heard).toBeGreaterThan(0);
    // A round of something else, or no list, changes nothing.
    source.receive({ kind: "round", messages: "rows" });
    source.receive({ kind: "round", messages: [null, 7, { kind: "unknown" }] });
    expect(source.get().table.byId.get("b")?.steps).toBe(3);
  });

  it("decodes a packed kept run when no kernel is there", async () => {
    const run = snapshot([part("text", { id: "t", text: "packed answer" })], { seq: 8 });
    const data = await pack(JSON.stringify(run));
    const saved = savedBoard([boardRow("a")], {
      runs: { a: { v: 1, seq: 8, encoding: PACKED_ENCODING, data } },
    });
    const source = createBoardSource({ send: null, saved, title: "t" });
    source.open("a");
    const opened = source.get().opened;
    expect(opened?.from).toBe("saved");
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(opened?.feed.store.get().byId.get("t")).toMatchObject({ text: "packed answer" });
  });

  it("decodes a kept run that was never opened live (its snapshot's seq is 0)", async () => {
    // A run nobody opened while it streamed sent no batch: its saved snapshot says seq 0.
    const run = snapshot([part("text", { id: "t", text: "never opened" })], { seq: 0 });
    const data = await pack(JSON.stringify(run));
    const saved = savedBoard([boardRow("a")], {
      runs: { a: { v: 1, seq: 0, encoding: PACKED_ENCODING, data } },
    });
    const source = createBoardSource({ send: null, saved, title: "t" });
    source.open("a");
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(source.get().opened?.feed.store.get().byId.get("t")).toMatchObject({
      text: "never opened",
    });
  });

  it("shows a run that was not kept once a kernel sends it after all", () => {
    const sent: BoardUp[] = [];
    const source = createBoardSource({
      send: (up) => sent.push(up),
      saved: savedBoard([boardRow("a")]),
      title: "t",
    });
    source.open("a");
    expect(source.get().opened?.from).toBe("summary");
    expect(sent).toEqual([{ kind: "open", id: "a" }]);
    source.receive({ kind: "run", id: "a", message: snapshotMsg(snapshot([], { seq: 1 })) });
    expect(source.get().opened?.from).toBe("kernel");
  });

  it("takes only the answer to the comparison it asked for", () => {
    const { source } = live();
    source.receive(fullMsg(1, [boardRow("a"), boardRow("b"), boardRow("c")]));
    source.compare("a", "b");
    source.receive({ kind: "compare", a: "a", b: "c", html: "<p>old</p>", error: null });
    expect(source.get().comparison).toMatchObject({ state: "waiting" });
    source.receive({ kind: "compare", a: "a", b: "b", html: "<p>new</p>", error: null });
    expect(source.get().comparison).toMatchObject({ state: "answered", html: "<p>new</p>" });
  });

  it("takes a newer saved board written by the kernel", () => {
    const { source } = live();
    source.receive(fullMsg(2, [boardRow("a")]));
    source.adoptSaved(savedBoard([boardRow("a"), boardRow("b")], { seq: 3, keepLimit: 5 }));
    expect(source.get().table.ids).toEqual(["a", "b"]);
    expect(source.get().saved?.keepLimit).toBe(5);
  });
});
