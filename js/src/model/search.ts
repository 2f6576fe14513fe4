/**
 * Find in a run: searches every part the store holds (not what happens to be drawn), field
 * by field, and returns the matches in the run's order. Pure: no DOM. The text of each part's
 * fields is cached per part revision, so searching again as the user types or as the run
 * grows costs one pass over the cached text.
 */
import type { Part } from "./wire";

/** Groups of part kinds the search can be narrowed to. */
export const FIND_KINDS = {
  text: ["text"],
  reasoning: ["reasoning"],
  tool: ["tool", "background"],
  data: ["data", "output", "object", "file", "source"],
  other: ["run", "step", "notice", "workflow", "wstep", "network"],
} as const satisfies Record<string, readonly string[]>;

/** A group of part kinds, or "all". */
export type FindKind = keyof typeof FIND_KINDS | "all";

/** At most this many matches are counted; the count then says "10000+". */
export const FIND_LIMIT = 10_000;

/** One occurrence of the query. */
export interface FindMatch {
  /** The part it is in. */
  partId: string;
  /** The part's kind. */
  kind: string;
  /** The field it is in (`text`, `args`, `result`, ...). */
  field: string;
  /** Where it starts in that field's searchable text. */
  start: number;
}

/** What a search found. */
export interface FindResult {
  matches: FindMatch[];
  /** More matches exist than `FIND_LIMIT`. */
  truncated: boolean;
}

/** Fields that place a part rather than say anything about it. */
const STRUCTURAL = new Set([
  "id",
  "chunk",
  "kind",
  "parent",
  "step",
  "t0",
  "t1",
  "held",
  "marks",
  "states",
]);

/** The group a kind belongs to ("other" for kinds this front end does not know). */
export function kindGroup(kind: string): Exclude<FindKind, "all"> {
  for (const [group, kinds] of Object.entries(FIND_KINDS)) {
    if ((kinds as readonly string[]).includes(kind)) return group as Exclude<FindKind, "all">;
  }
  return "other";
}

/** The searchable text of each field of `part`: strings as they are, other values as JSON. */
export function searchableFields(part: Part): [string, string][] {
  const fields: [string, string][] = [];
  for (const [field, value] of Object.entries(part)) {
    if (STRUCTURAL.has(field) || value === null || value === undefined) continue;
    // A tool's parsed arguments are searched; their raw text only while they do not parse.
    if (part.kind === "tool" && field === "argsText" && part.args !== null) continue;
    let text: string;
    if (typeof value === "string") text = value;
    else if (typeof value === "object") {
      try {
        text = JSON.stringify(value);
      } catch {
        continue;
      }
    } else text = String(value);
    if (text !== "") fields.push([field, text]);
  }
  return fields;
}

interface Cached {
  rev: number;
  fields: [string, string][];
  /** The same texts lower-cased, for a search that ignores case. */
  lower: string[];
}

/** Searches runs, keeping the searchable text of parts between searches. */
export class RunSearch {
  private readonly cache = new Map<string, Cached>();

  /**
   * Every occurrence of `query` (ignoring case) in `parts`, in order; `rev` gives a part's
   * revision (a changed revision re-reads its fields). `kind` narrows the parts searched.
   */
  search(
    parts: readonly Part[],
    query: string,
    kind: FindKind = "all",
    rev: (id: string) => number = () => 0,
  ): FindResult {
    const matches: FindMatch[] = [];
    const needle = query.toLowerCase();
    if (needle === "") return { matches, truncated: false };
    const seen = new Set<string>();
    for (const part of parts) {
      seen.add(part.id);
      if (kind !== "all" && kindGroup(part.kind) !== kind) continue;
      const cached = this.fieldsOf(part, rev(part.id));
      for (let f = 0; f < cached.fields.length; f++) {
        const field = (cached.fields[f] as [string, string])[0];
        const haystack = cached.lower[f] as string;
        for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + 1)) {
          if (matches.length >= FIND_LIMIT) return { matches, truncated: true };
          matches.push({ partId: part.id, kind: part.kind, field, start: at });
        }
      }
    }
    if (this.cache.size > seen.size) {
      for (const id of this.cache.keys()) if (!seen.has(id)) this.cache.delete(id);
    }
    return { matches, truncated: false };
  }

  private fieldsOf(part: Part, rev: number): Cached {
    const known = this.cache.get(part.id);
    if (known !== undefined && known.rev === rev) return known;
    const fields = searchableFields(part);
    const cached = { rev, fields, lower: fields.map(([, text]) => text.toLowerCase()) };
    this.cache.set(part.id, cached);
    return cached;
  }
}

/** The index after `current` (wrapping), or before it when `step` is -1. */
export function stepMatch(current: number, count: number, step: 1 | -1): number {
  if (count === 0) return -1;
  if (current < 0) return step === 1 ? 0 : count - 1;
  return (current + step + count) % count;
}

/** "3 of 12", "no matches", "1 of 10000+". */
export function matchLabel(current: number, result: FindResult): string {
  const count = result.matches.length;
  if (count === 0) return "no matches";
  const total = `${count}${result.truncated ? "+" : ""}`;
  return current < 0 ? `${total} matches` : `${current + 1} of ${total}`;
}
