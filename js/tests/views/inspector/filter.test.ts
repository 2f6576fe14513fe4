import { describe, expect, it } from "vitest";
import type { TransientItem } from "../../../src/model/wire";
import {
  emptyFilter,
  extendRows,
  familyCounts,
  filterRows,
  findRow,
  isLive,
  liveRow,
  mergeRows,
  rowKey,
  typesOf,
} from "../../../src/views/inspector/filter";
import { row } from "../timeline/builders";

const rows = [
  row(0, 0, "start", "control"),
  row(1, 10, "text-start", "text", "p1"),
  row(2, 12, "text-delta", "text", "p1", 40),
  row(42, 300, "tool-call", "tools", "p2"),
  row(43, 310, "tool-result", "tools", "p2"),
  row(44, 320, "reasoning-delta", "reasoning", "p3", 5),
  row(49, 400, "error", "errors"),
  row(50, 410, "finish", "control"),
];
const transient: TransientItem[] = [
  { t: 305, i: 41, type: "data-progress", id: "job", data: { pct: 50 } },
  { t: 500, i: 51, type: "data-status", id: null, data: "done" },
];

describe("inspector rows", () => {
  it("merges transient items into chunk order and marks them live only", () => {
    const merged = mergeRows(rows, transient);
    expect(merged.map((r) => r.i)).toEqual([0, 1, 2, 41, 42, 43, 44, 49, 50, 51]);
    const live = merged.filter(isLive);
    expect(live.map((r) => [r.type, r.family, r.t])).toEqual([
      ["data-progress", "data", 305],
      ["data-status", "data", 500],
    ]);
    expect(live[0]?.json).toEqual({
      type: "data-progress",
      id: "job",
      data: { pct: 50 },
      transient: true,
    });
    expect(live[1]?.json).toEqual({ type: "data-status", data: "done", transient: true });
    // The same item gives the same row object, so selection survives updates.
    expect(liveRow(transient[0] as TransientItem)).toBe(live[0]);
    expect(rowKey(live[0] as never)).not.toBe(rowKey(rows[0] as never));
  });

  it("filters by type words, with exclusions", () => {
    const merged = mergeRows(rows, transient);
    const types = (text: string) =>
      filterRows(merged, { ...emptyFilter(), text }).map((r) => r.type);
    expect(types("TOOL")).toEqual(["tool-call", "tool-result"]);
    expect(types("delta")).toEqual(["text-delta", "reasoning-delta"]);
    expect(types("tool, finish")).toEqual(["tool-call", "tool-result", "finish"]);
    expect(types("-delta -data")).toEqual([
      "start",
      "text-start",
      "tool-call",
      "tool-result",
      "error",
      "finish",
    ]);
    expect(types("")).toHaveLength(10);
  });

  it("filters by family chips and by scrub time", () => {
    const merged = mergeRows(rows, transient);
    const pick = (families: string[], until: number | null = null) =>
      filterRows(merged, { text: "", families: new Set(families as never[]), until }).map(
        (r) => r.i,
      );
    expect(pick(["errors"])).toEqual([49]);
    expect(pick(["text", "reasoning"])).toEqual([1, 2, 44]);
    expect(pick(["data"])).toEqual([41, 51]);
    expect(pick([], 305)).toEqual([0, 1, 2, 41, 42]);
    expect(pick(["tools"], 305)).toEqual([42]);
  });

  it("counts families and lists the distinct types", () => {
    const merged = mergeRows(rows, transient);
    const counts = familyCounts(merged);
    expect([
      counts.get("control"),
      counts.get("text"),
      counts.get("data"),
      counts.get("network"),
    ]).toEqual([2, 2, 2, undefined]);
    expect(typesOf(merged).slice(0, 3)).toEqual(["data-progress", "data-status", "error"]);
  });

  it("filters 50k rows quickly", () => {
    const many = Array.from({ length: 50_000 }, (_, k) =>
      row(k, k, k % 5 === 0 ? "tool-call" : "text-delta", k % 5 === 0 ? "tools" : "text"),
    );
    const filter = { text: "tool", families: new Set(["tools" as const]), until: null };
    let shown = filterRows(mergeRows(many, transient), filter);
    let ms = Infinity;
    for (let k = 0; k < 5; k++) {
      const started = performance.now();
      shown = filterRows(mergeRows(many, transient), filter);
      familyCounts(shown);
      ms = Math.min(ms, performance.now() - started);
    }
    console.log(`inspector: merge + filter + count of 50k rows in ${ms.toFixed(1)} ms (best of 5)`);
    expect(shown).toHaveLength(10_000);
    expect(ms).toBeLessThan(500);
  });
});

describe("extendRows", () => {
  it("appends new rows and replaces a re-sent last row, as a full rebuild would", () => {
    const filter = { text: "delta", families: new Set<never>(), until: null };
    const start = rows.slice(0, 3);
    const all = mergeRows(start, transient.slice(0, 1));
    const shown = filterRows(all, filter);
    const grown = [...start];
    grown[2] = { ...(start[2] as (typeof rows)[number]), n: 60 };
    grown.push(...rows.slice(3));
    extendRows(all, shown, grown, start.length, filter);
    const full = mergeRows(grown, transient.slice(0, 1));
    expect(all).toEqual(full);
    expect(shown).toEqual(filterRows(full, filter));
    expect(shown[0]?.n).toBe(60);
  });

  it("finds rows by key with a binary search", () => {
    const merged = mergeRows(rows, transient);
    expect(findRow(merged, "row:43")?.type).toBe("tool-result");
    expect(findRow(merged, "live:41")?.type).toBe("data-progress");
    expect(findRow(merged, "row:41")).toBeNull();
    expect(findRow(merged, "row:7")).toBeNull();
  });
});
