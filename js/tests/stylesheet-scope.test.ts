// The widgets' style sheets are added to a page that is mostly JupyterLab's. A rule whose
// selector could match any element of that page (say `::highlight(x)` or `:root`) makes the
// browser restyle the whole page when the sheet is added: 16-24 ms on a small notebook,
// measured in Chromium, before the view's first frame. Every selector must sit inside
// `.chunkscope`. Nor may a selector use a sibling combinator (`+`, `~`): with one after a
// universal selector (`* + *`), removing the first child of any element of the page made
// Chromium restyle all of that element's children, 45 ms a frame for the 3,000 pieces of a
// long plain text; `:not(:first-child)` says the same without it.
import { describe, expect, it } from "vitest";
import { readText } from "./files";

/** At-rules whose blocks hold rules (their selectors are checked like top-level ones). */
const GROUPING = /^@(media|supports|container|layer)\b/;

/** The selector lists of every style rule in `css`, at any depth of grouping at-rules. */
function selectorLists(css: string): string[] {
  const text = css.replace(/\/\*[\s\S]*?\*\//g, "");
  const lists: string[] = [];
  let prelude = "";
  // Whether each open block holds rules (a grouping at-rule) or declarations.
  const holdsRules: boolean[] = [];
  for (const char of text) {
    if (char === "{") {
      const head = prelude.trim();
      const inRules = holdsRules.length === 0 || holdsRules[holdsRules.length - 1] === true;
      const grouping = GROUPING.test(head);
      if (inRules && !head.startsWith("@")) lists.push(head);
      holdsRules.push(inRules && grouping);
      prelude = "";
    } else if (char === "}") {
      holdsRules.pop();
      prelude = "";
    } else if (char === ";") {
      prelude = "";
    } else {
      prelude += char;
    }
  }
  return lists;
}

/** The selectors of a list, split on the commas that are not inside parentheses. */
function selectors(list: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let current = "";
  for (const char of list) {
    if (char === "(") depth++;
    if (char === ")") depth--;
    if (char === "," && depth === 0) {
      out.push(current.trim());
      current = "";
    } else {
      current += char;
    }
  }
  out.push(current.trim());
  return out;
}

async function allSelectors(file: string): Promise<string[]> {
  return selectorLists(await readText(`src/${file}`)).flatMap(selectors);
}

/** Whether `selector` has a `+` or `~` combinator (outside parentheses and strings). */
function hasSiblingCombinator(selector: string): boolean {
  let depth = 0;
  let quote: string | null = null;
  for (const char of selector) {
    if (quote !== null) {
      if (char === quote) quote = null;
    } else if (char === '"' || char === "'") quote = char;
    else if (char === "(" || char === "[") depth++;
    else if (char === ")" || char === "]") depth--;
    else if (depth === 0 && (char === "+" || char === "~")) return true;
  }
  return false;
}

describe("the widgets' style sheets", () => {
  it("finds the selectors of rules nested in @media and skips @keyframes", () => {
    const css =
      ".chunkscope a { color: red; }\n@media (x) { .chunkscope b, :root { top: 0; } }\n" +
      "@keyframes spin { from { opacity: 0; } to { opacity: 1; } }";
    expect(selectorLists(css)).toEqual([".chunkscope a", ".chunkscope b, :root"]);
    expect(selectors(".chunkscope :is(a, b), ::highlight(x)")).toEqual([
      ".chunkscope :is(a, b)",
      "::highlight(x)",
    ]);
  });

  it("tells sibling combinators from + and ~ inside arguments and attribute values", () => {
    expect(hasSiblingCombinator(".chunkscope a + b")).toBe(true);
    expect(hasSiblingCombinator(".chunkscope a~b")).toBe(true);
    expect(hasSiblingCombinator(".chunkscope li:nth-child(2n+1)")).toBe(false);
    expect(hasSiblingCombinator('.chunkscope [title~="x"]')).toBe(false);
  });

  it.each(["styles.css", "board/board.css"])(
    "%s has only rules inside .chunkscope",
    async (file) => {
      const outside = (await allSelectors(file)).filter(
        (selector) => !/\.chunkscope(?![\w-])/.test(selector),
      );
      expect(outside).toEqual([]);
    },
  );

  it.each(["styles.css", "board/board.css"])("%s has no sibling combinator", async (file) => {
    expect((await allSelectors(file)).filter(hasSiblingCombinator)).toEqual([]);
  });
});
