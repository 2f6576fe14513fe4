/**
 * How a StreamView model brings the page its libraries (marked, DOMPurify, highlight.js):
 * the kernel keeps them out of the view's own module and sets them on the model's
 * `_libraries` when asked. Every kilobyte a page receives before a new view's first words
 * delays them, and the libraries are more than half of what the view needs at all; they are
 * first needed once those words are on screen (markdown follows the plain text), so each
 * model asks for them in an idle task after its view is drawn. A RunBoard model does the
 * same for the runs opened on it, and asks when the first of them wants the libraries: its
 * rows never do. A StreamView displayed before its run starts is given them by the kernel
 * as it is displayed: no first words wait behind them then.
 *
 * Each model asks for its own copy, although the page imports one: a saved notebook keeps
 * what its models hold, and the model that brought the page its libraries may be gone by
 * then (its cell run again).
 */

import type { Libraries } from "../libraries/bundle";
import { whenIdle } from "../views/frame";
import { librariesReady, onWanted, provideLibraries } from "../views/libraries";

/** What of a model this needs. */
export interface LibrariesModel {
  /** The model's `_libraries`: the module's source, or "" before the kernel set it. */
  get(): string;
  /** Call `listener` when `_libraries` changes; returns what stops it. */
  watch(listener: () => void): () => void;
}

/** Turns a module's source into the module (a blob URL import in the page). */
export type ImportSource = (source: string) => Promise<unknown>;

/** The module's source imported from a blob URL, as anywidget imports the view's own. */
export const importFromBlob: ImportSource = async (source) => {
  const url = URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
  try {
    return (await import(/* @vite-ignore */ url)) as unknown;
  } finally {
    URL.revokeObjectURL(url);
  }
};

function isLibraries(value: unknown): value is Libraries {
  if (typeof value !== "object" || value === null) return false;
  const candidate = value as Record<string, unknown>;
  return ["marked", "purify", "highlighter"].every((name) => typeof candidate[name] === "function");
}

/** The page's one import of the libraries, whichever model's source it came from. */
let importing: Promise<void> | null = null;

/** Says a problem where the reader sees it (a view's problem lines). */
export type Report = (problem: string) => void;

function load(source: string, importSource: ImportSource, report: Report): void {
  if (librariesReady() || importing !== null || source === "") return;
  importing = importSource(source)
    .then((module) => {
      const libraries = (module as { libraries?: unknown }).libraries;
      if (!isLibraries(libraries)) throw new Error("the module does not export `libraries`");
      provideLibraries(libraries);
    })
    .catch((error: unknown) => {
      // Markdown stays plain text: the run itself is all on screen, and the reader is told
      // why it is not drawn as markdown.
      console.error("chunkscope: could not load the markdown libraries", error);
      report(
        `text is shown as plain text: the markdown libraries could not be loaded (${String(error)})`,
      );
    })
    .finally(() => {
      importing = null;
    });
}

/**
 * Keep `model`'s libraries: asked of the kernel with `ask` (once, in an idle task after
 * `drawn` is called) while the model has none, and imported for the page as soon as the
 * model holds them (or when a view wants them first); `report` says so when the import this
 * model started fails. Returns `drawn`, to call when a view of the model is drawn, and
 * `dispose`.
 */
export function followLibraries(
  model: LibrariesModel,
  ask: () => void,
  importSource: ImportSource = importFromBlob,
  report: Report = () => {},
): { drawn(): void; dispose(): void } {
  let asked = false;
  const ensure = (): void => {
    if (asked || model.get() !== "") return;
    asked = true;
    ask();
  };
  const wanted = (): void => {
    ensure();
    load(model.get(), importSource, report);
  };
  const stopWanting = onWanted(wanted);
  const stopWatching = model.watch(() => load(model.get(), importSource, report));
  // A model that holds its libraries already (a saved notebook's, or a view the kernel gave
  // them as it was displayed with no run yet) brings them to the page now, not in the frame
  // of its run's first markdown.
  load(model.get(), importSource, report);
  return {
    drawn: () => whenIdle(ensure),
    dispose() {
      stopWanting();
      stopWatching();
    },
  };
}

/** What of an anywidget model `followModelLibraries` uses: its `_libraries` and the event of
 * its change. */
export interface ModelWithLibraries {
  get(name: "_libraries"): string | undefined;
  on(event: "change:_libraries", listener: () => void): void;
  off(event: "change:_libraries", listener: () => void): void;
}

/** `followLibraries` for an anywidget model's `_libraries`, asked for with `ask`; a failed
 * import is told to `report` as well as to the console. */
export function followModelLibraries(
  model: ModelWithLibraries,
  ask: () => void,
  report?: Report,
): { drawn(): void; dispose(): void } {
  return followLibraries(
    {
      get: () => model.get("_libraries") ?? "",
      watch(listener) {
        model.on("change:_libraries", listener);
        return () => model.off("change:_libraries", listener);
      },
    },
    ask,
    importFromBlob,
    report,
  );
}
