/**
 * A collapsible JSON tree built from text nodes only (values are untrusted). Children are
 * built when a node is opened, long arrays/objects and long strings show a slice with a
 * "show more" control, so even a 10 MB value draws in bounded time.
 *
 * The value may be a preview of a larger one the kernel holds back (docs/wire.md, "Held
 * fields"): the tree then shows the full sizes, and asks for the whole value once when the
 * user wants more than the preview has.
 */
import { type LoadStatus, loadingLabel, type ReportLoad } from "../held/values";
import { PREVIEW_ENTRIES, PREVIEW_STRING } from "../model/wire";
import { copyButton, copyText } from "./copy";

/** Entries of an array or object shown at first, and added per "show more": what a held
 * field's preview keeps, so the first page never needs the kernel. */
export const ENTRY_PAGE = PREVIEW_ENTRIES;
/** Characters of a string shown at first: what a held field's preview keeps. */
export const STRING_PREVIEW = PREVIEW_STRING;
/** Characters added per "show more" on a string. */
export const STRING_PAGE = 20_000;

export interface JsonTreeOptions {
  /** Containers at a depth below this start open (0 = everything closed). */
  openDepth?: number;
  /** What the copy button names ("Copy <copy>"); false for no button. */
  copy?: string | false;
}

/** What the tree knows of a value it was handed only a preview of. */
export interface HeldView {
  /** Names this preview: a new token is a new value. */
  token: number;
  /** Bytes of the whole value's JSON. */
  size: number;
  /** Tree path → full length of each string, array or object the preview shortened. */
  lengths: Readonly<Record<string, number>>;
  /** Ask for the whole value; how it goes is reported to `report`. */
  fetchWhole(report: ReportLoad): void;
}

/** A JSON tree whose value can be replaced; open nodes and "show more" counts survive. */
export class JsonTree {
  /** The tree's root element. */
  readonly el: HTMLElement;
  private readonly openDepth: number;
  /** Paths the user opened or closed, overriding `openDepth`. */
  private readonly toggled = new Map<string, boolean>();
  /** Paths → how many entries / characters the user asked to see. */
  private readonly shown = new Map<string, number>();
  private value: unknown = undefined;
  private held: HeldView | null = null;
  /** How the fetch of the whole value goes, for the current `held` token. */
  private load: LoadStatus | null = null;
  /** Controls drawn as "loading…", relabelled as pieces arrive. */
  private loadingButtons: HTMLButtonElement[] = [];
  /** Where the rows go (the copy button sits beside them). */
  private readonly body: HTMLElement;
  /** Copies waiting for the whole value of a held field. */
  private copies: { resolve(text: string): void; reject(error: Error): void }[] = [];

  constructor(value: unknown, options: JsonTreeOptions = {}) {
    this.openDepth = options.openDepth ?? 1;
    this.el = document.createElement("div");
    this.el.className = "cs-json";
    this.body = document.createElement("div");
    this.body.className = "cs-json-body";
    const copy = options.copy ?? "value";
    if (copy !== false) {
      const button = copyButton(copy, () => this.wholeText());
      button.classList.add("cs-json-copy");
      this.el.append(button);
    }
    this.el.append(this.body);
    this.update(value);
  }

  /** The whole value as copied text; a held value is fetched from the kernel first. */
  wholeText(): Promise<string> {
    if (this.held === null) return Promise.resolve(copyText(this.value));
    return new Promise((resolve, reject) => {
      this.copies.push({ resolve, reject });
      this.fetchWhole();
    });
  }

  /** Redraw with a new value (a preview when `held` is given). Cost is bounded by what is
   * open and shown. */
  update(value: unknown, held: HeldView | null = null): void {
    if (held?.token !== this.held?.token) this.load = null;
    this.value = value;
    this.held = held;
    if (held === null && this.copies.length > 0) {
      const text = copyText(value);
      for (const copy of this.copies.splice(0)) copy.resolve(text);
    }
    this.redraw();
  }

  private redraw(): void {
    this.loadingButtons = [];
    this.body.replaceChildren(this.node(undefined, this.value, "$", 0));
  }

  /** The full length at `path`: the held one when the preview shortened it. */
  private fullLength(path: string, previewLength: number): number {
    const full = this.held?.lengths[path];
    return typeof full === "number" && full > previewLength ? full : previewLength;
  }

  /** Ask for the whole value, unless a fetch is already under way. */
  private fetchWhole(): void {
    const held = this.held;
    if (held === null || this.load?.state === "loading") return;
    this.load = { state: "loading", received: 0, total: held.size };
    held.fetchWhole((status) => {
      if (this.held?.token !== held.token) return; // the tree moved on to another value
      const wasLoading = this.load?.state === "loading";
      this.load = status;
      if (status.state === "failed") {
        for (const copy of this.copies.splice(0)) copy.reject(new Error(status.message));
      }
      if (status.state === "loading" && wasLoading) {
        for (const button of this.loadingButtons)
          button.textContent = loadingLabel(status.received, status.total);
      } else {
        this.redraw();
      }
    });
  }

