/**
 * The libraries that render markdown and highlight code: marked, DOMPurify and highlight.js
 * (core and the languages of languages.ts). StreamView's and RunBoard's pages receive them
 * as a module of their own (`static/libraries.js`, the model's `_libraries`): a view once
 * its first words are drawn, a board once a run opened on it draws its text. They are more
 * than half of what a view would otherwise load before drawing anything. The exported page
 * bundles them whole (see bundled.ts).
 *
 * Nothing here runs when the module is evaluated. esbuild wraps a module that is `require`d
 * in a lazy initialiser, so each library's top-level code (marked builds its rules,
 * DOMPurify its tables and a first instance: 30-50 ms in the browser) runs at its first
 * call, which comes in the parser's warm-up, a task of its own; the highlighter and its
 * grammars are evaluated on the first code block.
 */
import type { DOMPurify } from "dompurify";
import type * as MarkedLibrary from "marked";
import type { HighlightHtml } from "../views/code/languages";

// The bundler resolves these calls at build time; vitest runs the modules under Node,
// whose `require` loads the same packages.
declare const require: (id: "marked" | "dompurify") => unknown;

/** What the libraries module gives: each library at its first call. */
export interface Libraries {
  /** The marked module. */
  marked(): typeof MarkedLibrary;
  /** DOMPurify's default instance; call it with a window for an instance of one's own. */
  purify(): DOMPurify;
  /** The highlighter, evaluated with its grammars at the first call. */
  highlighter(): Promise<HighlightHtml>;
}

let marked: typeof MarkedLibrary | undefined;
let purify: DOMPurify | undefined;
let highlighter: Promise<HighlightHtml> | undefined;

export const libraries: Libraries = {
  marked() {
    marked ??= require("marked") as typeof MarkedLibrary;
    return marked;
  },
  purify() {
    purify ??= require("dompurify") as DOMPurify;
    return purify;
  },
  highlighter() {
    highlighter ??= import("../views/code/languages").then((module) => module.highlightHtml);
    return highlighter;
  },
};
