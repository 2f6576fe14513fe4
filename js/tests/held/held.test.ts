import { describe, expect, it } from "vitest";
import { HeldFetcher } from "../../src/held/fetcher";
import {
  type Assembly,
  addPiece,
  assembledText,
  heldEntry,
  heldWithout,
  type LoadStatus,
  loadingLabel,
} from "../../src/held/values";
import { createStore, fromSnapshot } from "../../src/model/store";
import type { HeldAnswer, Up } from "../../src/model/wire";
import { part, partIn, snapshot } from "../helpers";

const answer = (fields: Partial<HeldAnswer>): HeldAnswer => ({
  kind: "held",
  part: "p",
  field: "result",
  token: 1,
  ...fields,
});

/** Fold answers one after the other; the last step. */
function assemble(answers: HeldAnswer[]): Assembly | string {
  let assembly: Assembly | null = null;
  for (const a of answers) {
    const step = addPiece(assembly, a);
    if ("error" in step) return step.error;
    assembly = step.assembly;
  }
  return assembly ?? "nothing";
}

describe("heldEntry", () => {
  it("reads the part's out-of-band record and nothing inside the value", () => {
    const held = { result: { token: 3, size: 10, lengths: { "$/rows": 9000 } } };
    expect(heldEntry(part("tool", { held }), "result")).toEqual(held.result);
    expect(heldEntry(part("tool", { held }), "args")).toBeNull();
    // A value that looks like the record is just a value.
    expect(heldEntry(part("tool", { result: { held } }), "result")).toBeNull();
    expect(
      heldEntry(part("tool", { held: { result: { token: "3", size: 1, lengths: {} } } }), "result"),
    ).toBeNull();
    expect(
      heldEntry(part("tool", { held: { result: { token: 3, size: 1, lengths: [] } } }), "result"),
    ).toBeNull();
    expect(heldEntry(part("tool", { held: null }), "result")).toBeNull();
  });

  it("drops one field from the record, null when none is left", () => {
    const entry = { token: 1, size: 1, lengths: {} };
    expect(heldWithout({ a: entry, b: entry }, "a")).toEqual({ b: entry });
    expect(heldWithout({ a: entry }, "a")).toBeNull();
    expect(heldWithout(null, "a")).toBeNull();
  });
});

describe("addPiece", () => {
  it("puts pieces together in index order whatever order they arrive in", () => {
    const pieces = ['{"a":', '"xy', 'z"}'];
    const result = assemble(
      [2, 0, 1].map((k) => answer({ index: k, count: 3, text: pieces[k] ?? "" })),
    );
    expect(typeof result).toBe("object");
    const assembly = result as Assembly;
    expect(assembledText(assembly)).toBe('{"a":"xyz"}');
  });

  it("waits for every piece, and a repeated piece counts once", () => {
    const result = assemble([
      answer({ index: 0, count: 2, text: "[1" }),
      answer({ index: 0, count: 2, text: "[1" }),
    ]);
    expect((result as Assembly).received).toBe(1);
    expect(assembledText(result as Assembly)).toBeNull();
  });

  it("stops at an error answer or a piece that does not fit", () => {
    expect(assemble([answer({ error: "stale token" })])).toBe("stale token");
    expect(assemble([answer({ index: 2, count: 2, text: "x" })])).toMatch(/index 2 of 2/);
    expect(assemble([answer({ index: 0, count: 0, text: "x" })])).toMatch(/count/);
    expect(
      assemble([
        answer({ index: 0, count: 2, text: "x" }),
        answer({ index: 1, count: 3, text: "y" }),
      ]),
    ).toMatch(/disagree/);
    expect(assemble([answer({ index: 0, count: 1 })])).toMatch(/text/);
  });

  it("words the progress in KB", () => {
    expect(loadingLabel(512, 10_240_000)).toBe("loading the full value… 1 of 10,000 KB");
  });
});

/** A fetcher with a store, hand-driven timers and a record of what it sent and reported. */
function fetcherWith(
  parts = [
    part("tool", {
      id: "p",
      result: { rows: [1] },
      held: { result: { token: 1, size: 100, lengths: { "$/rows": 3 } } },
    }),
  ],
) {
  const store = createStore(fromSnapshot(snapshot(parts)));
  const sent: Up[] = [];
  const timers = new Map<number, () => void>();
  let next = 0;
  const fetcher = new HeldFetcher({
    send: (up) => sent.push(up),
    apply: (request, value) => store.fillHeld(request.part, request.field, request.token, value),
    timeoutMs: 30_000,
    setTimer: (fn) => {
      next += 1;
      timers.set(next, fn);
      return next;
    },
    clearTimer: (handle) => timers.delete(handle as number),
  });
  const reports: LoadStatus[] = [];
  const request = { part: "p", field: "result", token: 1, size: 100 };
  const fire = () => {
    for (const fn of [...timers.values()]) fn();
  };
  return { store, sent, fetcher, reports, request, fire, timers };
}

