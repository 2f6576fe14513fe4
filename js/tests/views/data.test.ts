// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import { cellText, DataBody, dataShape } from "../../src/views/transcript/data";
import { outputLabel } from "../../src/views/transcript/parts";
import { part } from "../helpers";

describe("data parts by shape", () => {
  it("reads progress with its label and keeps the other fields", () => {
    const shape = dataShape({ percent: 75, label: "Indexing notes", file: "a.md" });
    expect(shape).toMatchObject({
      shape: "progress",
      caption: "Indexing notes",
      rest: { file: "a.md" },
    });
    const body = new DataBody();
    body.update({ percent: 75, label: "Indexing notes" }, null);
    expect(body.el.querySelector(".cs-progress-label")?.textContent).toBe("Indexing notes · 75%");
    expect(body.el.querySelector("[role=progressbar]")?.getAttribute("aria-valuenow")).toBe("75");
  });

  it("reads a status with its message, and a list of records as a table", () => {
    expect(dataShape({ status: "ready", message: "all set" })).toMatchObject({
      shape: "status",
      status: "ready",
      caption: "all set",
    });
    const body = new DataBody();
    body.update(
      [
        { name: "a", n: 1 },
        { name: "b", extra: { x: 1 } },
      ],
      null,
    );
    const headers = Array.from(body.el.querySelectorAll("th")).map((th) => th.textContent);
    expect(headers).toEqual(["name", "n", "extra"]);
    expect(body.el.querySelectorAll("tbody tr")).toHaveLength(2);
    expect(cellText({ x: 1 })).toBe('{ "x": 1 }');
  });

  it("draws anything else as a JSON tree, as text", () => {
    expect(dataShape({ a: 1 })).toEqual({ shape: "tree" });
    expect(dataShape([1, 2])).toEqual({ shape: "tree" });
    const body = new DataBody();
    body.update({ html: "<img src=x onerror=alert(1)>" }, null);
    expect(body.el.querySelector("img")).toBeNull();
    expect(body.el.querySelector(".cs-json")).not.toBeNull();
  });

  it("labels writer output by the tool or step it is nested under", () => {
    expect(outputLabel(part("tool", { toolName: "indexNotes" }))).toBe("output of indexNotes");
    expect(outputLabel(part("wstep", { stepId: "fetch" }))).toBe("output of step fetch");
    expect(outputLabel(undefined)).toBe("output");
  });
});

describe("the activity strip", () => {
  it("shows a transient progress item's label, not only its bar", async () => {
    const { ActivityStrip } = await import("../../src/views/activity");
    const strip = new ActivityStrip();
    strip.draw(
      [
        { type: "data-progress", id: null, data: { percent: 75, label: "Indexing notes" } },
      ] as never,
      1,
    );
    expect(strip.el.querySelector(".cs-progress-label")?.textContent).toBe("Indexing notes · 75%");
    expect(strip.el.textContent).toContain("data-progress");
  });
});
