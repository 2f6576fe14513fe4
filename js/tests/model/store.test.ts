import { describe, expect, it } from "vitest";
import {
  adoptSaved,
  applyDown,
  createStore,
  emptyState,
  fromSnapshot,
  type StoreState,
} from "../../src/model/store";
import {
  type ChunkRow,
  type Down,
  type TextPart,
  type ToolCall,
  TRANSIENT_CAP,
} from "../../src/model/wire";
import { batch, part, partIn, row, snapshot, snapshotMsg, transient } from "../helpers";

function applyAll(state: StoreState, ...msgs: Down[]): StoreState {
  let current = state;
  for (const msg of msgs) current = applyDown(current, msg);
  return current;
}

describe("ops", () => {
  it("run merges fields into the run record", () => {
    const state = applyAll(
      emptyState(),
      batch(1, { op: "run", set: { status: "running", chunkCount: 3 } }),
    );
    expect(state.run.status).toBe("running");
    expect(state.run.chunkCount).toBe(3);
    expect(state.run.ended).toBe(false);
  });

  it("add inserts parts in order and replaces by id", () => {
    const a = part("text", { id: "a", text: "one" });
    const b = part("text", { id: "b" });
    let state = applyAll(emptyState(), batch(1, { op: "add", part: a }, { op: "add", part: b }));
    expect(state.parts.map((p) => p.id)).toEqual(["a", "b"]);
    state = applyAll(state, batch(2, { op: "add", part: { ...a, text: "replaced" } }));
    expect(state.parts.map((p) => p.id)).toEqual(["a", "b"]);
    expect((state.byId.get("a") as TextPart).text).toBe("replaced");
    expect(state.parts[0]).toBe(state.byId.get("a"));
  });

  it("append extends text and argsText", () => {
    const text = part("text", { id: "t" });
    const tool = part("tool", { id: "k" });
    const state = applyAll(
      emptyState(),
      batch(1, { op: "add", part: text }, { op: "add", part: tool }),
      batch(
        2,
        { op: "append", id: "t", field: "text", text: "Hel", t: 10 },
        { op: "append", id: "t", field: "text", text: "lo", t: 12 },
        { op: "append", id: "k", field: "argsText", text: '{"q":', t: 13 },
        { op: "append", id: "k", field: "argsText", text: '"x"}', t: 14 },
      ),
    );
    expect((state.byId.get("t") as TextPart).text).toBe("Hello");
    expect((state.byId.get("k") as ToolCall).argsText).toBe('{"q":"x"}');
    expect(text.text).toBe(""); // the op's own object is not written into
  });

  it("append keeps at most one mark per 33 ms", () => {
    let state = applyAll(
      emptyState(),
      batch(1, { op: "add", part: part("reasoning", { id: "r" }) }),
    );
    const times = [0, 10, 20, 32, 33, 40, 70, 110];
    times.forEach((t, k) => {
      state = applyDown(
        state,
        batch(k + 2, { op: "append", id: "r", field: "text", text: "ab", t }),
      );
    });
    // 0..32 fold into the mark at 0, 40 into 33; 70 and 110 start their own.
    expect(partIn(state.byId, "r", "reasoning")?.marks).toEqual([
      [0, 8],
      [33, 12],
      [70, 14],
      [110, 16],
    ]);
  });

  it("set merges fields and records state changes with their time", () => {
    let state = applyAll(emptyState(), batch(1, { op: "add", part: part("tool", { id: "k" }) }));
    state = applyAll(
      state,
      batch(2, { op: "set", id: "k", set: { state: "running", args: { q: "x" } }, t: 50 }),
      batch(3, { op: "set", id: "k", set: { state: "done", result: [1, 2] }, t: 90 }),
      batch(4, { op: "set", id: "k", set: { t1: 95 }, t: 95 }),
    );
    const tool = state.byId.get("k") as ToolCall;
    expect(tool.state).toBe("done");
    expect(tool.args).toEqual({ q: "x" });
    expect(tool.result).toEqual([1, 2]);
    expect(tool.t1).toBe(95);
    expect(tool.states).toEqual([
      [50, "running"],
      [90, "done"],
    ]);
  });

  it("rows append, and a re-sent row with the same index replaces the last one", () => {
    const state = applyAll(
      emptyState(),
      batch(1, { op: "rows", rows: [row(0, { type: "start" }), row(1, { json: "He" })] }),
      batch(2, { op: "rows", rows: [row(1, { n: 3, json: "Hello" })] }),
      batch(3, { op: "rows", rows: [row(4, { type: "finish" })] }),
    );
    expect(state.rows.map((r) => [r.i, r.n, r.json])).toEqual([
      [0, 1, {}],
      [1, 3, "Hello"],
      [4, 1, {}],
    ]);
  });

  it("transient items with an id are reconciled in place, others appended", () => {
    const state = applyAll(
      emptyState(),
      batch(
        1,
        { op: "transient", item: transient(0, "data-progress", "job", { percent: 10 }) },
        { op: "transient", item: transient(1, "data-log", null, "first") },
        { op: "transient", item: transient(2, "data-progress", "job", { percent: 60 }) },
        { op: "transient", item: transient(3, "data-progress", "other", { percent: 5 }) },
        { op: "transient", item: transient(4, "data-log", null, "second") },
      ),
    );
    expect(state.transient.map((item) => [item.type, item.id, item.data])).toEqual([
      ["data-progress", "job", { percent: 60 }],
      ["data-log", null, "first"],
      ["data-progress", "other", { percent: 5 }],
      ["data-log", null, "second"],
    ]);
  });

  it("keeps only the last TRANSIENT_CAP transient items", () => {
    const ops = Array.from({ length: TRANSIENT_CAP + 50 }, (_, k) => ({
      op: "transient" as const,
      item: transient(k, "data-tick", null, k),
    }));
    const state = applyAll(emptyState(), batch(1, ...ops));
    expect(state.transient).toHaveLength(TRANSIENT_CAP);
    expect(state.transient[0]?.data).toBe(50);
    expect(state.transient.at(-1)?.data).toBe(TRANSIENT_CAP + 49);
  });
});

