/**
 * One view of a StreamView: header with tabs (Transcript | Timeline | Chunks), status bar,
 * live activity strip and the panels. Every view of a model draws from the same store but
 * keeps its own selection, scrub time and open tab.
 */

import { relayWholeRequests } from "../held/relay";
import type { FetchHeld } from "../held/values";
import type { Store } from "../model/store";
import { mountActivity } from "./activity";
import { gateWhileDetached } from "./attached";
import { activeElementFor, h, setText } from "./dom";
import { createFindBar } from "./find";
import { sketchable, sketchFirstWords } from "./first-words";
import { createShared, type MountPanel, type PanelContext } from "./panel";
import { mountStatus } from "./status";
import { mountTranscript, type PastState, type TranscriptHandle } from "./transcript/view";

export type TabName = "transcript" | "timeline" | "chunks";

/** What a view needs from its surroundings. */
export interface AppOptions {
  /** The model's store. */
  store: Store;
  /** Called when the user presses Stop. */
  onStop: () => void;
  /** The widget's `title` trait, used when the run has no title of its own. */
  fallbackTitle: () => string;
  /** Draws the Timeline panel. */
  mountTimeline: MountPanel;
  /** Draws the Chunks panel. */
  mountInspector: MountPanel;
  /** Builds a past state while scrubbing. */
  pastState: PastState;
  /** Fetches the whole value of a field the kernel held back; absent where no kernel is. */
  fetchHeld?: FetchHeld;
  /** Asks the kernel for the inspector rows, which it sends only to a page that needs them
   * (the Chunks tab, and scrubbing, which counts chunks); absent where no kernel is. */
  wantRows?: () => void;
  /** Draw the run's first words before building the view, when the run so far is plain text
   * (see first-words.ts): for the first view of a run in a page, which no one has seen. */
  sketchFirst?: boolean;
}

/** A mounted view. */
export interface AppHandle {
  /** The view's own element (what `mountApp` put into the element it was handed). */
  el: HTMLElement;
  /** Whether the view has been in the page since it was mounted. */
  wasShown(): boolean;
  /** Put the view into `el` as it stands (tab, scroll position, selection, search kept). */
  moveTo(el: HTMLElement): void;
  /** The panel context the panels share. */
  ctx: PanelContext;
  /** Show a tab. */
  show(tab: TabName): void;
  /** Remove the view and stop listening. */
  unmount(): void;
}

let viewCount = 0;

const TABS: [TabName, string][] = [
  ["transcript", "Transcript"],
  ["timeline", "Timeline"],
  ["chunks", "Chunks"],
];

export function mountApp(el: HTMLElement, options: AppOptions): AppHandle {
  viewCount += 1;
  const prefix = `cs-view-${viewCount}`;
  const root = h("div", "chunkscope");
  root.setAttribute("role", "region");
  el.append(root);
  // Everything below draws from the gated store: a view taken off the page stops drawing.
  const gate = gateWhileDetached(options.store, root);
  const { store } = gate;
  const titleOf = () => store.get().run.title || options.fallbackTitle() || "StreamView";

  const ctx: PanelContext = {
    store,
    selection: createShared<string | null>(null),
    scrubTime: createShared<number | null>(null),
    scrollToPart(partId) {
      const view = built();
      view.show("transcript");
      ctx.selection.set(partId);
      view.transcript.scrollTo(partId);
    },
  };

  let view: BuiltView | null = null;
  let dropSketch: (() => void) | null = null;
  const built = (): BuiltView => {
    if (view === null) {
      dropSketch?.();
      dropSketch = null;
      view = buildView(root, prefix, ctx, titleOf, options);
    }
    return view;
  };
  if (options.sketchFirst === true && sketchable(store.get())) {
    dropSketch = sketchFirstWords(root, store, titleOf, built);
  } else {
    built();
  }

  return {
    el: root,
    wasShown: gate.wasShown,
    moveTo(el) {
      el.append(root);
      gate.back();
      view?.transcript.moved();
    },
    ctx,
    show: (tab) => built().show(tab),
    unmount() {
      dropSketch?.();
      view?.unmount();
      gate.dispose();
      root.remove();
    },
  };
}

/** A view's contents, once built. */
interface BuiltView {
  transcript: TranscriptHandle;
  show(tab: TabName): void;
  unmount(): void;
}