  /** A "show more" control; `waiting` when the node wants more than the preview holds, so
   * it shows how the fetch of the whole value goes. */
  private moreControl(label: string, waiting: boolean, onClick: () => void): HTMLElement {
    const button = moreButton(label, onClick);
    const load = this.load;
    if (!waiting || load === null) return button;
    if (load.state === "loading") {
      button.textContent = loadingLabel(load.received, load.total);
      button.disabled = true;
      this.loadingButtons.push(button);
      return button;
    }
    const wrap = document.createElement("span");
    const problem = document.createElement("span");
    problem.className = "cs-error-text";
    problem.textContent = ` could not load the rest: ${load.message}`;
    wrap.append(button, problem);
    return wrap;
  }

  private isOpen(path: string, depth: number): boolean {
    return this.toggled.get(path) ?? depth < this.openDepth;
  }

  private node(key: string | undefined, value: unknown, path: string, depth: number): HTMLElement {
    const row = document.createElement("div");
    row.className = "cs-json-row";
    if (value !== null && typeof value === "object") {
      this.container(row, key, value as object, path, depth);
    } else {
      if (key !== undefined) row.append(keyLabel(key));
      row.append(this.scalar(value, path));
    }
    return row;
  }

  private container(
    row: HTMLElement,
    key: string | undefined,
    value: object,
    path: string,
    depth: number,
  ): void {
    const isArray = Array.isArray(value);
    const keys = isArray ? null : Object.keys(value);
    const available = isArray ? (value as unknown[]).length : (keys as string[]).length;
    const size = this.fullLength(path, available);
    const open = this.isOpen(path, depth) && size > 0;
    const toggle = document.createElement("button");
    toggle.type = "button";
    toggle.className = "cs-json-toggle";
    toggle.setAttribute("aria-expanded", String(open));
    toggle.textContent = size === 0 ? "·" : open ? "▾" : "▸";
    toggle.disabled = size === 0;
    const head = document.createElement("span");
    head.className = "cs-json-head";
    if (key !== undefined) head.append(keyLabel(key));
    const summary = document.createElement("span");
    summary.className = "cs-json-summary";
    summary.textContent = isArray ? `[${size}]` : `{${size}}`;
    head.append(summary);
    row.append(toggle, head);
    toggle.addEventListener("click", () => {
      this.toggled.set(path, !open);
      this.redrawRow(row, key, value, path, depth);
    });
    if (!open) return;
    const body = document.createElement("div");
    body.className = "cs-json-children";
    const limit = this.shown.get(path) ?? ENTRY_PAGE;
    const count = Math.min(available, limit);
    for (let k = 0; k < count; k++) {
      const childKey = isArray ? String(k) : ((keys as string[])[k] ?? "");
      const child = isArray
        ? (value as unknown[])[k]
        : (value as Record<string, unknown>)[childKey];
      body.append(this.node(childKey, child, `${path}/${escapeKey(childKey)}`, depth + 1));
    }
    if (size > count) {
      const label = `show ${Math.min(ENTRY_PAGE, size - count)} more of ${size - count}`;
      const waiting = count < Math.min(limit, size);
      body.append(
        this.moreControl(label, waiting, () => {
          this.shown.set(path, count + ENTRY_PAGE);
          if (size > available && count + ENTRY_PAGE > available) this.fetchWhole();
          this.redrawRow(row, key, value, path, depth);
        }),
      );
    }
    row.append(body);
  }

  private redrawRow(
    row: HTMLElement,
    key: string | undefined,
    value: unknown,
    path: string,
    depth: number,
  ): void {
    row.replaceWith(this.node(key, value, path, depth));
  }

  private scalar(value: unknown, path: string): HTMLElement {
    const span = document.createElement("span");
    if (typeof value === "string") {
      span.className = "cs-json-string";
      const full = this.fullLength(path, value.length);
      const limit = this.shown.get(path) ?? STRING_PREVIEW;
      const visible = Math.min(limit, value.length);
      if (visible >= full) {
        span.textContent = JSON.stringify(value);
        return span;
      }
      span.textContent = `${JSON.stringify(value.slice(0, visible)).slice(0, -1)}…`;
      const wrap = document.createElement("span");
      const waiting = visible < Math.min(limit, full);
      wrap.append(
        span,
        this.moreControl(`show more (${full - visible} more chars)`, waiting, () => {
          this.shown.set(path, limit + STRING_PAGE);
          if (full > value.length && limit + STRING_PAGE > value.length) this.fetchWhole();
          wrap.replaceWith(this.scalar(value, path));
        }),
      );
      return wrap;
    }
    span.className = `cs-json-${value === null ? "null" : typeof value}`;
    span.textContent =
      value === undefined ? "undefined" : typeof value === "bigint" ? `${value}n` : String(value);
    return span;
  }
}

function keyLabel(key: string): HTMLElement {
  const span = document.createElement("span");
  span.className = "cs-json-key";
  span.textContent = `${key}: `;
  return span;
}

function moreButton(label: string, onClick: () => void): HTMLButtonElement {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "cs-more";
  button.textContent = label;
  button.addEventListener("click", onClick);
  return button;
}

function escapeKey(key: string): string {
  return key.replace(/~/g, "~0").replace(/\//g, "~1");
}
