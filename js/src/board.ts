/**
 * The anywidget entry of RunBoard. `initialize` keeps one board source per model, fed by the
 * kernel's messages (docs/wire.md, "board"); `render` draws a view of it, or moves the view
 * JupyterLab left off the page when it drew the output again (see host/placed.ts).
 */
import type { AnyModel, InitializeProps, RenderProps } from "@anywidget/types";
import { type BoardSource, createBoardSource, keptIn } from "./board/source";
import { type BoardHandle, mountBoard } from "./board/view";
import { PlacedViews } from "./host/placed";
import { ModelEntries } from "./host/registry";
import {
  BOARD_SAVED_PART_PREFIX,
  type BoardModel,
  type BoardSaved,
  type BoardSavedPart,
} from "./model/wire";

type BoardWidgetModel = AnyModel<BoardModel>;

interface BoardEntry {
  source: BoardSource;
  views: PlacedViews<BoardHandle>;
  dispose(): void;
}

const entries = new ModelEntries<BoardEntry>();

/** The kept run of row `id`: in the saved board's own `runs`, or in one of the traits that
 * hold the rest of them (BoardSaved `runParts`, each sent in a message of its own). */
function keptRunOf(model: BoardWidgetModel, saved: BoardSaved, id: string): unknown {
  const own = keptIn(saved.runs, id);
  if (own !== undefined) return own;
  const parts = typeof saved.runParts === "number" ? saved.runParts : 0;
  const attributes = model as unknown as { get(name: string): unknown };
  for (let index = 1; index <= parts; index++) {
    const part = attributes.get(`${BOARD_SAVED_PART_PREFIX}${index}`) as BoardSavedPart | null;
    // A part of an earlier save (not yet replaced) is not this save's.
    if (part?.save !== saved.save) continue;
    const value = keptIn(part.runs, id);
    if (value !== undefined) return value;
  }
  return undefined;
}

/** The model's entry, created on first use: the rows start from the saved board when there
 * is one, so a reopened notebook shows the table (and the runs it kept) without a kernel. */
function entryFor(model: BoardWidgetModel): BoardEntry {
  const known = entries.get(model);
  if (known !== undefined) return known;
  const source = createBoardSource({
    send: (up) => model.send(up),
    saved: model.get("saved") as BoardSaved | null,
    keptRun: (saved, id) => keptRunOf(model, saved, id),
    title: model.get("title") ?? "",
  });
  const onMessage = (msg: unknown) => source.receive(msg);
  const onSaved = () => source.adoptSaved(model.get("saved") as BoardSaved | null);
  const onTitle = () => source.setTitle(model.get("title") ?? "");
  model.on("msg:custom", onMessage);
  model.on("change:saved", onSaved);
  model.on("change:title", onTitle);
  const entry: BoardEntry = {
    source,
    views: new PlacedViews(),
    dispose() {
      model.off("msg:custom", onMessage);
      model.off("change:saved", onSaved);
      model.off("change:title", onTitle);
      source.dispose();
      entries.set(model, null);
    },
  };
  entries.set(model, entry);
  return entry;
}

function initialize({ model }: InitializeProps<BoardModel>): () => void {
  const entry = entryFor(model);
  entry.source.ready();
  return () => entry.dispose();
}

function render({ model, el }: RenderProps<BoardModel>): () => void {
  const entry = entryFor(model);
  if (!entry.source.get().live) entry.source.ready();
  return entry.views.place(el, () => mountBoard(el, entry.source));
}

export default { initialize, render };
