// Bundles the widget for the Python package: src/widget.ts → ../src/chunkscope/static/widget.js
// (ESM, minified, no source map) and src/styles.css → ../src/chunkscope/static/widget.css;
// the libraries its views render markdown with, src/libraries/bundle.ts → static/libraries.js.
// RunBoard's front end is bundled the same way: src/board.ts → static/board.js and
// src/board.css (the widget's styles and the board's) → static/board.css.
// The standalone page (chunkscope.export, a run or a board) gets its own bundle:
// src/standalone.ts → static/standalone.js (a classic script, inlined into the page) and
// src/standalone.css → static/standalone.css.
//
// The build stops first when package.json's version is not the Python package's
// (`__version__` in ../src/chunkscope/_version.py): the two are released together.
import { readFileSync } from "node:fs";
import * as esbuild from "esbuild";

checkVersion();

const outdir = new URL("../src/chunkscope/static/", import.meta.url).pathname;

const scripts = {
  bundle: true,
  minify: true,
  sourcemap: false,
  target: ["es2022"],
  outdir,
  tsconfig: "tsconfig.json",
  logLevel: "info",
};

// The anywidget modules of StreamView and RunBoard, each bundled whole (anywidget imports
// one file from a blob URL, so nothing is split out into chunks to fetch).
await esbuild.build({
  ...scripts,
  entryPoints: { widget: "src/widget.ts", board: "src/board.ts" },
  format: "esm",
});

// The libraries StreamView's page receives apart, once its first words are drawn (the
// model's `_libraries`, see src/host/libraries.ts): imported from a blob URL as well.
await esbuild.build({
  ...scripts,
  entryPoints: { libraries: "src/libraries/bundle.ts" },
  format: "esm",
});

// A classic script: the standalone page inlines it, and an inline module would gain nothing.
await esbuild.build({
  ...scripts,
  entryPoints: { standalone: "src/standalone.ts" },
  format: "iife",
});

await esbuild.build({
  entryPoints: {
    widget: "src/styles.css",
    board: "src/board.css",
    standalone: "src/standalone.css",
  },
  bundle: true,
  minify: true,
  outdir,
  logLevel: "info",
});

function checkVersion() {
  const versionFile = new URL("../src/chunkscope/_version.py", import.meta.url);
  const packageFile = new URL("package.json", import.meta.url);
  let source;
  try {
    source = readFileSync(versionFile, "utf8");
  } catch (error) {
    fail(`cannot read ${versionFile.pathname} (${error.message})`);
  }
  const match = /^__version__\s*=\s*(["'])([^"']+)\1/m.exec(source);
  if (match === null) fail(`no __version__ = "..." line in ${versionFile.pathname}`);
  const python = match[2];
  const js = JSON.parse(readFileSync(packageFile, "utf8")).version;
  if (js !== python) {
    fail(
      `js/package.json has version ${JSON.stringify(js)} but src/chunkscope/_version.py has ` +
        `__version__ = ${JSON.stringify(python)}; set js/package.json's "version" to ` +
        `${JSON.stringify(python)} (npm pkg set version=${python}) and build again`,
    );
  }
}

function fail(message) {
  console.error(`build.mjs: ${message}`);
  process.exit(1);
}
