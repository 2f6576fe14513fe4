import { describe, expect, it } from "vitest";
import { formatMs, preview } from "../../../src/views/timeline/format";

describe("formatMs", () => {
  it("formats offsets at a precision that fits their size", () => {
    expect(formatMs(2.448)).toBe("2.4 ms");
    expect(formatMs(4)).toBe("4 ms");
    expect(formatMs(840.4)).toBe("840 ms");
    expect(formatMs(1250)).toBe("1.25 s");
    expect(formatMs(12_440)).toBe("12.4 s");
    expect(formatMs(125_300)).toBe("2:05.3");
    expect(formatMs(-20)).toBe("-20 ms");
    expect(formatMs(Number.NaN)).toBe("–");
  });
});

describe("preview", () => {
  it("cuts long values without serialising all of them", () => {
    const huge = { items: Array.from({ length: 200_000 }, (_, i) => ({ i, text: "lorem ipsum" })) };
    const started = performance.now();
    const text = preview(huge, 60);
    expect(performance.now() - started).toBeLessThan(50);
    expect(text).toHaveLength(60);
    expect(text.startsWith('{"items":[{"i":0,"text":"lorem ipsum"}')).toBe(true);
    expect(text.endsWith("…")).toBe(true);
    expect(preview("a\n  b", 10)).toBe("a b");
    expect(preview(null)).toBe("null");
    expect(preview({ a: undefined })).toBe('{"a":undefined}');
  });
});
