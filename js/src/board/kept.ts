/**
 * What the page says of a run it cannot show in full: no kernel is there to send it, and
 * the saved board kept its row only.
 */
import type { BoardRow, BoardSaved } from "../model/wire";
import { formatNumber } from "../util";
import { isActive } from "./order";

/** Why the run of `row` is not in the saved board `saved`. */
export function notKeptMessage(row: BoardRow | undefined, saved: BoardSaved | null): string {
  const rerun = "Run the cell again with its kernel to see it whole.";
  if (saved === null)
    return `The board was not saved with its runs: only their rows are here. ${rerun}`;
  if (row !== undefined && isActive(row.status))
    return `Only this run's summary was saved: it had not ended when the board was saved. ${rerun}`;
  const bytes = (value: unknown) => (typeof value === "number" ? formatNumber(value) : "?");
  const reason = row === undefined ? undefined : saved.leftOut?.[row.id];
  if (reason === "total")
    return (
      `Only this run's summary was saved: the runs kept before it filled the ` +
      `${bytes(saved.keepTotal)} bytes (keep_total) a saved board keeps in all. ${rerun}`
    );
  return (
    `Only this run's summary was saved: its run was larger than the ${bytes(saved.keepLimit)} ` +
    `bytes (keep) a saved board keeps of one run. ${rerun}`
  );
}
