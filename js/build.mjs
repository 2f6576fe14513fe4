// Bundles the widget for the Python package: src/widget.ts → ../src/chunkscope/static/widget.js
// (ESM, minified, no source map) and src/styles.css → ../src/chunkscope/static/widget.css.
// The standalone run page (chunkscope.export) gets its own bundle: src/standalone.ts →
// static/standalone.js (a classic script, inlined into the page) and src/standalone.css →
// static/standalone.css.
import * as esbuild from "esbuild";

const outdir = new URL("../src/chunkscope/static/", import.meta.url).pathname;

await esbuild.build({
  entryPoints: { widget: "src/widget.ts" },
  bundle: true,
  format: "esm",
  minify: true,
  sourcemap: false,
  target: ["es2022"],
  outdir,
  tsconfig: "tsconfig.json",
  logLevel: "info",
});

await esbuild.build({
  entryPoints: { widget: "src/styles.css" },
  bundle: true,
  minify: true,
  outdir,
  logLevel: "info",
});

await esbuild.build({
  entryPoints: { standalone: "src/standalone.ts" },
  bundle: true,
  // A classic script: the page inlines it, and an inline module would gain nothing.
  format: "iife",
  minify: true,
  sourcemap: false,
  target: ["es2022"],
  outdir,
  tsconfig: "tsconfig.json",
  logLevel: "info",
});

await esbuild.build({
  entryPoints: { standalone: "src/standalone.css" },
  bundle: true,
  minify: true,
  outdir,
  logLevel: "info",
});
