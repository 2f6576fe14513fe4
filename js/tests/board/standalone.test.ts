// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import { BOARD_ELEMENT_ID, mountStandalone, SNAPSHOT_ELEMENT_ID } from "../../src/standalone";
import { part, snapshot } from "../helpers";
import { boardRow, savedBoard } from "./builders";

function page(id: string, value: unknown): Document {
  const doc = document.implementation.createHTMLDocument("a page");
  const holder = doc.createElement("script");
  holder.type = "application/json";
  holder.id = id;
  holder.textContent = JSON.stringify(value);
  doc.body.append(holder);
  return doc;
}

describe("the standalone page", () => {
  it("mounts the board when the page embeds one, its kept runs openable", () => {
    const run = snapshot([part("text", { id: "t", text: "kept run" })], { seq: 2 });
    const doc = page(
      BOARD_ELEMENT_ID,
      savedBoard([boardRow("a", { label: "one" }), boardRow("b", { label: "two" })], {
        runs: { a: run },
      }),
    );
    const view = mountStandalone(doc);
    expect(doc.querySelectorAll(".cs-brow")).toHaveLength(2);
    expect(doc.querySelector(".cs-title")?.textContent).toBe("a page");
    expect(view.el.classList.contains("cs-board")).toBe(true);
  });

  it("still mounts a run page", () => {
    const doc = page(SNAPSHOT_ELEMENT_ID, snapshot([part("text", { id: "t", text: "one run" })]));
    const view = mountStandalone(doc);
    expect(view.el.classList.contains("cs-board")).toBe(false);
    expect(doc.querySelector(".cs-brow")).toBeNull();
  });

  it("says what is wrong with a board it cannot read", () => {
    const doc = page(BOARD_ELEMENT_ID, "x");
    doc.getElementById(BOARD_ELEMENT_ID)?.replaceChildren("{not json");
    mountStandalone(doc);
    expect(doc.body.textContent).toContain("This page cannot show its board");
  });
});
