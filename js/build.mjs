// Bundles the widget for the Python package: src/widget.ts → ../src/chunkscope/static/widget.js
// (ESM, minified, no source map) and src/styles.css → ../src/chunkscope/static/widget.css.
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
