import { describe, expect, it } from "vitest";
import {
  FIND_LIMIT,
  kindGroup,
  matchLabel,
  RunSearch,
  searchableFields,
  stepMatch,
} from "../../src/model/search";
import { part } from "../helpers";

describe("RunSearch", () => {
  const parts = () => [
    part("text", { id: "t1", text: "The Weather in Paris is mild. paris!" }),
    part("reasoning", { id: "r1", text: "Look up PARIS first" }),
    part("tool", {
      id: "k1",
      toolName: "getWeather",
      args: { city: "Paris" },
      argsText: '{"city":"Par',
      result: { temp: 21 },
    }),
    part("data", { id: "d1", dataType: "data-progress", data: { label: "Indexing notes" } }),
  ];

  it("finds every occurrence, ignoring case, in the run's order", () => {
    const result = new RunSearch().search(parts(), "paris");
    expect(result.matches.map((m) => [m.partId, m.field, m.start])).toEqual([
      ["t1", "text", 15],
      ["t1", "text", 30],
      ["r1", "text", 8],
      ["k1", "args", 9],
    ]);
    expect(result.truncated).toBe(false);
  });

  it("searches tool names, results and data, but not the raw arguments once they parse", () => {
    const search = new RunSearch();
    expect(search.search(parts(), "getweather").matches[0]?.field).toBe("toolName");
    expect(search.search(parts(), "21").matches.map((m) => m.field)).toEqual(["result"]);
    expect(search.search(parts(), '"par').matches.map((m) => m.field)).toEqual(["args"]);
    expect(search.search(parts(), "indexing").matches[0]).toMatchObject({
      partId: "d1",
      field: "data",
    });
  });

  it("narrows the search to a group of kinds", () => {
    const search = new RunSearch();
    expect(search.search(parts(), "paris", "reasoning").matches.map((m) => m.partId)).toEqual([
      "r1",
    ]);
    expect(search.search(parts(), "paris", "tool").matches.map((m) => m.partId)).toEqual(["k1"]);
    expect(search.search(parts(), "paris", "data").matches).toEqual([]);
  });

  it("re-reads a part only when its revision changed", () => {
    const search = new RunSearch();
    const text = part("text", { id: "t", text: "alpha" });
    let rev = 1;
    expect(search.search([text], "beta", "all", () => rev).matches).toHaveLength(0);
    text.text = "alpha beta";
    expect(search.search([text], "beta", "all", () => rev).matches).toHaveLength(0);
    rev = 2;
    expect(search.search([text], "beta", "all", () => rev).matches).toHaveLength(1);
  });

  it("finds nothing for an empty query and stops counting at the limit", () => {
    const search = new RunSearch();
    expect(search.search(parts(), "").matches).toEqual([]);
    const big = part("text", { id: "big", text: "a".repeat(FIND_LIMIT + 5) });
    const result = search.search([big], "a");
    expect(result.matches).toHaveLength(FIND_LIMIT);
    expect(result.truncated).toBe(true);
    expect(matchLabel(0, result)).toBe(`1 of ${FIND_LIMIT}+`);
  });

  it("searches a run of 10k tool calls quickly enough to run as the user types", () => {
    const many = Array.from({ length: 10_000 }, (_, k) =>
      part("tool", { id: `k${k}`, toolName: "lookup", args: { n: k }, result: { row: `r${k}` } }),
    );
    const search = new RunSearch();
    const result = search.search(many, "r9999");
    expect(result.matches.map((m) => m.partId)).toEqual(["k9999"]);
  });
});

describe("find helpers", () => {
  it("steps through matches, wrapping at both ends", () => {
    expect(stepMatch(-1, 3, 1)).toBe(0);
    expect(stepMatch(-1, 3, -1)).toBe(2);
    expect(stepMatch(2, 3, 1)).toBe(0);
    expect(stepMatch(0, 3, -1)).toBe(2);
    expect(stepMatch(0, 0, 1)).toBe(-1);
  });

  it("labels the count", () => {
    const result = {
      matches: [{ partId: "a", kind: "text", field: "text", start: 0 }],
      truncated: false,
    };
    expect(matchLabel(0, result)).toBe("1 of 1");
    expect(matchLabel(-1, result)).toBe("1 matches");
    expect(matchLabel(-1, { matches: [], truncated: false })).toBe("no matches");
  });

  it("groups kinds, with unknown kinds under other", () => {
    expect(kindGroup("background")).toBe("tool");
    expect(kindGroup("output")).toBe("data");
    expect(kindGroup("mystery")).toBe("other");
    expect(searchableFields(part("text", { id: "x", text: "" }))).toEqual([]);
  });
});
