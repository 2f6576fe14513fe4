/**
 * Copy buttons: the text to copy is asked for on click (it may have to be fetched from the
 * kernel first), written to the clipboard, and the button says how it went.
 */
import { h, originalTarget } from "./dom";

/** How long the button says "Copied" before it reads "Copy" again. */
export const COPIED_MS = 1_500;

/** Put `text` on the clipboard: the Clipboard API, or a hidden text area where it is
 * missing or refused. */
export async function writeClipboard(text: string): Promise<void> {
  const clipboard = typeof navigator === "undefined" ? undefined : navigator.clipboard;
  if (clipboard !== undefined && typeof clipboard.writeText === "function") {
    try {
      await clipboard.writeText(text);
      return;
    } catch {
      // fall through to the older way
    }
  }
  const area = document.createElement("textarea");
  area.value = text;
  area.setAttribute("readonly", "");
  area.style.position = "fixed";
  area.style.opacity = "0";
  document.body.append(area);
  area.select();
  const done = typeof document.execCommand === "function" && document.execCommand("copy");
  area.remove();
  if (!done) throw new Error("the browser refused to copy");
}

/** A value as the text a copy gives: strings as they are, anything else as indented JSON. */
export function copyText(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === undefined) return "";
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}

/** What each copy button copies; one listener on the document serves them all, so a
 * button costs one element (a run of thousands of tool cards has thousands of them). */
const sources = new WeakMap<Element, () => string | Promise<string>>();
const timers = new WeakMap<Element, ReturnType<typeof setTimeout>>();
let listening = false;

function say(button: HTMLElement, state: "copied" | "failed"): void {
  button.dataset.copy = state;
  clearTimeout(timers.get(button));
  timers.set(
    button,
    setTimeout(() => {
      button.dataset.copy = "ready";
    }, COPIED_MS),
  );
}

function onClick(event: Event): void {
  const target = originalTarget(event) as Element | null;
  const button = target?.closest?.(".cs-copy") as HTMLElement | null;
  const getText = button === null ? undefined : sources.get(button);
  if (button === null || getText === undefined) return;
  event.stopPropagation();
  button.dataset.copy = "copying";
  Promise.resolve()
    .then(getText)
    .then(writeClipboard)
    .then(
      () => say(button, "copied"),
      (error: unknown) => {
        button.title = `Could not copy: ${error instanceof Error ? error.message : String(error)}`;
        say(button, "failed");
      },
    );
}

/** A copy button for `what`: its accessible name is "Copy <what>", and what it shows
 * ("Copy", "Copied", "Copy failed") comes from the stylesheet by its `data-copy` state, so
 * the button adds no text to the part it sits in. */
export function copyButton(
  what: string,
  getText: () => string | Promise<string>,
): HTMLButtonElement {
  if (!listening) {
    listening = true;
    document.addEventListener("click", onClick, true);
  }
  const button = h("button", "cs-copy");
  button.type = "button";
  button.dataset.copy = "ready";
  button.setAttribute("aria-label", `Copy ${what}`);
  sources.set(button, getText);
  return button;
}
