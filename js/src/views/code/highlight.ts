/**
 * Fenced code blocks in rendered markdown: a toolbar with the language and a copy button,
 * and syntax highlighting by highlight.js (core and eleven languages, see languages.ts).
 *
 * The highlighter comes with the libraries module (see libraries/bundle.ts), evaluated only
 * on the first code block. Its HTML goes through the sanitizer (spans with classes only)
 * before it touches the DOM.
 */
import { copyButton } from "../copy";
import { h } from "../dom";
import { whenLibraries } from "../libraries";
import type { HighlightHtml } from "./languages";

/** Blocks longer than this are left plain: highlighting them would hold up a frame. */
export const HIGHLIGHT_LIMIT = 100_000;

/** Turns highlighter HTML into nodes; null when no sanitizer is available. */
export type SpanSanitizer = (html: string) => DocumentFragment | null;

/** The highlighter, once the libraries are given and it is evaluated. */
export function loadHighlighter(): Promise<HighlightHtml> {
  return whenLibraries().then((libraries) => libraries.highlighter());
}

/** `value`, in a task of its own (after the current one, and after the frame it may be). */
function nextTask<T>(value: T): Promise<T> {
  return new Promise((resolve) => setTimeout(() => resolve(value), 0));
}

/** The language named by a `language-xxx` class, or "". */
export function languageOf(code: Element): string {
  for (const name of Array.from(code.classList)) {
    if (name.startsWith("language-")) return name.slice("language-".length);
  }
  return "";
}

/**
 * Give every `<pre><code>` under `root` a toolbar (language, copy) and, when `highlight`,
 * highlight it once the highlighter has loaded. Each block is highlighted in a task of its
 * own, after the frame that drew it, so that highlighting never lengthens a frame. Returns a
 * promise settled when the highlighting is done.
 */
export function decorateCode(
  root: ParentNode,
  sanitize: SpanSanitizer,
  highlight = true,
): Promise<void> {
  const blocks = Array.from(root.querySelectorAll("pre > code"));
  if (blocks.length === 0) return Promise.resolve();
  const work: Promise<void>[] = [];
  for (const code of blocks) {
    const pre = code.parentElement as HTMLElement;
    if (pre.parentElement?.classList.contains("cs-code") === true) continue;
    const text = code.textContent ?? "";
    const language = languageOf(code);
    const box = h("div", "cs-code");
    const bar = h("div", "cs-code-bar");
    // The language is drawn from the attribute (like the copy button's label), so the
    // block's text stays the code alone.
    const label = h("span", "cs-code-lang");
    label.dataset.lang = language;
    bar.append(
      label,
      copyButton(`code${language ? ` (${language})` : ""}`, () => text),
    );
    pre.replaceWith(box);
    box.append(bar, pre);
    // A block that names no language stays plain (see `highlightHtml`): it does not load
    // the highlighter, whose first evaluation is a task of its own while text streams.
    if (!highlight || language.trim() === "" || text.length > HIGHLIGHT_LIMIT) continue;
    work.push(
      loadHighlighter()
        .then(nextTask)
        .then((highlightHtml) => {
          const result = highlightHtml(text, language);
          if (result === null) return;
          const nodes = sanitize(result.html);
          if (nodes === null) return;
          code.replaceChildren(nodes);
          code.classList.add("hljs");
        })
        .catch(() => {
          // Left plain: highlighting is a nicety.
        }),
    );
  }
  return Promise.all(work).then(() => undefined);
}