describe("sequence and snapshots", () => {
  it("before the first snapshot message a gap is expected: ignored, no resync, no problem", () => {
    let state = applyDown(emptyState(), batch(7, { op: "add", part: part("text", { id: "t" }) }));
    expect(state.needsResync).toBe(false);
    expect(state.problems).toEqual([]);
    expect(state.byId.has("t")).toBe(false);
    state = applyDown(
      state,
      snapshotMsg(snapshot([part("text", { id: "t", text: "all" })], { seq: 8 })),
    );
    state = applyDown(state, batch(9, { op: "append", id: "t", field: "text", text: "!", t: 1 }));
    expect((state.byId.get("t") as TextPart).text).toBe("all!");
  });

  it("a gap in seq asks for a resync and ignores batches until a snapshot", () => {
    let state = applyDown(emptyState(), snapshotMsg(snapshot([], { seq: 0 })));
    state = applyAll(state, batch(1, { op: "add", part: part("text", { id: "t" }) }));
    state = applyDown(
      state,
      batch(3, { op: "append", id: "t", field: "text", text: "lost", t: 1 }),
    );
    expect(state.needsResync).toBe(true);
    expect(state.seq).toBe(1);
    state = applyDown(
      state,
      batch(4, { op: "append", id: "t", field: "text", text: "also", t: 2 }),
    );
    expect((state.byId.get("t") as TextPart).text).toBe("");
    const restored = part("text", { id: "t", text: "from snapshot" });
    state = applyDown(state, snapshotMsg(snapshot([restored], { seq: 4 })));
    expect(state.needsResync).toBe(false);
    state = applyDown(state, batch(5, { op: "append", id: "t", field: "text", text: "!", t: 3 }));
    expect((state.byId.get("t") as TextPart).text).toBe("from snapshot!");
  });

  it("batches already folded into the snapshot are skipped without a resync", () => {
    let state = applyDown(
      emptyState(),
      snapshotMsg(snapshot([part("text", { id: "t", text: "ab" })], { seq: 7 })),
    );
    state = applyDown(state, batch(6, { op: "append", id: "t", field: "text", text: "X", t: 1 }));
    expect((state.byId.get("t") as TextPart).text).toBe("ab");
    expect(state.needsResync).toBe(false);
  });

  it("a snapshot restores run, parts, rows and transient items, and is copied", () => {
    const saved = snapshot(
      [
        part("step", { id: "s" }),
        part("text", { id: "t", step: "s", text: "hi", marks: [[5, 2]] }),
      ],
      {
        seq: 12,
        rows: [row(0)],
      },
    );
    const state = applyDown(
      applyDown(emptyState(), batch(1, { op: "add", part: part("text", { id: "old" }) })),
      snapshotMsg(saved, [transient(0, "data-x", null, 1)]),
    );
    expect(state.seq).toBe(12);
    expect(state.snapshotSeen).toBe(true);
    expect(state.parts.map((p) => p.id)).toEqual(["s", "t"]);
    expect(state.byId.has("old")).toBe(false);
    expect(state.rows).toHaveLength(1);
    expect(state.transient).toHaveLength(1);
    applyDown(state, batch(13, { op: "append", id: "t", field: "text", text: "!", t: 100 }));
    expect((saved.parts[1] as TextPart).text).toBe("hi");
    expect((saved.parts[1] as TextPart).marks).toEqual([[5, 2]]);
  });

  it("an op naming an unknown part is reported and triggers a resync", () => {
    const state = applyAll(
      emptyState(),
      batch(1, { op: "append", id: "nope", field: "text", text: "x", t: 0 }),
    );
    expect(state.needsResync).toBe(true);
    expect(state.problems.join("\n")).toContain('"nope"');
  });

  it("malformed messages are reported, not thrown", () => {
    let state = applyDown(emptyState(), null as unknown as Down);
    state = applyDown(state, { kind: "bogus" } as unknown as Down);
    state = applyDown(
      state,
      batch(1, { op: "explode" } as never, { op: "add", part: { kind: "text" } } as never),
    );
    expect(state.problems).toHaveLength(4);
    expect(state.problems[1]).toContain("bogus");
    expect(state.seq).toBe(1);
    const broken = fromSnapshot({ nonsense: true } as never);
    expect(broken.parts).toEqual([]);
    expect(broken.problems[0]).toContain("snapshot");
  });

  it("adoptSaved takes a newer saved snapshot and keeps transient items", () => {
    const state = applyAll(
      emptyState(),
      batch(1, { op: "transient", item: transient(0, "data-x", null, 1) }),
    );
    expect(adoptSaved(state, snapshot([], { seq: 1 }))).toBe(state);
    const next = adoptSaved(
      state,
      snapshot([part("text", { id: "t", text: "saved" })], { seq: 5 }),
    );
    expect(next.seq).toBe(5);
    expect(next.transient).toHaveLength(1);
    expect((next.byId.get("t") as TextPart).text).toBe("saved");
  });
});

