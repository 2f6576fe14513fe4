import { describe, expect, it } from "vitest";
import { formatNumber } from "../src/util";

// Intl is the reference the helper stands in for: it must write every number the same way.
const reference = new Intl.NumberFormat("en-US");

describe("formatNumber", () => {
  it("groups digits by thousands", () => {
    expect(formatNumber(0)).toBe("0");
    expect(formatNumber(999)).toBe("999");
    expect(formatNumber(1000)).toBe("1,000");
    expect(formatNumber(1234567)).toBe("1,234,567");
    expect(formatNumber(-20000)).toBe("-20,000");
  });

  it("keeps at most three decimals, without trailing zeros", () => {
    expect(formatNumber(1234.5)).toBe("1,234.5");
    expect(formatNumber(1234.5678)).toBe("1,234.568");
    expect(formatNumber(0.1)).toBe("0.1");
    expect(formatNumber(2.0004)).toBe("2");
  });

  it("writes what Intl.NumberFormat('en-US') writes, over many magnitudes and signs", () => {
    const values = [-0, 0.0004, -0.0004, 999.9996, 1e15, 2 ** 53, 123456789.125, 1e20 + 12345];
    // halves at the third decimal, exact in decimal but not in binary
    values.push(1.0005, 2.0015, 0.0005, -0.0005, 1234.5675, 1e-7, 5e-324, 1e21, 1.5e300);
    let seed = 7;
    const next = () => {
      seed = (seed * 16807) % 2147483647;
      return seed / 2147483647;
    };
    for (let i = 0; i < 2000; i++) {
      const magnitude = 10 ** Math.floor(next() * 19 - 3);
      const value = (next() - 0.3) * magnitude;
      values.push(value, Math.round(value));
    }
    for (const value of values)
      expect([value, formatNumber(value)]).toEqual([value, reference.format(value)]);
  });

  it("writes what is not a finite number as plain text", () => {
    expect(formatNumber(Number.NaN)).toBe("NaN");
    expect(formatNumber(Number.NEGATIVE_INFINITY)).toBe("-Infinity");
  });
});
