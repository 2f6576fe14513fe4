/**
 * What the page says of a run it cannot show in full: no kernel is there to send it, and
 * the saved board kept its row only.
 */
import type { BoardRow, BoardSaved } from "../model/wire";
import { isActive } from "./order";

/** Why the run of `row` is not in the saved board `saved`. */
export function notKeptMessage(row: BoardRow | undefined, saved: BoardSaved | null): string {
  const rerun = "Run the cell again with its kernel to see it whole.";
  if (saved === null)
    return `The board was not saved with its runs: only their rows are here. ${rerun}`;
  if (row !== undefined && isActive(row.status))
    return `Only this run's summary was saved: it had not ended when the board was saved. ${rerun}`;
  const limit = typeof saved.keepLimit === "number" ? saved.keepLimit.toLocaleString("en-US") : "?";
  return (
    `Only this run's summary was saved: its run was larger than the ${limit} bytes ` +
    `(keepLimit) a saved board keeps of one run. ${rerun}`
  );
}
