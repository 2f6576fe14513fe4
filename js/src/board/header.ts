/**
 * The board's header: its title, the count of runs in each status (each a toggle that
 * filters the table to the statuses pressed), the text filter, how many rows are shown,
 * Compare (once two runs are picked) and Stop all (while any run goes on and a kernel is
 * there to stop it).
 */
import type { BoardStatus } from "../model/wire";
import { formatNumber } from "../util";
import { h, placeChildren, setText } from "../views/dom";

export interface HeaderActions {
  toggleStatus(status: BoardStatus): void;
  filterText(text: string): void;
  compare(): void;
  stopAll(): void;
}

export interface HeaderContent {
  title: string;
  counts: ReadonlyMap<BoardStatus, number>;
  pressed: ReadonlySet<BoardStatus>;
  shown: number;
  total: number;
  picked: number;
  canStop: boolean;
}

export class BoardHeader {
  readonly el = h("div", "cs-header cs-board-header");
  readonly title = h("span", "cs-title");
  private readonly counts = h("div", "cs-board-counts");
  private readonly filter = h("input", "cs-board-filter");
  private readonly shown = h("span", "cs-board-shown");
  private readonly compareButton = h("button", "cs-board-compare", "Compare");
  private readonly stopAll = h("button", "cs-stop cs-board-stop-all", "■ Stop all");
  private readonly statusButtons = new Map<BoardStatus, HTMLButtonElement>();

  constructor(private readonly actions: HeaderActions) {
    this.counts.setAttribute("role", "group");
    this.counts.setAttribute("aria-label", "Runs by status (press to show only those)");
    this.filter.type = "search";
    this.filter.placeholder = "Filter runs";
    this.filter.setAttribute("aria-label", "Filter runs by label, text, error, tripwire or finish");
    this.filter.addEventListener("input", () => actions.filterText(this.filter.value));
    this.shown.setAttribute("aria-live", "polite");
    this.compareButton.type = "button";
    this.compareButton.title = "Compare the two runs picked";
    this.compareButton.addEventListener("click", () => actions.compare());
    this.stopAll.type = "button";
    this.stopAll.title = "Stop every run; queued runs never start";
    this.stopAll.addEventListener("click", () => actions.stopAll());
    this.el.append(
      this.title,
      this.counts,
      this.filter,
      this.shown,
      this.compareButton,
      this.stopAll,
    );
  }

  draw(content: HeaderContent): void {
    setText(this.title, content.title || "Runs");
    // A status pressed stays listed when no run has it any more, so it can be let go.
    const statuses = [...content.counts.keys()];
    for (const status of content.pressed) if (!content.counts.has(status)) statuses.push(status);
    const buttons = statuses.map((status) => {
      const button = this.statusButton(status);
      const count = content.counts.get(status) ?? 0;
      setText(button, `${status.replace(/-/g, " ")} ${formatNumber(count)}`);
      const pressed = String(content.pressed.has(status));
      if (button.getAttribute("aria-pressed") !== pressed)
        button.setAttribute("aria-pressed", pressed);
      return button;
    });
    placeChildren(this.counts, buttons);
    setText(
      this.shown,
      content.shown === content.total
        ? `${formatNumber(content.total)} runs`
        : `${formatNumber(content.shown)} of ${formatNumber(content.total)} runs`,
    );
    if (this.compareButton.disabled !== (content.picked !== 2))
      this.compareButton.disabled = content.picked !== 2;
    setText(
      this.compareButton,
      content.picked === 2 ? "Compare" : `Compare (pick ${2 - content.picked})`,
    );
    if (this.stopAll.hidden !== !content.canStop) this.stopAll.hidden = !content.canStop;
  }

  private statusButton(status: BoardStatus): HTMLButtonElement {
    let button = this.statusButtons.get(status);
    if (button === undefined) {
      button = h("button", `cs-badge cs-bstatus cs-state-${status.replace(/[^a-z0-9-]/gi, "_")}`);
      button.type = "button";
      button.title = `Show only ${status.replace(/-/g, " ")} runs (press again to show all)`;
      button.addEventListener("click", () => this.actions.toggleStatus(status));
      this.statusButtons.set(status, button);
    }
    return button;
  }
}