describe("a saved run of seq 0", () => {
  it("is taken by a store that holds nothing yet, and by no other", () => {
    const saved = snapshot([part("text", { id: "t", text: "run headless" })], { seq: 0 });
    const blank = emptyState();
    expect((adoptSaved(blank, saved).byId.get("t") as TextPart).text).toBe("run headless");
    const live = applyAll(emptyState(), snapshotMsg(snapshot([], { seq: 0 })));
    expect(adoptSaved(live, saved)).toBe(live);
  });
});

describe("revisions", () => {
  it("only the parts an op touched get the new revision", () => {
    let state = applyAll(
      emptyState(),
      batch(
        1,
        { op: "add", part: part("text", { id: "a" }) },
        { op: "add", part: part("text", { id: "b" }) },
      ),
    );
    const revB = state.partRev.get("b");
    state = applyDown(state, batch(2, { op: "append", id: "a", field: "text", text: "x", t: 0 }));
    expect(state.partRev.get("a")).toBe(state.version);
    expect(state.partRev.get("b")).toBe(revB);
  });

  it("applying 100k appends stays linear (well under a second)", () => {
    let state = applyAll(emptyState(), batch(1, { op: "add", part: part("text", { id: "t" }) }));
    const started = performance.now();
    let seq = 2;
    for (let k = 0; k < 1000; k++) {
      const ops = Array.from({ length: 100 }, (_, j) => ({
        op: "append" as const,
        id: "t",
        field: "text" as const,
        text: "tok ",
        t: k * 16 + j * 0.1,
      }));
      state = applyDown(state, batch(seq++, ...ops));
    }
    expect((state.byId.get("t") as TextPart).text.length).toBe(400_000);
    expect(performance.now() - started).toBeLessThan(1000);
    expect((state.byId.get("t") as TextPart).marks.length).toBeLessThanOrEqual(
      Math.ceil((1000 * 16) / 33) + 1,
    );
  });
});

