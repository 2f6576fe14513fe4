// @vitest-environment jsdom
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import { followLibraries, type ImportSource, type LibrariesModel } from "../../src/host/libraries";
import { libraries } from "../../src/libraries/bundle";
import { librariesReady, REGISTRY_KEY, whenLibraries } from "../../src/views/libraries";
import { drawnInAFrame, shownAsMarkdown, waitUntil } from "../helpers";

/** A model's `_libraries`, set as the kernel sets it. */
class LibrariesTrait implements LibrariesModel {
  private listeners = new Set<() => void>();
  constructor(private value = "") {}
  get(): string {
    return this.value;
  }
  watch(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  set(value: string): void {
    this.value = value;
    for (const listener of this.listeners) listener();
  }
}

const SOURCE = "export const libraries = {};";

// Each test runs in a page of its own: no libraries yet, nobody waiting for them.
const page = globalThis as unknown as Record<string, unknown>;
let before: unknown;
beforeEach(() => {
  before = page[REGISTRY_KEY];
  delete page[REGISTRY_KEY];
});
afterEach(() => {
  page[REGISTRY_KEY] = before;
  vi.restoreAllMocks();
});

/** An import that gives the real libraries for `SOURCE`, and counts its calls. */
function importer(): ImportSource & { calls: string[] } {
  const calls: string[] = [];
  const load = (source: string): Promise<unknown> => {
    calls.push(source);
    return Promise.resolve({ libraries });
  };
  return Object.assign(load, { calls });
}

it("asks its kernel for the libraries once, in an idle task after its view is drawn", async () => {
  const idle: (() => void)[] = [];
  vi.stubGlobal("requestIdleCallback", (callback: () => void) => idle.push(callback));
  try {
    const asked: number[] = [];
    const follow = followLibraries(new LibrariesTrait(), () => asked.push(1), importer());
    follow.drawn();
    follow.drawn(); // a second view of the same model
    expect(asked).toEqual([]); // not while the first words are being drawn
    while (idle.length > 0) idle.shift()?.();
    expect(asked).toEqual([1]);
    follow.dispose();
  } finally {
    vi.unstubAllGlobals();
  }
});

it("imports the libraries the kernel sets, for a view that waits for them", async () => {
  const trait = new LibrariesTrait();
  const load = importer();
  const asked: number[] = [];
  const follow = followLibraries(trait, () => asked.push(1), load);
  const given = whenLibraries();
  expect(asked).toEqual([1]); // wanted: asked at once
  expect(librariesReady()).toBe(false);
  trait.set(SOURCE);
  expect(await given).toBe(libraries);
  expect(load.calls).toEqual([SOURCE]);
  follow.dispose();
});

it("imports a saved model's libraries without asking, once for the page however many models", async () => {
  const load = importer();
  const asked: number[] = [];
  const first = followLibraries(new LibrariesTrait(SOURCE), () => asked.push(1), load);
  const second = followLibraries(new LibrariesTrait(SOURCE), () => asked.push(2), load);
  await whenLibraries();
  expect(asked).toEqual([]);
  expect(load.calls).toEqual([SOURCE]);
  first.dispose();
  second.dispose();
});

it("imports the libraries a model holds when it is followed, before any view wants them", async () => {
  // A view displayed before its run is given them then: its run's first markdown must not
  // wait for the import.
  const load = importer();
  const asked: number[] = [];
  const follow = followLibraries(new LibrariesTrait(SOURCE), () => asked.push(1), load);
  expect(load.calls).toEqual([SOURCE]);
  await waitUntil(() => librariesReady());
  expect(asked).toEqual([]);
  follow.dispose();
});

it("leaves markdown plain, and tells the reader why, when the module is not the libraries", async () => {
  const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
  const reported: string[] = [];
  const follow = followLibraries(
    new LibrariesTrait("export const other = 1;"),
    () => undefined,
    () => Promise.resolve({ other: 1 }),
    (problem) => reported.push(problem),
  );
  void whenLibraries();
  await waitUntil(() => reported.length > 0);
  expect(String(errors.mock.calls[0]?.[0])).toContain("could not load the markdown libraries");
  expect(reported).toEqual([
    "text is shown as plain text: the markdown libraries could not be loaded " +
      "(Error: the module does not export `libraries`)",
  ]);
  expect(librariesReady()).toBe(false);
  follow.dispose();
});

it("draws text as plain text until the libraries come, then as markdown", async () => {
  const trait = new LibrariesTrait();
  const follow = followLibraries(trait, () => undefined, importer());
  const source = "Some *emphasis* here\n\nand a second paragraph";
  const view = await drawnInAFrame(source);
  // Frames go by: without the libraries the text stays plain, and no frame draws it again
  // to see whether they came.
  const update = vi.spyOn(view, "update");
  await new Promise((resolve) => setTimeout(resolve, 100));
  expect(update).not.toHaveBeenCalled();
  expect(view.el.querySelector(".cs-md-plain")?.textContent).toBe(source);
  expect(view.el.querySelector("em")).toBeNull();
  trait.set(SOURCE);
  await waitUntil(() => shownAsMarkdown(view.el));
  expect(view.el.querySelector("em")?.textContent).toBe("emphasis");
  follow.dispose();
});
