/**
 * Small pure helpers shared by the model, the views and the entry points. No DOM, no state.
 */

/** Neither null nor undefined: a field that holds a value. */
export function isPresent(value: unknown): boolean {
  return value !== null && value !== undefined;
}

/** A plain object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A short, safe rendering of any value (JSON when it serialises), at most `max` characters
 * and an ellipsis; for messages about bad values and one-line previews. */
export function preview(value: unknown, max = 120): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/**
 * A number written as en-US writes it: digits grouped by thousands, at most three decimals
 * (2000 → "2,000", 1234.5678 → "1,234.568"): what `Intl.NumberFormat("en-US")` gives for any
 * finite number. Written out instead of calling it (or `toLocaleString`) because a page's
 * first number formatter loads the locale's data in whichever task makes it: in Chromium
 * 40–50 ms on a page that made none before (an exported run or board), 6–7 ms in JupyterLab.
 * `toLocaleString` also makes a new formatter on every call (about 50 µs).
 */
export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  if (Number.isSafeInteger(value) && !Object.is(value, -0)) return groupThousands(String(value));
  // The shortest decimal that reads back as `value` (as Intl starts from), digit by digit.
  const [mantissa = "0", exponent = "0"] = Math.abs(value).toExponential().split("e");
  const digits = mantissa.replace(".", "");
  const point = Number(exponent) + 1;
  const whole = point <= 0 ? "0" : digits.slice(0, point).padEnd(point, "0");
  const fraction = point >= 0 ? digits.slice(point) : "0".repeat(-point) + digits;
  // Three decimals, a half rounded away from zero.
  let kept = BigInt(whole + fraction.slice(0, 3).padEnd(3, "0"));
  if ((fraction[3] ?? "0") >= "5") kept += 1n;
  const text = kept.toString().padStart(4, "0");
  const grouped = groupThousands(text.slice(0, -3));
  const decimals = text.slice(-3).replace(/0+$/, "");
  const sign = value < 0 || Object.is(value, -0) ? "-" : "";
  return `${sign}${grouped}${decimals === "" ? "" : `.${decimals}`}`;
}

/** Digits (after an optional minus) with a comma before every third from the right. */
function groupThousands(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+$)/g, ",");
}
