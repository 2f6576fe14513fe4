/**
 * The anywidget entry of StreamView. `initialize` keeps one store per model, fed by the
 * kernel's messages (docs/wire.md); `render` draws a view of that store.
 */
import type { AnyModel, InitializeProps, RenderProps } from "@anywidget/types";
import type { FetchHeld } from "./held/values";
import { followModelLibraries } from "./host/libraries";
import { PlacedViews } from "./host/placed";
import { ModelEntries } from "./host/registry";
import { createFeed, NO_KERNEL } from "./model/feed";
import { isPacked, readSaved, type SavedSnapshot, savedSeq, toSaved } from "./model/persisted";
import { viewAt } from "./model/scrub";
import { emptyState, fromSnapshot, holdsNothing, type Store } from "./model/store";
import type { Model, Part, Up } from "./model/wire";
import { isRecord } from "./util";
import { type AppHandle, mountApp } from "./views/app";
import { mountInspector } from "./views/inspector/view";
import { mountTimeline } from "./views/timeline/view";

type WidgetModel = AnyModel<Model>;

interface ModelEntry {
  /** The model's store, shared by all its views. */
  store: Store;
  /** Send a message to the kernel. */
  send(up: Up): void;
  /** Fetch the whole value of a held field into the store. */
  fetchHeld: FetchHeld;
  /** A view needs the inspector rows: ask the kernel for them (once) when it has not sent
   * them. */
  wantRows(): void;
  /** The views drawn of this model and not unmounted. */
  views: PlacedViews<AppHandle>;
  /** The model's libraries module (see host/libraries.ts). */
  libraries: { drawn(): void; dispose(): void };
  /** The batch the last `ready` said the page holds (-1 before the first): a page that
   * says it again before the kernel answers would only get the same answer twice. */
  saidReady: number;
  /** Stop listening to the model. */
  dispose(): void;
}

/** Entries by model (see host/registry.ts). */
const entries = new ModelEntries<ModelEntry>();

export { NO_KERNEL };

/** How often (at most) a page writes what it holds into the model's `snapshot`. */
export const SAVE_EVERY_MS = 1000;

/** Runs with more parts than this are copied for saving only when their kernel dies. */
export const LIVE_SAVE_MAX_PARTS = 5000;

/** Nor are runs whose text is longer than this: a copy is turned into JSON and deflated on
 * the main thread, which took 25 to 36 ms for the 700 KB of a run of 100k deltas (and
 * hundreds of milliseconds for a few megabytes), a pause in the middle of the stream. */
export const LIVE_SAVE_MAX_CHARS = 200_000;

/** Characters of streamed text the parts hold (text and reasoning, tool arguments): what
 * makes a run's saved copy large. Stops counting past `limit`. */
function heldChars(parts: readonly Part[], limit: number): number {
  let chars = 0;
  for (const part of parts) {
    const { text, argsText } = part as { text?: unknown; argsText?: unknown };
    if (typeof text === "string") chars += text.length;
    if (typeof argsText === "string") chars += argsText.length;
    if (chars > limit) break;
  }
  return chars;
}

/** The widget manager's own model object, as a change event hands it to listeners: its
 * `comm_live` decides whether the manager saves the model's state with the notebook. */
interface LiveFlag {
  comm_live: boolean;
  on?: (event: string, callback: () => void) => void;
  off?: (event: string, callback: () => void) => void;
}

function isLiveFlag(value: unknown): value is LiveFlag {
  return isRecord(value) && typeof value.comm_live === "boolean";
}

/** The model's entry, created on first use: the store starts from the saved `snapshot`
 * trait when there is one, so a reopened notebook shows the run without a kernel. */