/** Build the header, find bar, status bar, activity strip and panels into `root`. */
function buildView(
  root: HTMLElement,
  prefix: string,
  ctx: PanelContext,
  titleOf: () => string,
  options: AppOptions,
): BuiltView {
  const { store } = ctx;
  const header = h("div", "cs-header");
  const title = h("span", "cs-title");
  title.id = `${prefix}-title`;
  root.setAttribute("aria-labelledby", title.id);
  const tabBar = h("div", "cs-tabs");
  tabBar.setAttribute("role", "tablist");
  tabBar.setAttribute("aria-label", "Views of the run");
  const findButton = h("button", "cs-find-open", "Find");
  findButton.type = "button";
  findButton.setAttribute("aria-keyshortcuts", "Control+F Meta+F");
  findButton.title = "Find in the run (Ctrl/Cmd-F)";
  header.append(title, tabBar, findButton);
  const statusSlot = h("div");
  const activitySlot = h("div");
  const panelsEl = h("div", "cs-panels");
  root.append(header, statusSlot, activitySlot, panelsEl);

  const panels = new Map<TabName, HTMLElement>();
  const buttons = new Map<TabName, HTMLButtonElement>();
  const cleanups: (() => void)[] = [];
  const mounted = new Set<TabName>();

  for (const [name, label] of TABS) {
    const button = h("button", "cs-tab", label);
    button.type = "button";
    button.id = `${prefix}-tab-${name}`;
    button.setAttribute("role", "tab");
    button.setAttribute("aria-controls", `${prefix}-panel-${name}`);
    button.addEventListener("click", () => show(name));
    tabBar.append(button);
    buttons.set(name, button);
    const panel = h("div", `cs-panel cs-panel-${name}`);
    panel.id = `${prefix}-panel-${name}`;
    panel.setAttribute("role", "tabpanel");
    panel.setAttribute("aria-labelledby", button.id);
    panelsEl.append(panel);
    panels.set(name, panel);
  }
  // Arrow keys move between the tabs (and show them), Home and End go to the ends.
  tabBar.addEventListener("keydown", (event) => {
    const names = TABS.map(([name]) => name);
    const active = activeElementFor(tabBar);
    const at = names.findIndex((name) => buttons.get(name) === active);
    if (at < 0) return;
    let to = at;
    if (event.key === "ArrowRight") to = (at + 1) % names.length;
    else if (event.key === "ArrowLeft") to = (at - 1 + names.length) % names.length;
    else if (event.key === "Home") to = 0;
    else if (event.key === "End") to = names.length - 1;
    else return;
    event.preventDefault();
    const name = names[to] as TabName;
    show(name);
    buttons.get(name)?.focus();
  });

  const find = createFindBar(root, ctx, () => findButton.focus());
  header.after(find.el);
  findButton.addEventListener("click", () => find.open());
  root.addEventListener("keydown", (event) => {
    if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === "f") {
      event.preventDefault();
      event.stopPropagation();
      find.open();
    }
  });
  cleanups.push(() => find.dispose());

  const transcript = mountTranscript(
    panels.get("transcript") as HTMLElement,
    ctx,
    options.pastState,
  );
  mounted.add("transcript");
  cleanups.push(() => transcript.unmount());

  function show(tab: TabName): void {
    for (const [name, panel] of panels) {
      panel.hidden = name !== tab;
      const button = buttons.get(name);
      button?.setAttribute("aria-selected", String(name === tab));
      button?.setAttribute("tabindex", name === tab ? "0" : "-1");
    }
    if (tab === "chunks") options.wantRows?.();
    // Timeline and Chunks are only built once someone looks at them.
    if (!mounted.has(tab)) {
      mounted.add(tab);
      const mount = tab === "timeline" ? options.mountTimeline : options.mountInspector;
      try {
        cleanups.push(mount(panels.get(tab) as HTMLElement, ctx));
      } catch (error) {
        (panels.get(tab) as HTMLElement).append(
          h("div", "cs-part cs-level-error", `The ${tab} panel failed to draw: ${String(error)}`),
        );
      }
    }
  }
  show("transcript");
  cleanups.push(
    ctx.scrubTime.subscribe((t) => {
      if (t !== null) options.wantRows?.();
    }),
  );

  if (options.fetchHeld !== undefined) cleanups.push(relayWholeRequests(root, options.fetchHeld));
  cleanups.push(mountStatus(statusSlot, store, options.onStop));
  cleanups.push(mountActivity(activitySlot, store));
  const drawTitle = () => setText(title, titleOf());
  drawTitle();
  cleanups.push(store.subscribe(drawTitle));

  return {
    transcript,
    show,
    unmount() {
      for (const cleanup of cleanups.reverse()) cleanup();
    },
  };
}
