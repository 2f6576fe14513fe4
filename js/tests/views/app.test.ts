// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from "vitest";
import { viewAt } from "../../src/model/scrub";
import { createStore, fromSnapshot } from "../../src/model/store";
import { mountApp } from "../../src/views/app";
import type { MountPanel, PanelContext } from "../../src/views/panel";
import { batch, part, snapshot, waitUntil } from "../helpers";

function setup(mountTimeline: MountPanel, wantRows?: () => void) {
  const store = createStore(
    fromSnapshot(
      snapshot([part("text", { id: "a", text: "alpha" }), part("text", { id: "b", text: "beta" })]),
    ),
  );
  const el = document.createElement("div");
  const mounted: PanelContext[] = [];
  const app = mountApp(el, {
    store,
    onStop: () => {},
    fallbackTitle: () => "fallback title",
    mountTimeline,
    mountInspector: (container, ctx) => {
      mounted.push(ctx);
      container.append("chunks here");
      return () => container.replaceChildren();
    },
    pastState: viewAt,
    ...(wantRows === undefined ? {} : { wantRows }),
  });
  return { el, app, mounted };
}

const tab = (el: HTMLElement, label: string) =>
  [...el.querySelectorAll<HTMLButtonElement>(".cs-tab")].find(
    (b) => b.textContent === label,
  ) as HTMLButtonElement;
const panel = (el: HTMLElement, name: string) =>
  el.querySelector(`.cs-panel-${name}`) as HTMLElement;

describe("app", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("shows what came while JupyterLab drew its output again, once moved into the new one", async () => {
    // A browser's observer reports an element only when the page is rendered: one taken out
    // and put back between two renderings is never reported as gone or back.
    class SilentObserver {
      observe(): void {}
      disconnect(): void {}
    }
    vi.stubGlobal("IntersectionObserver", SilentObserver);
    const store = createStore(fromSnapshot(snapshot([part("text", { id: "a", text: "alpha" })])));
    const output = document.createElement("div");
    document.body.append(output);
    const app = mountApp(output, {
      store,
      onStop: () => {},
      fallbackTitle: () => "",
      mountTimeline: () => () => {},
      mountInspector: () => () => {},
      pastState: viewAt,
    });
    const text = () => output.querySelector(".cs-transcript")?.textContent ?? "";
    await waitUntil(() => text().includes("alpha"));
    output.replaceChildren(); // the renderer empties the output's node
    store.dispatch(batch(1, { op: "append", id: "a", field: "text", text: " omega", t: 5 }));
    const redrawn = document.createElement("div");
    document.body.append(redrawn);
    app.moveTo(redrawn);
    await waitUntil(() => redrawn.textContent?.includes("alpha omega") === true);
    expect(redrawn.querySelector(".cs-transcript")?.textContent).toContain("alpha omega");
    app.unmount();
    output.remove();
    redrawn.remove();
  });

  it("moves between its tabs with the arrow keys when drawn in a shadow root (a board's opened run)", () => {
    const { el } = setup((container) => {
      container.append("timeline here");
      return () => {};
    });
    const host = document.createElement("div");
    document.body.append(host);
    host.attachShadow({ mode: "open" }).append(el);
    const transcript = tab(el, "Transcript");
    transcript.focus();
    transcript.dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowRight", bubbles: true }));
    const next = host.shadowRoot?.activeElement as HTMLButtonElement;
    expect(next).not.toBe(transcript);
    expect(next.classList.contains("cs-tab")).toBe(true);
    expect(next.getAttribute("aria-selected")).toBe("true");
    host.remove();
  });

  it("builds a panel the first time its tab is shown and hands it the shared context", () => {
    const timelines: PanelContext[] = [];
    const { el, mounted } = setup((container, ctx) => {
      timelines.push(ctx);
      container.append("timeline here");
      return () => {};
    });
    expect(el.querySelector(".cs-title")?.textContent).toBe("test run");
    expect(timelines).toHaveLength(0);
    tab(el, "Timeline").click();
    tab(el, "Transcript").click();
    tab(el, "Timeline").click();
    expect(timelines).toHaveLength(1);
    expect(panel(el, "timeline").hidden).toBe(false);
    expect(panel(el, "transcript").hidden).toBe(true);
    tab(el, "Chunks").click();
    expect(mounted[0]?.store).toBe(timelines[0]?.store);
  });

  it("scrollToPart returns to the transcript and highlights the part; selection is shared", async () => {
    let ctx: PanelContext | null = null;
    const { el } = setup((_container, c) => {
      ctx = c;
      return () => {};
    });
    tab(el, "Timeline").click();
    (ctx as unknown as PanelContext).scrollToPart("b");
    expect(panel(el, "transcript").hidden).toBe(false);
    expect(el.querySelector('[data-part-id="b"]')?.classList.contains("cs-selected")).toBe(true);
    await waitUntil(() => el.querySelector('[data-part-id="a"] p') !== null);
    (el.querySelector('[data-part-id="a"] p') as HTMLElement).click();
    expect((ctx as unknown as PanelContext).selection.get()).toBe("a");
  });

  it("says so when a panel fails to draw", () => {
    const { el, app } = setup(() => {
      throw new Error("no canvas");
    });
    tab(el, "Timeline").click();
    expect(panel(el, "timeline").textContent).toContain("no canvas");
    app.unmount();
    expect(el.children).toHaveLength(0);
  });

  it("asks for the chunk rows when the Chunks tab opens and when scrubbing starts, once each", () => {
    let asked = 0;
    const { el, app } = setup(
      () => () => {},
      () => asked++,
    );
    expect(asked).toBe(0);
    app.ctx.scrollToPart("a");
    app.ctx.scrollToPart("b");
    app.ctx.scrubTime.set(100);
    expect(asked).toBe(1);
    tab(el, "Chunks").click();
    expect(asked).toBe(2);
  });
});