describe("HeldFetcher", () => {
  it("sends one fetch, parses the pieces once, and puts the value in the store", () => {
    const { store, sent, fetcher, reports, request, timers } = fetcherWith();
    fetcher.fetch(request, (s) => reports.push(s));
    fetcher.fetch(request, (s) => reports.push(s)); // a second tree asking: no second fetch
    expect(sent).toEqual([{ kind: "fetch", part: "p", field: "result", token: 1 }]);
    fetcher.receive(answer({ index: 0, count: 2, text: '{"rows":[1,' }));
    expect(reports.at(-1)).toEqual({ state: "loading", received: 50, total: 100 });
    fetcher.receive(answer({ index: 1, count: 2, text: "2,3]}" }));
    const tool = partIn(store.get().byId, "p", "tool");
    expect(tool?.result).toEqual({ rows: [1, 2, 3] });
    expect(tool?.held).toBeNull();
    expect(timers.size).toBe(0);
    expect(reports.filter((s) => s.state === "failed")).toEqual([]);
  });

  it("reports an error answer and gives up", () => {
    const { store, fetcher, reports, request } = fetcherWith();
    fetcher.fetch(request, (s) => reports.push(s));
    fetcher.receive(answer({ error: "field 'result' of part 'p' changed since" }));
    expect(reports.at(-1)).toEqual({
      state: "failed",
      message: "the kernel could not send the full value: field 'result' of part 'p' changed since",
    });
    expect(partIn(store.get().byId, "p", "tool")?.result).toEqual({ rows: [1] });
  });

  it("says so when no answer comes, and drops late pieces", () => {
    const { store, fetcher, reports, request, fire } = fetcherWith();
    fetcher.fetch(request, (s) => reports.push(s));
    fire();
    const last = reports.at(-1);
    expect(last?.state).toBe("failed");
    expect(last?.state === "failed" && last.message).toMatch(/no answer from the kernel in 30 s/);
    fetcher.receive(answer({ index: 0, count: 1, text: '{"rows":[1,2,3]}' }));
    expect(partIn(store.get().byId, "p", "tool")?.result).toEqual({ rows: [1] });
  });

  it("does not apply a value whose token is no longer the part's", () => {
    const { store, fetcher, reports, request } = fetcherWith();
    fetcher.fetch(request, (s) => reports.push(s));
    // A newer cut of the field arrives meanwhile.
    store.dispatch({
      kind: "batch",
      seq: 1,
      ops: [
        {
          op: "set",
          id: "p",
          t: 1,
          set: { result: { rows: [] }, held: { result: { token: 2, size: 9, lengths: {} } } },
        },
      ],
    });
    fetcher.receive(answer({ index: 0, count: 1, text: '{"rows":[1,2,3]}' }));
    expect(partIn(store.get().byId, "p", "tool")?.result).toEqual({ rows: [] });
    expect(reports.at(-1)?.state).toBe("failed");
  });
});

describe("store.fillHeld", () => {
  it("applies a fetched value only when the token matches, and marks the part changed", () => {
    const held = {
      result: { token: 4, size: 10, lengths: {} },
      args: { token: 5, size: 10, lengths: {} },
    };
    const store = createStore(
      fromSnapshot(snapshot([part("tool", { id: "p", result: "pre", args: "pre", held })])),
    );
    let notified = 0;
    store.subscribe(() => notified++);
    expect(store.fillHeld("p", "result", 3, "whole")).toBe(false);
    expect(store.fillHeld("nope", "result", 4, "whole")).toBe(false);
    expect(notified).toBe(0);
    const before = store.get().version;
    expect(store.fillHeld("p", "result", 4, "whole")).toBe(true);
    const tool = partIn(store.get().byId, "p", "tool");
    expect(tool?.result).toBe("whole");
    expect(tool?.held).toEqual({ args: held.args });
    expect(store.get().partRev.get("p")).toBe(before + 1);
    expect(notified).toBe(1);
    expect(store.fillHeld("p", "result", 4, "again")).toBe(false);
  });
});
