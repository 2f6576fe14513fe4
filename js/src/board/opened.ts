/**
 * The pane under the table that shows the opened run in full: the same app a StreamView
 * draws (transcript, timeline, chunks), on the opened run's store. A run neither a kernel
 * nor the saved board has is explained instead, until a kernel sends it.
 */
import { viewAt } from "../model/scrub";
import { type AppHandle, mountApp } from "../views/app";
import { h, setText } from "../views/dom";
import { mountInspector } from "../views/inspector/view";
import { mountTimeline } from "../views/timeline/view";
import { notKeptMessage } from "./kept";
import type { BoardSource, BoardState, OpenedRun } from "./source";

let panes = 0;
const nextPane = () => {
  panes += 1;
  return panes;
};

export class OpenedPane {
  readonly el = h("section", "cs-board-pane cs-board-opened");
  private readonly heading = h("span", "cs-board-pane-title");
  private readonly close = h("button", "cs-board-close", "Close");
  private readonly body = h("div", "cs-board-pane-body");
  private shown: OpenedRun | null = null;
  private app: AppHandle | null = null;
  private message: HTMLElement | null = null;

  constructor(private readonly source: BoardSource) {
    this.heading.id = `cs-board-opened-${nextPane()}`;
    this.el.setAttribute("aria-labelledby", this.heading.id);
    this.close.type = "button";
    this.close.addEventListener("click", () => source.open(null));
    const bar = h("div", "cs-board-pane-bar");
    bar.append(this.heading, this.close);
    this.el.append(bar, this.body);
    this.el.hidden = true;
  }

  /** Show what `state` has opened; returns whether a different run is shown now. */
  sync(state: BoardState): boolean {
    const opened = state.opened;
    const changed = opened !== this.shown;
    if (changed) {
      this.clear();
      this.shown = opened;
    }
    if (this.el.hidden !== (opened === null)) this.el.hidden = opened === null;
    if (opened === null) return changed;
    const row = state.table.byId.get(opened.id);
    const label = row?.label ?? opened.id;
    setText(this.heading, `Run ${label}`);
    this.close.setAttribute("aria-label", `Close run ${label}`);
    if (opened.from === "summary") {
      if (this.message === null) {
        this.message = h("p", "cs-board-note");
        this.body.append(this.message);
      }
      setText(this.message, notKeptMessage(row, state.saved));
    } else if (this.app === null) {
      this.message?.remove();
      this.message = null;
      const { feed } = opened;
      this.app = mountApp(this.body, {
        store: feed.store,
        onStop: () => this.source.stop(opened.id),
        fallbackTitle: () => label,
        mountTimeline,
        mountInspector,
        pastState: viewAt,
        fetchHeld: feed.fetchHeld,
        wantRows: () => feed.wantRows(),
      });
    }
    return changed;
  }

  /** The opened run's app was moved with the board: let it restore its scroll position. */
  moved(): void {
    this.app?.moveTo(this.body);
  }

  unmount(): void {
    this.clear();
    this.el.remove();
  }

  private clear(): void {
    this.app?.unmount();
    this.app = null;
    this.message?.remove();
    this.message = null;
  }
}
