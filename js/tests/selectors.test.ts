import { describe, expect, it } from "vitest";
import { type PartNode, statusView, transcriptBlocks } from "../src/selectors";
import { applyDown, emptyState, fromSnapshot } from "../src/store";
import { batch, part, run, snapshot } from "./helpers";

function shape(nodes: PartNode[]): unknown[] {
  return nodes.map((n) => (n.children.length ? { [n.part.id]: shape(n.children) } : n.part.id));
}

describe("transcriptBlocks", () => {
  it("makes one block per step and nests parts under their parent", () => {
    const state = fromSnapshot(
      snapshot([
        part("notice", { id: "n0" }),
        part("step", { id: "s1" }),
        part("text", { id: "t1", step: "s1" }),
        part("tool", { id: "k1", step: "s1" }),
        part("output", { id: "o1", step: "s1", parent: "k1" }),
        part("run", { id: "r1", step: "s1", parent: "k1" }),
        part("text", { id: "rt", parent: "r1" }),
        part("step", { id: "s2" }),
        part("text", { id: "t2", step: "s2" }),
      ]),
    );
    const blocks = transcriptBlocks(state);
    expect(blocks.map((b) => b.key)).toEqual(["loose:n0", "s1", "s2"]);
    expect(shape(blocks[0]?.nodes ?? [])).toEqual(["n0"]);
    expect(shape(blocks[1]?.nodes ?? [])).toEqual(["t1", { k1: ["o1", { r1: ["rt"] }] }]);
    expect(shape(blocks[2]?.nodes ?? [])).toEqual(["t2"]);
    expect(blocks[1]?.step?.id).toBe("s1");
  });

  it("keeps nested steps inside their run, and survives missing or looping parents", () => {
    const state = fromSnapshot(
      snapshot([
        part("step", { id: "s" }),
        part("run", { id: "r", step: "s" }),
        part("step", { id: "rs", parent: "r" }),
        part("text", { id: "rt", step: "rs" }),
        part("text", { id: "orphan", parent: "missing" }),
        part("text", { id: "a", parent: "b" }),
        part("text", { id: "b", parent: "a" }),
      ]),
    );
    const blocks = transcriptBlocks(state);
    expect(shape(blocks[0]?.nodes ?? [])).toEqual([{ r: [{ rs: ["rt"] }] }]);
    expect(shape(blocks[1]?.nodes ?? [])).toEqual(["orphan", "a", "b"]);
  });
});

describe("statusView", () => {
  it("reports reported-token throughput, usage and finish reason", () => {
    const state = fromSnapshot(
      snapshot([], {
        run: run({
          status: "finished",
          ended: true,
          elapsedMs: 2000,
          ttftMs: 1000,
          chunkCount: 42,
          finishReason: "stop",
          usage: { inputTokens: 10, outputTokens: 50, totalTokens: 60, cachedInputTokens: 4 },
        }),
      }),
    );
    const view = statusView(state, Date.now());
    expect(view.tokensPerSecond).toBeCloseTo(50);
    expect(view.tokensEstimated).toBe(false);
    expect(view.usage).toEqual([
      { label: "in", value: 10 },
      { label: "out", value: 50 },
      { label: "total", value: 60 },
      { label: "cached", value: 4 },
    ]);
    expect(view.finishReason).toBe("stop");
    expect(view.chunkCount).toBe(42);
    expect(view.elapsedMs).toBe(2000);
  });

  it("estimates tokens from characters when none are reported, and ticks while running", () => {
    let state = applyDown(
      emptyState(),
      batch(
        1,
        { op: "run", set: { status: "running", elapsedMs: 1000, ttftMs: 0 } },
        { op: "add", part: part("text", { id: "t", text: "x".repeat(400) }) },
      ),
      5000,
    );
    let view = statusView(state, 6000);
    expect(view.elapsedMs).toBe(2000);
    expect(view.tokensEstimated).toBe(true);
    expect(view.tokensPerSecond).toBeCloseTo(50);
    state = applyDown(state, batch(2, { op: "run", set: { ended: true, status: "finished" } }), 7000);
    view = statusView(state, 60_000);
    expect(view.elapsedMs).toBe(1000);
  });

  it("does not tick for a run loaded from saved state", () => {
    const state = fromSnapshot(snapshot([], { run: run({ status: "running", elapsedMs: 1500 }) }));
    expect(statusView(state, Date.now()).elapsedMs).toBe(1500);
  });
});
