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
