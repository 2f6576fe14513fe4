/**
 * Building blocks shared by the part views: a state badge, a collapsible JSON section
 * that only builds its tree while open, the tree's view of a held field, and a collapsible
 * whose open state follows the stream until the user clicks it.
 */

import { requestWhole } from "../../held/relay";
import { heldEntry } from "../../held/values";
import type { Part } from "../../model/wire";
import { h, setText } from "../dom";
import { type HeldView, JsonTree } from "../json-tree";

/** What a JSON tree needs to show `part`'s `field` when the kernel held it back (null when
 * the field is whole); a fetch is asked for from `origin` (see held/relay.ts). */
export function heldView(part: Part, field: string, origin: Element): HeldView | null {
  const entry = heldEntry(part, field);
  if (entry === null) return null;
  const { token, size, lengths } = entry;
  return {
    token,
    size,
    lengths,
    fetchWhole: (report) => requestWhole(origin, { part: part.id, field, token, size }, report),
  };
}

/** A small label whose colour follows the state (`cs-state-<state>` in the CSS). */
/** The class that gives a badge its state's colour. */
export function stateClass(state: string): string {
  return `cs-state-${state.replace(/[^a-z0-9-]/gi, "_")}`;
}

/** A state as a badge reads it: dashes as spaces ("input-streaming" → "input streaming"). */
export function stateLabel(state: string): string {
  return state.replace(/-/g, " ");
}

export class Badge {
  /** The badge element. */
  readonly el = h("span", "cs-badge");
  private current: string | null = null;

  /** Show `state` (dashes read as spaces: "input-streaming" → "input streaming"). */
  set(state: string | null | undefined): void {
    const value = state ?? "";
    if (value === this.current) return;
    this.current = value;
    this.el.className = `cs-badge ${stateClass(value)}`;
    setText(this.el, stateLabel(value));
    this.el.hidden = value === "";
  }
}

/** A `<details>` holding a JSON tree, hidden while the value is null or undefined. */
export class TreeSection {
  /** The `<details>` element. */
  readonly el = h("details", "cs-section");
  private readonly summary = h("summary");
  private tree: JsonTree | null = null;
  private value: unknown = undefined;
  private held: HeldView | null = null;
  private drawn: unknown = undefined;
  private drawnToken: number | undefined = undefined;

  constructor(
    label: string,
    open = false,
    private readonly openDepth = 1,
    private readonly copy: string = label,
  ) {
    this.summary.textContent = label;
    this.el.open = open;
    this.el.append(this.summary);
    this.el.hidden = true;
    this.el.addEventListener("toggle", () => this.draw());
  }

  /** The label in the summary line. */
  setLabel(label: string): void {
    setText(this.summary, label);
  }

  /** Show `value` (a preview of a held value when `held` is given); the tree is (re)built
   * only while the section is open. */
  set(value: unknown, held: HeldView | null = null): void {
    this.value = value;
    this.held = held;
    this.el.hidden = value === null || value === undefined;
    this.draw();
  }

  private draw(): void {
    if (!this.el.open || this.el.hidden) return;
    if (this.drawn === this.value && this.drawnToken === this.held?.token) return;
    this.drawn = this.value;
    this.drawnToken = this.held?.token;
    if (this.tree === null) {
      this.tree = new JsonTree(null, { openDepth: this.openDepth, copy: this.copy });
      this.el.append(this.tree.el);
    }
    this.tree.update(this.value, this.held);
  }
}

/**
 * A `<details>` that is open while its content streams and closes when it ends, unless the
 * user has opened or closed it by hand, which wins from then on.
 */
export class FollowingDetails {
  /** The `<details>` element. */
  readonly el: HTMLDetailsElement;
  /** The summary line. */
  readonly summary = h("summary");
  private userChose = false;

  constructor(className: string) {
    this.el = h("details", className);
    this.el.append(this.summary);
    this.summary.addEventListener("click", () => {
      this.userChose = true;
    });
  }

  /** Open while `streaming`, unless the user decided. */
  follow(streaming: boolean): void {
    if (!this.userChose && this.el.open !== streaming) this.el.open = streaming;
  }
}
