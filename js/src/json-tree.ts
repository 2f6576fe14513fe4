/**
 * A collapsible JSON tree built from text nodes only (values are untrusted). Children are
 * built when a node is opened, long arrays/objects and long strings show a slice with a
 * "show more" control, so even a 10 MB value draws in bounded time.
 */

/** Entries of an array or object shown at first, and added per "show more". */
export const ENTRY_PAGE = 100;
/** Characters of a string shown at first. */
export const STRING_PREVIEW = 400;
/** Characters added per "show more" on a string. */
export const STRING_PAGE = 20_000;

export interface JsonTreeOptions {
  /** Containers at a depth below this start open (0 = everything closed). */
  openDepth?: number;
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

  constructor(value: unknown, options: JsonTreeOptions = {}) {
    this.openDepth = options.openDepth ?? 1;
    this.el = document.createElement("div");
    this.el.className = "cs-json";
    this.update(value);
  }

  /** Redraw with a new value. Cost is bounded by what is open and shown. */
  update(value: unknown): void {
    this.el.replaceChildren(this.node(undefined, value, "$", 0));
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

  private container(row: HTMLElement, key: string | undefined, value: object, path: string, depth: number): void {
    const isArray = Array.isArray(value);
    const keys = isArray ? null : Object.keys(value);
    const size = isArray ? (value as unknown[]).length : (keys as string[]).length;
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
    const count = Math.min(size, limit);
    for (let k = 0; k < count; k++) {
      const childKey = isArray ? String(k) : (keys as string[])[k] ?? "";
      const child = isArray ? (value as unknown[])[k] : (value as Record<string, unknown>)[childKey];
      body.append(this.node(childKey, child, `${path}/${escapeKey(childKey)}`, depth + 1));
    }
    if (size > count) {
      body.append(
        moreButton(`show ${Math.min(ENTRY_PAGE, size - count)} more of ${size - count}`, () => {
          this.shown.set(path, count + ENTRY_PAGE);
          this.redrawRow(row, key, value, path, depth);
        }),
      );
    }
    row.append(body);
  }

  private redrawRow(row: HTMLElement, key: string | undefined, value: unknown, path: string, depth: number): void {
    row.replaceWith(this.node(key, value, path, depth));
  }

  private scalar(value: unknown, path: string): HTMLElement {
    const span = document.createElement("span");
    if (typeof value === "string") {
      span.className = "cs-json-string";
      const limit = this.shown.get(path) ?? STRING_PREVIEW;
      if (value.length <= limit) {
        span.textContent = JSON.stringify(value);
        return span;
      }
      span.textContent = `${JSON.stringify(value.slice(0, limit)).slice(0, -1)}…`;
      const wrap = document.createElement("span");
      wrap.append(
        span,
        moreButton(`show more (${value.length - limit} more chars)`, () => {
          this.shown.set(path, limit + STRING_PAGE);
          wrap.replaceWith(this.scalar(value, path));
        }),
      );
      return wrap;
    }
    span.className = `cs-json-${value === null ? "null" : typeof value}`;
    span.textContent = value === undefined ? "undefined" : typeof value === "bigint" ? `${value}n` : String(value);
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
