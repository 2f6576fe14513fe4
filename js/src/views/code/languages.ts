/**
 * highlight.js core with the languages model output uses most. Loaded through a dynamic
 * import (see highlight.ts) so nothing here runs until the first code block is drawn.
 */
import hljs from "highlight.js/lib/core";
import bash from "highlight.js/lib/languages/bash";
import diff from "highlight.js/lib/languages/diff";
import javascript from "highlight.js/lib/languages/javascript";
import json from "highlight.js/lib/languages/json";
import markdown from "highlight.js/lib/languages/markdown";
import python from "highlight.js/lib/languages/python";
import shell from "highlight.js/lib/languages/shell";
import sql from "highlight.js/lib/languages/sql";
import typescript from "highlight.js/lib/languages/typescript";
import xml from "highlight.js/lib/languages/xml";
import yaml from "highlight.js/lib/languages/yaml";

const LANGUAGES = {
  bash,
  diff,
  javascript,
  json,
  markdown,
  python,
  shell,
  sql,
  typescript,
  xml,
  yaml,
};
for (const [name, language] of Object.entries(LANGUAGES)) hljs.registerLanguage(name, language);

/** Guess the language of an unlabelled block only when it is at most this long. */
const AUTO_LIMIT = 5_000;
/** A guess below this relevance is left plain. */
const AUTO_RELEVANCE = 5;

/** The highlighted HTML of `code` (classes `hljs-*` on spans, text escaped by highlight.js),
 * with the language used; null when the language is unknown or no guess is good enough. */
export function highlightHtml(
  code: string,
  language: string,
): { html: string; language: string } | null {
  const wanted = language.trim().toLowerCase();
  if (wanted !== "") {
    const known = hljs.getLanguage(wanted);
    if (known === undefined) return null;
    const result = hljs.highlight(code, { language: wanted, ignoreIllegals: true });
    return { html: result.value, language: known.name ?? wanted };
  }
  if (code.length > AUTO_LIMIT) return null;
  const guess = hljs.highlightAuto(code);
  if (guess.language === undefined || guess.relevance < AUTO_RELEVANCE) return null;
  return { html: guess.value, language: guess.language };
}
