/**
 * A streaming text kept as the pieces it arrived in, next to the part's own string.
 *
 * Appending to a JS string is cheap (the engine links the two strings), but the first read
 * of any part of the result copies the whole text into one string. A view that reads the
 * end of a growing text in every frame would copy megabytes a frame, and leave as much
 * garbage behind. A `TextRope` answers the same reads from its pieces instead: a slice
 * costs the characters it returns.
 */

/** What the markdown view reads of a text: a `string` is one, and so is a `TextRope`. */
export interface TextSource {
  readonly length: number;
  slice(start: number, end?: number): string;
  indexOf(search: string, position?: number): number;
}

/** Pieces shorter than this take the next append into themselves, so a text streamed a
 * few characters at a time is not thousands of pieces. */
const JOIN_BELOW = 4_096;

/** A text as a list of pieces, with the offset where each one ends. */
export class TextRope implements TextSource {
  private readonly pieces: string[] = [];
  private readonly ends: number[] = [];
  length = 0;

  constructor(text = "") {
    if (text !== "") this.append(text);
  }

  /** Add `text` at the end. */
  append(text: string): void {
    if (text === "") return;
    const last = this.pieces.length - 1;
    this.length += text.length;
    if (last >= 0 && (this.pieces[last] as string).length < JOIN_BELOW) {
      this.pieces[last] += text;
      this.ends[last] = this.length;
    } else {
      this.pieces.push(text);
      this.ends.push(this.length);
    }
  }

  /** The characters from `start` up to `end`, as `String.prototype.slice` reads them. */
  slice(start = 0, end = this.length): string {
    const from = clamp(start, this.length);
    const to = clamp(end, this.length);
    if (to <= from) return "";
    let k = this.pieceAt(from);
    let offset = this.startOf(k);
    let out = "";
    while (offset < to) {
      const piece = this.pieces[k] as string;
      out += piece.slice(Math.max(0, from - offset), Math.min(piece.length, to - offset));
      offset += piece.length;
      k += 1;
    }
    return out;
  }

  /** Where `search` first occurs at or after `position`, or -1; as `String.indexOf`. */
  indexOf(search: string, position = 0): number {
    const from = clamp(position, this.length);
    if (search === "") return from;
    const overlap = search.length - 1;
    for (let k = this.pieceAt(from); k < this.pieces.length; k++) {
      const start = this.startOf(k);
      const piece = this.pieces[k] as string;
      // A match may begin near the end of this piece and go on into the next ones.
      const reach = overlap === 0 ? piece : this.slice(start, (this.ends[k] as number) + overlap);
      const found = reach.indexOf(search, Math.max(0, from - start));
      if (found >= 0 && found < piece.length) return start + found;
    }
    return -1;
  }

  /** The number of the piece holding offset `at` (the last piece for the end). */
  private pieceAt(at: number): number {
    let low = 0;
    let high = this.pieces.length - 1;
    while (low < high) {
      const mid = (low + high) >> 1;
      if ((this.ends[mid] as number) > at) high = mid;
      else low = mid + 1;
    }
    return low;
  }

  private startOf(k: number): number {
    return k === 0 ? 0 : (this.ends[k - 1] as number);
  }
}

function clamp(at: number, length: number): number {
  if (Number.isNaN(at)) return 0;
  const whole = Math.trunc(at);
  return whole < 0 ? Math.max(0, length + whole) : Math.min(whole, length);
}

/** The rope kept for each part whose text grows by appends. */
const ropes = new WeakMap<object, TextRope>();

/** Record that `part`'s text, `before`, grew by `added`. */
export function growText(part: object, before: string, added: string): void {
  let rope = ropes.get(part);
  if (rope === undefined || rope.length !== before.length) {
    rope = new TextRope(before);
    ropes.set(part, rope);
  }
  rope.append(added);
}

/** `part`'s text was written whole (not appended to): its rope no longer holds it. */
export function forgetText(part: object): void {
  ropes.delete(part);
}

/** `text`, the text of `part`, to read from: its rope while it holds the same text. */
export function textSource(part: object, text: string): TextSource {
  const rope = ropes.get(part);
  return rope !== undefined && rope.length === text.length ? rope : text;
}
