/**
 * The pane that shows the comparison of the two runs picked: the kernel's HTML, sanitized,
 * or why there is none.
 */
import { h, setText } from "../views/dom";
import { librariesReady, whenLibraries } from "../views/libraries";
import { sanitizeComparison } from "./sanitize";
import type { BoardSource, BoardState, Comparison } from "./source";

/** What the pane says when no kernel is there to compare. */
let panes = 0;
const nextPane = () => {
  panes += 1;
  return panes;
};

export const COMPARE_NEEDS_KERNEL =
  "Comparing two runs needs the kernel that ran the cell: run it again to compare them.";

export class ComparisonPane {
  readonly el = h("section", "cs-board-pane cs-board-comparison");
  private readonly heading = h("span", "cs-board-pane-title");
  private readonly close = h("button", "cs-board-close", "Close");
  private readonly body = h("div", "cs-board-pane-body");
  private shown: Comparison | null = null;

  constructor(source: BoardSource) {
    this.heading.id = `cs-board-comparison-${nextPane()}`;
    this.el.setAttribute("aria-labelledby", this.heading.id);
    this.close.type = "button";
    this.close.setAttribute("aria-label", "Close the comparison");
    this.close.addEventListener("click", () => source.closeComparison());
    const bar = h("div", "cs-board-pane-bar");
    bar.append(this.heading, this.close);
    this.el.append(bar, this.body);
    this.el.hidden = true;
  }

  /** Show the comparison of `state`; returns whether it changed. */
  sync(state: BoardState): boolean {
    const comparison = state.comparison;
    if (comparison === this.shown) return false;
    this.shown = comparison;
    if (this.el.hidden !== (comparison === null)) this.el.hidden = comparison === null;
    if (comparison === null) {
      this.body.replaceChildren();
      return true;
    }
    const label = (id: string) => state.table.byId.get(id)?.label ?? id;
    setText(this.heading, `Comparing ${label(comparison.a)} and ${label(comparison.b)}`);
    this.body.replaceChildren(this.content(comparison));
    return true;
  }

  private content(comparison: Comparison): Node {
    if (comparison.state === "waiting") return h("p", "cs-board-note", "Comparing…");
    if (comparison.state === "no-kernel") return h("p", "cs-board-note", COMPARE_NEEDS_KERNEL);
    if (comparison.error !== null)
      return h("p", "cs-error-text", `The runs could not be compared: ${comparison.error}`);
    if (!librariesReady()) {
      // The sanitizer comes with the markdown libraries, which the board's page receives
      // when first needed: this is shown again once they are here.
      void whenLibraries().then(() => {
        if (this.shown === comparison) this.body.replaceChildren(this.content(comparison));
      });
      return h("p", "cs-board-note", "Comparing…");
    }
    const fragment = sanitizeComparison(comparison.html);
    if (fragment === null)
      return h("p", "cs-board-note", "This page cannot show the comparison safely.");
    return fragment;
  }
}
