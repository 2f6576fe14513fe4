// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import { libraries } from "../../../src/libraries/bundle";
import { decorateCode, languageOf, loadHighlighter } from "../../../src/views/code/highlight";
import { provideLibraries, REGISTRY_KEY } from "../../../src/views/libraries";
import { renderMarkdown, sanitizeSpans } from "../../../src/views/markdown";

function holder(markdown: string): HTMLElement {
  const el = document.createElement("div");
  el.append(renderMarkdown(markdown));
  return el;
}

describe("code blocks", () => {
  it("get a bar with the language and a copy button, then highlighted spans", async () => {
    const el = holder("```python\ndef add(a, b):\n    return a + b  # sum\n```\n");
    expect((el.querySelector(".cs-code-lang") as HTMLElement).dataset.lang).toBe("python");
    expect(el.querySelector(".cs-code .cs-copy")?.getAttribute("aria-label")).toBe(
      "Copy code (python)",
    );
    await loadHighlighter();
    await new Promise((resolve) => setTimeout(resolve, 0));
    const code = el.querySelector("code") as HTMLElement;
    expect(code.classList.contains("hljs")).toBe(true);
    expect(code.querySelector(".hljs-keyword")?.textContent).toBe("def");
    expect(code.querySelector(".hljs-comment")?.textContent).toBe("# sum");
    expect(code.textContent).toBe("def add(a, b):\n    return a + b  # sum\n");
  });

  it("keep markup in code as text: the highlighter's HTML goes through the sanitizer", async () => {
    const el = holder('```html\n<img src=x onerror="alert(1)"><script>alert(2)</script>\n```\n');
    await loadHighlighter();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(el.querySelector("img")).toBeNull();
    expect(el.querySelector("script")).toBeNull();
    expect(el.querySelector("code")?.textContent).toContain('<img src=x onerror="alert(1)">');
  });

  it("leave an unknown language plain and read the language from the class", async () => {
    const el = holder("```klingon\nqapla'\n```\n");
    expect(languageOf(el.querySelector("code") as Element)).toBe("klingon");
    await decorateCode(el, sanitizeSpans);
    expect(el.querySelector("code")?.classList.contains("hljs")).toBe(false);
    expect(el.querySelectorAll(".cs-code")).toHaveLength(1);
  });

  it("leave a block that names no language plain, without loading the highlighter", async () => {
    // A page of its own, whose libraries count the highlighter's loads.
    const page = globalThis as unknown as Record<string, unknown>;
    const before = page[REGISTRY_KEY];
    delete page[REGISTRY_KEY];
    let loads = 0;
    provideLibraries({
      ...libraries,
      highlighter() {
        loads += 1;
        return Promise.resolve(() => ({ html: "<span>x</span>", language: "python" }));
      },
    });
    try {
      const block = (language: string): HTMLElement => {
        const el = document.createElement("div");
        el.innerHTML = `<pre><code${language ? ` class="language-${language}"` : ""}>x = 1</code></pre>`;
        return el;
      };
      const plain = block("");
      await decorateCode(plain, sanitizeSpans);
      expect(plain.querySelector(".cs-code .cs-copy")).not.toBeNull();
      expect(plain.querySelector("code")?.classList.contains("hljs")).toBe(false);
      expect(loads).toBe(0);
      const named = block("python");
      await decorateCode(named, sanitizeSpans);
      expect(named.querySelector("code")?.classList.contains("hljs")).toBe(true);
      expect(loads).toBe(1);
    } finally {
      page[REGISTRY_KEY] = before;
    }
  });

  it("drop anything but spans from highlighter HTML", () => {
    const nodes = sanitizeSpans('<span class="hljs-string">a</span><b onclick="x()">b</b>');
    const el = document.createElement("div");
    el.append(nodes as DocumentFragment);
    expect(el.innerHTML).toBe('<span class="hljs-string">a</span>b');
  });
});
