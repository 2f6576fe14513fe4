/**
 * The rows picked for comparison: at most two. Picking a third drops the one picked first,
 * so the last two picks are always the pair compared.
 */

/** How many rows a comparison takes. */
export const PICK_MAX = 2;

/** The picks after the user toggles `id`. */
export function togglePick(picked: readonly string[], id: string): string[] {
  if (picked.includes(id)) return picked.filter((other) => other !== id);
  return [...picked, id].slice(-PICK_MAX);
}

/** The picks that still name a row (a full message can drop rows). */
export function keepKnown(
  picked: readonly string[],
  known: ReadonlyMap<string, unknown>,
): string[] {
  const kept = picked.filter((id) => known.has(id));
  return kept.length === picked.length ? (picked as string[]) : kept;
}

/** The pair to compare, in the order picked, when exactly two rows are picked. */
export function comparePair(picked: readonly string[]): [string, string] | null {
  const [a, b] = picked;
  return picked.length === PICK_MAX && a !== undefined && b !== undefined ? [a, b] : null;
}
