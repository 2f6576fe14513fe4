// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ReportLoad } from "../../src/held/values";
import { copyButton, copyText } from "../../src/views/copy";
import { JsonTree } from "../../src/views/json-tree";

const written: string[] = [];
Object.defineProperty(navigator, "clipboard", {
  value: { writeText: async (text: string) => void written.push(text) },
  configurable: true,
});

async function settle(): Promise<void> {
  for (let k = 0; k < 5; k++) await new Promise((resolve) => setTimeout(resolve, 0));
}

afterEach(() => {
  written.length = 0;
});

describe("copy", () => {
  it("copies strings as they are and other values as indented JSON", () => {
    expect(copyText("a")).toBe("a");
    expect(copyText({ a: [1] })).toBe('{\n  "a": [\n    1\n  ]\n}');
  });

  it("writes what the button is given and says so", async () => {
    const button = copyButton("message", () => "hello");
    document.body.append(button);
    expect(button.getAttribute("aria-label")).toBe("Copy message");
    expect(button.textContent).toBe("");
    button.click();
    await settle();
    expect(written).toEqual(["hello"]);
    expect(button.dataset.copy).toBe("copied");
  });

  it("copies from a button inside a shadow root, where the document sees only the root's host", async () => {
    const host = document.createElement("div");
    document.body.append(host);
    const button = copyButton("message", () => "from the board");
    host.attachShadow({ mode: "open" }).append(button);
    button.click();
    await settle();
    expect(written).toEqual(["from the board"]);
    expect(button.dataset.copy).toBe("copied");
    host.remove();
  });

  it("fetches a held value whole before copying it", async () => {
    let report: ReportLoad | null = null;
    const fetchWhole = vi.fn((r: ReportLoad) => {
      report = r;
    });
    const tree = new JsonTree({ rows: [1] }, { copy: "result" });
    tree.update({ rows: [1] }, { token: 1, size: 100, lengths: { "$/rows": 3 }, fetchWhole });
    document.body.append(tree.el);
    (tree.el.querySelector(".cs-copy") as HTMLButtonElement).click();
    await settle();
    expect(fetchWhole).toHaveBeenCalledOnce();
    expect(written).toEqual([]);
    (report as unknown as ReportLoad)({ state: "loading", received: 50, total: 100 });
    tree.update({ rows: [1, 2, 3] }, null); // the store filled the whole value in
    await settle();
    expect(written).toEqual([copyText({ rows: [1, 2, 3] })]);
  });

  it("says when a held value could not be fetched", async () => {
    const tree = new JsonTree(null, { copy: "result" });
    tree.update("abc", {
      token: 2,
      size: 10,
      lengths: {},
      fetchWhole: (r) => r({ state: "failed", message: "no kernel" }),
    });
    document.body.append(tree.el);
    const button = tree.el.querySelector(".cs-copy") as HTMLButtonElement;
    button.click();
    await settle();
    expect(written).toEqual([]);
    expect(button.dataset.copy).toBe("failed");
    expect(button.title).toContain("no kernel");
  });
});
