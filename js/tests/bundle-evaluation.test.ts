import * as esbuild from "esbuild";
import { expect, it, vi } from "vitest";
import { readText } from "./files";

const LIBRARIES = { marked: "node_modules/marked/", dompurify: "node_modules/dompurify/" };

/** The anywidget bundle of `entry`, built as build.mjs builds it, with each library's code
 * made to record, when it runs, that it did. */
async function bundleWithMarks(entry: string): Promise<string> {
  const result = await esbuild.build({
    entryPoints: [entry],
    bundle: true,
    format: "esm",
    target: ["es2022"],
    tsconfig: "tsconfig.json",
    write: false,
    logLevel: "silent",
    plugins: [
      {
        name: "mark-library-evaluation",
        setup(build) {
          build.onLoad(
            { filter: /node_modules\/(marked|dompurify)\/.*\.(c?js|mjs)$/ },
            async (args) => {
              const name = Object.entries(LIBRARIES).find(([, dir]) => args.path.includes(dir));
              const mark = `(globalThis.__evaluated ??= []).push(${JSON.stringify(name?.[0])});\n`;
              const source = await readText(args.path);
              return { contents: mark + source, loader: "js" };
            },
          );
        },
      },
    ],
  });
  return result.outputFiles[0]?.text ?? "";
}

const evaluated = (): string[] =>
  (globalThis as { __evaluated?: string[] }).__evaluated?.slice() ?? [];

it("src/libraries/bundle.ts loads without evaluating the markdown parser or the sanitizer (they wait for first use)", async () => {
  (globalThis as { __evaluated?: string[] }).__evaluated = [];
  const code = await bundleWithMarks("src/libraries/bundle.ts");
  // The marks are in the bundle: a library bundled without them would pass for the wrong
  // reason.
  expect(code).toContain('push("marked")');
  expect(code).toContain('push("dompurify")');
  const module = (await import(
    `data:text/javascript;charset=utf-8,${encodeURIComponent(code)}`
  )) as { libraries: { marked: unknown } };
  expect(typeof module.libraries.marked).toBe("function");
  expect(evaluated()).toEqual([]);
}, 30_000);

it.each([
  ["src/widget.ts", "the first words"],
  ["src/board.ts", "a run opened on the board"],
])(
  "%s leaves the libraries out: its page receives them for %s",
  async (entry) => {
    const code = await bundleWithMarks(entry);
    expect(code).not.toContain('push("marked")');
    expect(code).not.toContain('push("dompurify")');
    expect(code).not.toContain("highlight.js/lib/core");
    const module = (await import(
      `data:text/javascript;charset=utf-8,${encodeURIComponent(code)}#lean`
    )) as { default: { render: unknown } };
    expect(typeof module.default.render).toBe("function");
  },
  30_000,
);

it.each(["src/widget.ts", "src/board.ts"])(
  "%s loads without making a number formatter (its locale data costs a new page 40-50 ms)",
  async (entry) => {
    const code = await bundleWithMarks(entry);
    const made = vi.spyOn(Intl, "NumberFormat");
    const localized = vi.spyOn(Number.prototype, "toLocaleString");
    try {
      await import(`data:text/javascript;charset=utf-8,${encodeURIComponent(code)}#numbers`);
      expect(made).not.toHaveBeenCalled();
      expect(localized).not.toHaveBeenCalled();
    } finally {
      made.mockRestore();
      localized.mockRestore();
    }
  },
  30_000,
);

it.each(["src/widget.ts", "src/board.ts", "src/standalone.ts"])(
  "%s formats no number through Intl, in its own code or a library's",
  async (entry) => {
    // Whichever frame first made a formatter would pay for the locale's data: counts are
    // written by formatNumber (src/util.ts) instead.
    const code = await bundleWithMarks(entry);
    expect(code).toContain("formatNumber");
    expect(code).not.toMatch(/\btoLocaleString\(|\bIntl\./);
  },
  30_000,
);
