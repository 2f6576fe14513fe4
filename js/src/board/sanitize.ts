/**
 * The kernel's comparison HTML made safe to insert: chunkscope's own markup (a style block
 * scoped to `.cs-cmp`, tables, inline SVG), with every run value escaped by the kernel, is
 * cleaned once more by DOMPurify, so nothing in it can run script or load anything.
 */
import type { DOMPurify } from "dompurify";
import { purifyLibrary } from "../views/libraries";

let purifier: DOMPurify | null | undefined;

/** Our own DOMPurify instance; null where this DOM does not let it sanitize. */
function getPurifier(): DOMPurify | null {
  if (purifier === undefined) {
    const instance = purifyLibrary()(window);
    purifier = instance.isSupported ? instance : null;
  }
  return purifier;
}

/** `html` as sanitized nodes; null when this page cannot sanitize it. */
export function sanitizeComparison(html: string): DocumentFragment | null {
  const sanitizer = getPurifier();
  if (sanitizer === null) return null;
  return sanitizer.sanitize(html, {
    // The comparison starts with its style block, which DOMPurify drops unless the markup
    // is parsed as body content.
    FORCE_BODY: true,
    FORBID_TAGS: ["form", "input", "button", "textarea", "select", "iframe", "object", "embed"],
    ALLOWED_URI_REGEXP: /^(?:https?:|mailto:|#)/i,
    RETURN_DOM_FRAGMENT: true,
  });
}
