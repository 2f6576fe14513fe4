import { describe, expect, it } from "vitest";
import {
  blockBuilder,
  type PartNode,
  statusView,
  transcriptBlocks,
} from "../../src/model/selectors";
import { applyDown, emptyState, fromSnapshot } from "../../src/model/store";
import { batch, part, run, snapshot } from "../helpers";

function shape(nodes: readonly PartNode[]): unknown[] {
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
    state = applyDown(
      state,
      batch(2, { op: "run", set: { ended: true, status: "finished" } }),
      7000,
    );
    view = statusView(state, 60_000);
    expect(view.elapsedMs).toBe(1000);
  });

  it("keeps its token estimate up to date as text grows, parts come and parts are replaced", () => {
    const rate = (s: ReturnType<typeof emptyState>) => statusView(s, 0).tokensPerSecond;
    let state = applyDown(
      emptyState(),
      batch(
        1,
        { op: "run", set: { status: "finished", ended: true, elapsedMs: 1000, ttftMs: 0 } },
        { op: "add", part: part("text", { id: "t", text: "x".repeat(400) }) },
      ),
    );
    expect(rate(state)).toBeCloseTo(100);
    state = applyDown(
      state,
      batch(2, { op: "append", id: "t", field: "text", text: "x".repeat(400), t: 1 }),
    );
    expect(rate(state)).toBeCloseTo(200);
    state = applyDown(
      state,
      batch(
        3,
        { op: "add", part: part("tool", { id: "k" }) },
        { op: "add", part: part("reasoning", { id: "r", text: "y".repeat(800) }) },
      ),
    );
    expect(rate(state)).toBeCloseTo(400);
    state = applyDown(
      state,
      batch(4, { op: "add", part: part("text", { id: "r", text: "z".repeat(4) }) }),
    );
    expect(rate(state)).toBeCloseTo(201);
  });

  it("does not tick for a run loaded from saved state", () => {
    const state = fromSnapshot(snapshot([], { run: run({ status: "running", elapsedMs: 1500 }) }));
    expect(statusView(state, Date.now()).elapsedMs).toBe(1500);
  });
});

describe("blockBuilder", () => {
  const blockShape = (blocks: ReturnType<typeof transcriptBlocks>) =>
    blocks.map((b) => ({ key: b.key, step: b.step?.id ?? null, nodes: shape(b.nodes) }));

  /** A small deterministic generator, so a failure can be replayed. */
  function random(seed: number): () => number {
    let x = seed;
    return () => {
      x = (x * 1103515245 + 12345) % 2147483648;
      return x / 2147483648;
    };
  }

  it("gives what transcriptBlocks gives, frame after frame, whatever the parts name", () => {
    for (let seed = 1; seed <= 40; seed++) {
      const next = random(seed);
      const build = blockBuilder();
      let state = applyDown(emptyState(), batch(1));
      let seq = 1;
      const ids: string[] = [];
      for (let frame = 0; frame < 12; frame++) {
        const ops = [];
        for (let k = Math.floor(next() * 6); k > 0; k--) {
          const id = `p${Math.floor(next() * 40)}`; // sometimes an id again: a replacement
          const pick = () =>
            next() < 0.3
              ? null
              : next() < 0.8 && ids.length
                ? ids[Math.floor(next() * ids.length)]
                : `p${Math.floor(next() * 40)}`;
          const kind = next() < 0.2 ? "step" : next() < 0.5 ? "tool" : "text";
          ops.push({ op: "add" as const, part: part(kind, { id, parent: pick(), step: pick() }) });
          ids.push(id);
        }
        if (next() < 0.15 && ids.length) {
          ops.push({
            op: "set" as const,
            id: ids[0] as string,
            set: { parent: ids[ids.length - 1] },
            t: frame,
          });
        }
        seq += 1;
        state = applyDown(state, batch(seq, ...ops));
        expect(blockShape(build(state)), `seed ${seed}, frame ${frame}`).toEqual(
          blockShape(transcriptBlocks(state)),
        );
      }
    }
  });

  it("extends the blocks it built when parts are only added", () => {
    const build = blockBuilder();
    let state = fromSnapshot(
      snapshot([part("step", { id: "s" }), part("tool", { id: "a", step: "s" })]),
    );
    const first = build(state);
    state = applyDown(state, batch(1, { op: "add", part: part("tool", { id: "b", step: "s" }) }));
    const second = build(state);
    expect(second).toBe(first);
    expect(shape(second[0]?.nodes ?? [])).toEqual(["a", "b"]);
  });
});