describe("createStore", () => {
  it("notifies once per applied message and not for ignored ones", () => {
    const store = createStore();
    const seen: number[] = [];
    const stop = store.subscribe((state) => seen.push(state.seq));
    store.dispatch(batch(1, { op: "run", set: { status: "running" } }));
    store.dispatch(batch(1, { op: "run", set: { status: "running" } })); // duplicate
    store.dispatch(snapshotMsg(snapshot([], { seq: 9 })));
    stop();
    store.dispatch(batch(10));
    expect(seen).toEqual([1, 9]);
    expect(store.get().seq).toBe(10);
  });
});

describe("transient items across snapshots", () => {
  it("a snapshot message keeps the items this page already showed", () => {
    let state = applyDown(emptyState(), snapshotMsg(snapshot([], { seq: 0 })));
    state = applyDown(
      state,
      batch(1, { op: "transient", item: transient(0, "data-progress", "p", 50) }),
    );
    state = applyDown(state, snapshotMsg(snapshot([], { seq: 1 }), []));
    expect(state.transient.map((t) => t.data)).toEqual([50]);
  });

  it("rows asked from the kernel arrive in pieces and replace the list once complete", () => {
    const live = snapshot([part("text", { id: "t" })], { seq: 2 });
    delete live.rows;
    let state = applyAll(emptyState(), snapshotMsg(live));
    expect(state.rowsLoaded).toBe(false);
    const piece = (offset: number, rows: ChunkRow[], seq = 2): Down => ({
      kind: "rows",
      seq,
      offset,
      total: 3,
      rows,
    });
    state = applyAll(state, piece(0, [row(0), row(1)]));
    expect(state.rowsLoaded).toBe(false);
    expect(state.rows).toEqual([]);
    const before = state.version;
    state = applyAll(state, piece(2, [row(2)]));
    expect(state.rowsLoaded).toBe(true);
    expect(state.rows.map((r) => r.i)).toEqual([0, 1, 2]);
    expect(state.rowsRev).toBeGreaterThan(before);
    // Rows in later batches extend the list as before.
    state = applyAll(state, batch(3, { op: "rows", rows: [row(3)] }));
    expect(state.rows.map((r) => r.i)).toEqual([0, 1, 2, 3]);
    expect(state.problems).toEqual([]);
  });

  it("rows for another batch, or a missing piece, ask for a snapshot instead", () => {
    const live = snapshot([], { seq: 2 });
    delete live.rows;
    const stale = applyAll(emptyState(), snapshotMsg(live), {
      kind: "rows",
      seq: 1,
      offset: 0,
      total: 1,
      rows: [row(0)],
    });
    expect(stale.needsResync).toBe(true);
    expect(stale.rowsLoaded).toBe(false);
    expect(stale.problems.at(-1)).toContain("chunk rows for batch 1");
    const gap = applyAll(emptyState(), snapshotMsg(live), {
      kind: "rows",
      seq: 2,
      offset: 5,
      total: 9,
      rows: [row(5)],
    });
    expect(gap.needsResync).toBe(true);
    expect(gap.problems.at(-1)).toContain("chunk rows from 5");
    // Before any snapshot, rows are for a state this page will get whole: ignored quietly.
    const early = applyAll(emptyState(), {
      kind: "rows",
      seq: 7,
      offset: 0,
      total: 1,
      rows: [row(0)],
    });
    expect(early.needsResync).toBe(false);
    expect(early.problems).toEqual([]);
  });

  it("a saved run's rows are loaded, and dropped when a live kernel is not sending rows", () => {
    expect(fromSnapshot(snapshot([], { rows: [row(0)] })).rowsLoaded).toBe(true);
    const live = snapshot([], { seq: 1 });
    delete live.rows;
    const state = applyAll(emptyState(), snapshotMsg(live));
    const adopted = adoptSaved(state, snapshot([], { seq: 5, rows: [row(0)] }));
    expect(adopted.seq).toBe(5);
    expect(adopted.rowsLoaded).toBe(false);
    expect(adopted.rows).toEqual([]);
  });
});
