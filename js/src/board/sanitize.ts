/**
 * The kernel's comparison HTML made safe to insert: chunkscope's own markup (a style block
 * scoped to `.cs-cmp`, tables, inline SVG), with every run value escaped by the kernel, is
 * cleaned once more by DOMPurify, so nothing in it can run script or load anything.
 */
import { fragmentSanitizer } from "../views/libraries";

const comparisonSanitizer = fragmentSanitizer({
  // The comparison starts with its style block, which DOMPurify drops unless the markup is
  // parsed as body content.
  FORCE_BODY: true,
  FORBID_TAGS: ["form", "input", "button", "textarea", "select", "iframe", "object", "embed"],
  ALLOWED_URI_REGEXP: /^(?:https?:|mailto:|#)/i,
});

/** `html` as sanitized nodes; null when this page cannot sanitize it. */
export function sanitizeComparison(html: string): DocumentFragment | null {
  const sanitizer = comparisonSanitizer();
  return sanitizer === null ? null : sanitizer(html);
}
