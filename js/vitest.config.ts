import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    environment: "node",
    include: ["tests/**/*.test.ts"],
    setupFiles: ["tests/setup-libraries.ts"],
    // Tests that a view is not kept alive collect garbage themselves (globalThis.gc).
    execArgv: ["--expose-gc"],
  },
});
