/**
 * marked and DOMPurify, evaluated at their first use rather than when the bundle is.
 *
 * Their top-level code (marked builds its rules, DOMPurify its tables and a first instance)
 * takes 30-50 ms in the browser, and a bundle's top-level code runs in the task that shows a
 * new view, next to JupyterLab placing the output and the view's first draw. esbuild wraps a
 * module that is `require`d in a lazy initialiser, so each library is evaluated at the first
 * call below instead: for a streaming view, in the parser's warm-up, a task of its own.
 */
import type { Config, DOMPurify } from "dompurify";
import type * as MarkedLibrary from "marked";

// The bundler resolves these calls at build time; vitest runs the modules under Node,
// whose `require` loads the same packages.
declare const require: (id: "marked" | "dompurify") => unknown;

let marked: typeof MarkedLibrary | undefined;
let purify: DOMPurify | undefined;

/** The marked module, evaluated at the first call. */
export function markedLibrary(): typeof MarkedLibrary {
  marked ??= require("marked") as typeof MarkedLibrary;
  return marked;
}

/** DOMPurify's default instance, evaluated at the first call; call it with a window for an
 * instance of one's own. */
export function purifyLibrary(): DOMPurify {
  purify ??= require("dompurify") as DOMPurify;
  return purify;
}

/** Sanitized nodes for an HTML string. */
export type FragmentSanitizer = (html: string) => DocumentFragment;

/**
 * A DOMPurify instance of our own with `config` set once, as a function from HTML to
 * sanitized nodes, made at the first call of the getter returned; null where this DOM does
 * not let it sanitize, or where `accept` refuses it. Options passed with each call would be
 * read again on every call: DOMPurify then rebuilds its allow-lists (hundreds of lower-cased
 * names), a fifth of what a page allocates while a long text becomes markdown. `setUp` adds
 * hooks before the config is set.
 */
export function fragmentSanitizer(
  config: Omit<Config, "RETURN_DOM_FRAGMENT" | "RETURN_DOM">,
  setUp?: (instance: DOMPurify) => void,
  accept?: (sanitize: FragmentSanitizer) => boolean,
): () => FragmentSanitizer | null {
  let made: FragmentSanitizer | null | undefined;
  const make = (): FragmentSanitizer | null => {
    const instance = purifyLibrary()(window);
    if (!instance.isSupported) return null;
    setUp?.(instance);
    instance.setConfig({ ...config, RETURN_DOM_FRAGMENT: true });
    // The config set above makes every call return a fragment; the library's types follow
    // only the options passed with the call.
    const sanitize: FragmentSanitizer = (html) =>
      instance.sanitize(html) as unknown as DocumentFragment;
    return accept === undefined || accept(sanitize) ? sanitize : null;
  };
  return () => {
    if (made === undefined) made = make();
    return made;
  };
}
