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

/** The highlighted HTML of `code` (classes `hljs-*` on spans, text escaped by highlight.js),
 * with the language used; null when the block names no language or one not loaded here. An
 * unlabelled block is not guessed at: guessing runs every grammar over the code (the first
 * time, compiling them all), a long task for a block that usually stays plain anyway. */
export function highlightHtml(
  code: string,
  language: string,
): { html: string; language: string } | null {
  const wanted = language.trim().toLowerCase();
  if (wanted === "") return null;
  const known = hljs.getLanguage(wanted);
  if (known === undefined) return null;
  const result = hljs.highlight(code, { language: wanted, ignoreIllegals: true });
  return { html: result.value, language: known.name ?? wanted };
}

/** The highlighter's signature, for the code that receives it from the libraries module. */
export type HighlightHtml = typeof highlightHtml;