function entryFor(model: WidgetModel): ModelEntry {
  const known = entries.get(model);
  if (known !== undefined) return known;

  const saved = model.get("snapshot") as SavedSnapshot;
  const plain = saved !== null && saved !== undefined && !isPacked(saved);
  const send = (up: Up) => model.send(up);
  const feed = createFeed({
    send,
    initial: plain ? fromSnapshot(saved) : emptyState(model.get("title") ?? ""),
  });
  const { store } = feed;
  const onMessage = (msg: unknown) => feed.receive(msg);
  // The manager's model, learned from the first change of the trait (Backbone passes it to
  // change listeners): see `keepSaved` below.
  let managed: LiveFlag | null = null;
  // A packed saved run is decoded only when it is ahead of what the live messages brought.
  const onSnapshot = (changed?: unknown) => {
    if (managed === null && isLiveFlag(changed)) {
      managed = changed;
      managed.on?.("comm_live_update", keepSaved);
    }
    readSaved(
      model.get("snapshot") as SavedSnapshot,
      holdsNothing(store.get()) ? -1 : store.get().seq,
      (snapshot) => store.adoptSaved(snapshot),
      (problem) => store.report(problem),
    );
  };
  if (!plain) onSnapshot();
  model.on("msg:custom", onMessage);
  model.on("change:snapshot", onSnapshot);

  // The page keeps the saved run current. The kernel writes the trait rarely (a growth
  // schedule and the end); the widget manager saves each model's state from the page's copy,
  // so the page writes what it holds into its own copy of `snapshot` (never sent to the
  // kernel) at most once a second: a notebook saved after the kernel died keeps everything
  // the page showed. Transient items are never written.
  let saveTimer: ReturnType<typeof setTimeout> | null = null;
  let writing = false;
  let wrote = false;
  let cost = 0;
  const behind = () =>
    store.get().seq > savedSeq(model.get("snapshot") as SavedSnapshot) && store.get().snapshotSeen;
  // A large run is not copied while it streams: one copy would take the main thread for
  // hundreds of milliseconds. The kernel's packed snapshot keeps it, and the page writes its
  // copy once if the kernel dies (keepSaved). Checked again when the copy is due: a run
  // small when the copy was planned may have grown by megabytes since.
  const smallEnough = () => {
    const { parts } = store.get();
    return (
      parts.length <= LIVE_SAVE_MAX_PARTS &&
      heldChars(parts, LIVE_SAVE_MAX_CHARS) <= LIVE_SAVE_MAX_CHARS
    );
  };
  /** A copy of any size is due once the one being written is done (see keepSaved). */
  let keepAfterWrite = false;
  const writeSaved = (anySize = false) => {
    saveTimer = null;
    if (!behind() || !(anySize || smallEnough())) return;
    if (writing) {
      if (anySize) keepAfterWrite = true;
      else scheduleSave();
      return;
    }
    writing = true;
    const started = Date.now();
    const state = store.get();
    // toSaved copies the state before its first await: this is the run as it is now.
    toSaved(state)
      .then(
        (value) => {
          if (savedSeq(value) > savedSeq(model.get("snapshot") as SavedSnapshot)) {
            model.set("snapshot", value);
            wrote = true;
          }
        },
        (error: unknown) => store.report(`the run could not be kept for saving (${String(error)})`),
      )
      .finally(() => {
        writing = false;
        cost = Date.now() - started;
        if (keepAfterWrite) {
          keepAfterWrite = false;
          writeSaved(true);
        }
      });
  };
  const scheduleSave = () => {
    if (saveTimer !== null || !behind() || !smallEnough()) return;
    // The first write comes at once (it also tells the page the manager's model); later
    // ones at most once a second, and rarer when writing a large run takes long.
    saveTimer = setTimeout(writeSaved, wrote ? Math.max(SAVE_EVERY_MS, 20 * cost) : 0);
  };
  // The manager leaves out of the saved state every model whose kernel connection it marked
  // dead (when the kernel restarts, after dying or on request). A run this page holds is
  // kept in it: what the page shows is what the file keeps.
  const keepSaved = () => {
    if (managed === null || managed.comm_live || store.get().seq <= 0) return;
    if (saveTimer !== null) clearTimeout(saveTimer);
    writeSaved(true);
    managed.comm_live = true;
  };

  const stopWatching = store.subscribe(scheduleSave);
  const libraries = followModelLibraries(
    model,
    () => send({ kind: "libraries" }),
    (problem) => store.report(problem),
  );

  const entry: ModelEntry = {
    store,
    send,
    views: new PlacedViews(),
    libraries,
    saidReady: -1,
    fetchHeld: feed.fetchHeld,
    wantRows: () => feed.wantRows(),
    dispose() {
      feed.dispose();
      model.off("msg:custom", onMessage);
      model.off("change:snapshot", onSnapshot);
      managed?.off?.("comm_live_update", keepSaved);
      if (saveTimer !== null) clearTimeout(saveTimer);
      stopWatching();
      libraries.dispose();
      entries.set(model, null);
    },
  };
  entries.set(model, entry);
  return entry;
}

/** Tell the kernel this page is here, and which batch it holds when it has followed them
 * from the first (the kernel then answers `synced` rather than with a snapshot); once per
 * batch held, however many views and timers ask. */
function sayReady(entry: ModelEntry): void {
  const have = entry.store.get().seq;
  if (have === entry.saidReady) return;
  entry.saidReady = have;
  entry.send({ kind: "ready", have });
}

function initialize({ model }: InitializeProps<Model>): () => void {
  const entry = entryFor(model);
  // Batches the kernel sent before this module loaded are delivered right after this call
  // returns: say ready once they are applied, so that the answer need not repeat them. A view
  // drawn in the meantime has said it already, unless more batches came since.
  const timer = setTimeout(() => sayReady(entry), 0);
  return () => {
    clearTimeout(timer);
    entry.dispose();
  };
}

/**
 * Draw a view of the model in `el`; a view JupyterLab left off the page when it drew the
 * output again is moved here instead (see host/placed.ts).
 */
function render({ model, el }: RenderProps<Model>): () => void {
  const entry = entryFor(model);
  if (!entry.store.get().snapshotSeen) sayReady(entry);
  entry.libraries.drawn();
  return entry.views.place(el, () =>
    mountApp(el, {
      store: entry.store,
      onStop: () => entry.send({ kind: "stop" }),
      fallbackTitle: () => model.get("title") ?? "",
      mountTimeline,
      mountInspector,
      pastState: viewAt,
      fetchHeld: entry.fetchHeld,
      wantRows: () => entry.wantRows(),
      // The first view of a run in this page is the one a reader waits for.
      sketchFirst: entry.views.size === 0,
    }),
  );
}

export default { initialize, render };
