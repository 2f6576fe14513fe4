/**
 * The anywidget entry of RunBoard. `initialize` keeps one board source per model, fed by the
 * kernel's messages (docs/wire.md, "board"); `render` draws a view of it in a shadow root of
 * the output (see host/shadow.ts), or moves the view JupyterLab left off the page when it drew
 * the output again (see host/placed.ts).
 */
import type { AnyModel, InitializeProps, RenderProps } from "@anywidget/types";
import { type BoardSource, createBoardSource, keptIn } from "./board/source";
import { type BoardHandle, mountBoard } from "./board/view";
import { followModelLibraries } from "./host/libraries";
import { PlacedViews } from "./host/placed";
import { ModelEntries } from "./host/registry";
import { shadowMount } from "./host/shadow";
import {
  BOARD_SAVED_PART_PREFIX,
  type BoardModel,
  type BoardRow,
  type BoardSaved,
  type BoardSavedPart,
} from "./model/wire";
import { isRecord } from "./util";

type BoardWidgetModel = AnyModel<BoardModel>;

interface BoardEntry {
  source: BoardSource;
  views: PlacedViews<BoardHandle>;
  dispose(): void;
}

const entries = new ModelEntries<BoardEntry>();

/** Reads any attribute of the model, the saved board's parts included (their names are not
 * BoardModel's). */
type Attributes = { get(name: string): unknown };

/** The parts of `saved` (BoardSaved `runParts`, each a trait sent in a message of its own),
 * in order; null for a part that is not this save's (not there, or an earlier save's not yet
 * replaced). */
function partsOf(model: Attributes, saved: Record<string, unknown>): (BoardSavedPart | null)[] {
  const count = typeof saved.runParts === "number" ? saved.runParts : 0;
  const parts: (BoardSavedPart | null)[] = [];
  for (let index = 1; index <= count; index++) {
    const part = model.get(`${BOARD_SAVED_PART_PREFIX}${index}`);
    parts.push(
      isRecord(part) && part.save === saved.save ? (part as unknown as BoardSavedPart) : null,
    );
  }
  return parts;
}

/** The kept run of row `id`: in the saved board's own `runs`, or in one of its parts. */
function keptRunOf(model: Attributes, saved: BoardSaved, id: string): unknown {
  const own = keptIn(saved.runs, id);
  if (own !== undefined) return own;
  for (const part of partsOf(model, saved as unknown as Record<string, unknown>)) {
    const value = part === null ? undefined : keptIn(part.runs, id);
    if (value !== undefined) return value;
  }
  return undefined;
}

/** The saved board with all its rows: its own, then those of its parts, in order.
 * `complete` tells whether every part of this save is there: the kernel sends the parts
 * after the saved board, each in a message of its own, and a notebook saved between two of
 * them holds parts of an earlier save (their rows are not this one's). */
export function savedWithRows(model: Attributes): {
  saved: BoardSaved | null;
  complete: boolean;
} {
  const saved = model.get("saved");
  if (!isRecord(saved)) return { saved: null, complete: true };
  const parts = partsOf(model, saved);
  const rows: unknown[] = Array.isArray(saved.rows) ? [...saved.rows] : [];
  for (const part of parts)
    if (part !== null && Array.isArray(part.rows)) for (const row of part.rows) rows.push(row);
  return {
    saved: { ...(saved as unknown as BoardSaved), rows: rows as BoardRow[] },
    complete: parts.every((part) => part !== null),
  };
}

/** The model's entry, created on first use: the rows start from the saved board when there
 * is one, so a reopened notebook shows the table (and the runs it kept) without a kernel. */
function entryFor(model: BoardWidgetModel): BoardEntry {
  const known = entries.get(model);
  if (known !== undefined) return known;
  const attributes = model as unknown as Attributes;
  const first = savedWithRows(attributes);
  const source = createBoardSource({
    send: (up) => model.send(up),
    saved: first.saved,
    keptRun: (saved, id) => keptRunOf(attributes, saved, id),
    title: model.get("title") ?? "",
  });
  // A newer save is taken once all its parts are there, whichever of its messages came last.
  let adopted = first.complete ? first.saved?.save : undefined;
  const onSaved = () => {
    const next = model.get("saved") as BoardSaved | null;
    if (!isRecord(next) || next.save === adopted) return;
    const { saved, complete } = savedWithRows(attributes);
    if (!complete || saved === null) return;
    adopted = saved.save;
    source.adoptSaved(saved);
  };
  // The markdown libraries are asked for when a view first wants them (a run opened on the
  // board), not before: the rows never need them.
  const libraries = followModelLibraries(model, () => model.send({ kind: "libraries" }));
  const onMessage = (msg: unknown) => source.receive(msg);
  const onTitle = () => source.setTitle(model.get("title") ?? "");
  model.on("msg:custom", onMessage);
  model.on("change", onSaved);
  model.on("change:title", onTitle);
  const entry: BoardEntry = {
    source,
    views: new PlacedViews(),
    dispose() {
      model.off("msg:custom", onMessage);
      model.off("change", onSaved);
      model.off("change:title", onTitle);
      libraries.dispose();
      source.dispose();
      entries.set(model, null);
    },
  };
  entries.set(model, entry);
  return entry;
}

/** How long a new model waits for the board's row messages before it asks for every row
 * (ms). A page displayed with the board hears its first message (`seq` 1) and never asks; a
 * page that hears a later one first asks at once; one that hears none (a board at rest, a
 * page opened again) asks after this. */
export const QUIET_BEFORE_READY_MS = 500;

function initialize({ model }: InitializeProps<BoardModel>): () => void {
  const entry = entryFor(model);
  const timer = setTimeout(() => {
    if (!entry.source.get().table.followed) entry.source.ready();
  }, QUIET_BEFORE_READY_MS);
  return () => {
    clearTimeout(timer);
    entry.dispose();
  };
}

/** The board's style sheet: `_styles`, or for a board saved before that trait existed, the
 * sheet it gave anywidget as `_css` (the same sheet, which the shadow root needs too). */
function stylesOf(model: Attributes): string {
  for (const name of ["_styles", "_css"]) {
    const value = model.get(name);
    if (typeof value === "string" && value !== "") return value;
  }
  return "";
}

function render({ model, el }: RenderProps<BoardModel>): () => void {
  const entry = entryFor(model);
  const mount = shadowMount(el, stylesOf(model as unknown as Attributes));
  return entry.views.place(mount, () => mountBoard(mount, entry.source));
}

export default { initialize, render };
