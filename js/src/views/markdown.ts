/**
 * Markdown for untrusted model output: marked turns it into HTML, DOMPurify cleans it, and
 * a few rules of ours are enforced on the result (safe links, images from data:/http(s)
 * with an allowed type only). `MarkdownView` renders a growing text incrementally: blocks
 * that are complete are rendered once and kept; only the last block is re-rendered.
 */
import type { DOMPurify } from "dompurify";
import type { Marked } from "marked";
import type { TextSource } from "../model/rope";
import { decorateCode } from "./code/highlight";
import { h, placeChildren } from "./dom";
import { afterFrame, frameTime, inFrame, schedule, whenIdle } from "./frame";
import { HeldBack } from "./held-back";
import {
  type FragmentSanitizer,
  fragmentSanitizer,
  librariesReady,
  markedLibrary,
  whenLibraries,
} from "./libraries";

/** Image types that may be shown inline (from data: URLs). SVG is never inlined. */
export const INLINE_IMAGE_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp"];
/** A still-growing last block longer than this is shown as plain text until it ends, so a
 * huge unfinished paragraph or code block is not re-parsed on every frame. */
export const LIVE_MARKDOWN_LIMIT = 32_000;

/** At most this many characters of finished blocks are rendered as markdown per frame. */
export const COMMIT_BUDGET = 16_000;

/** Markdown is rendered in a frame only while the frame has taken less than this (ms): text
 * that arrives after is drawn as plain text at once and becomes markdown in a later frame,
 * so a burst of text never makes a frame long, and a token is on screen in the frame it
 * arrived in. */
export const FRAME_MARKDOWN_MS = 8;

/** Plain text (a backlog not yet rendered as markdown, or a block too large for it) is
 * drawn in pieces that end after a newline about every this many characters: a piece that
 * did not change costs nothing, and pieces off screen skip layout. A new view's first frame
 * lays out only the pieces near the end it shows: 8 ms for the 70 KB of 10k deltas, where
 * pieces of 8,000 characters took 29 ms. */
export const PLAIN_PIECE = 2_000;

/** Plain pieces per sheet. Off screen, a sheet skips layout and paint as a whole, and the
 * browser checks each sheet against the viewport in every frame. A page taking 50 KB of
 * text a frame at the bottom of 5 MB spent 28 ms a frame with a piece per sheet (thousands
 * of checks), 15 ms with 32 (the sheets in view laid out whole) and 12 ms with 8. */
export const SHEET_PIECES = 8;

/** Plain pieces drawn in one go that end more than this many characters before the end of
 * the text are held out of layout until they come into view (see HeldBack): a reader
 * following the end sees a box of its last lines, and a frame that takes 100 KB of a
 * burst lays out what is shown, not the text that scrolls past unseen. */
export const PLAIN_SHOWN_TAIL = 6_000;

/** Sheets per chapter of plain text, grouped for the reason pages are (see CHAPTER_PAGES):
 * a backlog of megabytes is hundreds of sheets. With them in chapters, the page alone under
 * a 1M-delta burst was busy 24.1 s instead of 26.7 s, and its text was all markdown 3.7 s
 * sooner (medians of 3). */
export const CHAPTER_SHEETS = 16;

/** Rendered blocks per page. Off screen, a page skips layout and paint as a whole: the
 * browser tracks a few hundred pages of a long text instead of thousands of blocks. A page
 * scrolled into view is laid out whole: with 32 blocks (64 KB of text) the page that came
 * into view as a backlog caught up took 56 ms of style and layout in one frame. */
export const PAGE_BLOCKS = 8;

/** Pages per chapter. Laying out a block goes over every one of its children, even those
 * whose own layout is kept: with the pages of a long text side by side, a frame that added
 * to its end spent 6.5-8 ms of layout at 5,000 pages, against 1.1-1.4 ms with them in
 * chapters of 32. Off screen, a chapter skips layout and paint as a whole, as a page does. */
export const CHAPTER_PAGES = 32;

/** Characters at each end of the committed text kept to recognise a continuation. */
const EDGE = 256;

/** A single finished block up to this size is still rendered as markdown (a long code
 * block); a larger one stays plain text. */
export const FINAL_BLOCK_LIMIT = 200_000;

let parser: Marked | undefined;

/** Our parser, made at its first use (with the library's own evaluation). */
function getParser(): Marked {
  parser ??= new (markedLibrary().Marked)({ gfm: true, breaks: false });
  return parser;
}

/** What the HTML of markdown may keep. */
const MARKDOWN_CONFIG = {
  USE_PROFILES: { html: true },
  FORBID_TAGS: ["style", "form", "input", "button", "textarea", "select", "iframe"],
  // No ids or names (a payload could clobber the page's own) and no in-page links: a
  // fragment alone would open the notebook again in a new tab.
  FORBID_ATTR: ["style", "id", "name"],
  ALLOWED_URI_REGEXP: /^(?:https?:|mailto:|data:image\/(?:png|jpeg|gif|webp)[;,])/i,
};

/** Links open in a new tab without access to the page; images only from allowed URLs. */
function addMarkdownHooks(instance: DOMPurify): void {
  instance.addHook("afterSanitizeAttributes", (node) => {
    if (node.nodeName === "A") {
      node.setAttribute("target", "_blank");
      node.setAttribute("rel", "noopener noreferrer");
    }
    if (node.nodeName === "IMG") {
      const src = node.getAttribute("src") ?? "";
      if (!isAllowedImageUrl(src)) node.removeAttribute("src");
    }
  });
}

/** Whether `sanitize` really cleans (checked on a probe): where it does not, markdown is
 * shown as plain text rather than trusted. */
function cleansProbe(sanitize: FragmentSanitizer): boolean {
  const probe = sanitize('<img src="x" onerror="x()"><b>b</b>');
  return probe.querySelector("[onerror]") === null && probe.querySelector("b") !== null;
}

/** Markdown's sanitizer, with its hooks (so they never touch other users of the library). */
const getPurifier = fragmentSanitizer(MARKDOWN_CONFIG, addMarkdownHooks, cleansProbe);

/** Highlighter spans' sanitizer. */
const getSpanPurifier = fragmentSanitizer({ ALLOWED_TAGS: ["span"], ALLOWED_ATTR: ["class"] });

/** http(s) URLs, or data: URLs of an inline image type. */
export function isAllowedImageUrl(url: string): boolean {
  const trimmed = url.trim().toLowerCase();
  if (trimmed.startsWith("https://") || trimmed.startsWith("http://")) return true;
  const match = /^data:([a-z0-9.+-]+\/[a-z0-9.+-]+)[;,]/.exec(trimmed);
  return match !== null && INLINE_IMAGE_TYPES.includes(match[1] ?? "");
}

/** http(s) and mailto links only; anything else (javascript:, data:, relative) is refused. */
export function isSafeLinkUrl(url: string): boolean {
  return /^(https?:|mailto:)/i.test(url.trim());
}

/** A little of everything model output uses, one construct per piece. */
const WARM_UP_PIECES = [
  "Some *emphasis*, **strong** text, `code`, a [link](https://example.com) and an_underscore.",
  "## Heading\n\nA paragraph\nunder it",
  "- an item\n- another item\n\n1. first",
  "> a quote",
  "| a | b |\n|---|---|\n| 1 | 2 |",
  "```\nprint('hi')\n```",
];

/** Text with a character past Latin-1 (a dash, curly quotes: common in model output). The
 * engine compiles a regular expression apart for such text, so the warm-up runs each of its
 * steps on both kinds: warmed on Latin-1 text only, the first frame lexing a stream whose
 * text had such characters spent 26 ms in the lexer. */
const WIDE_TEXT = " \u2014 \u201cquoted\u201d";

/** Each piece as it is and with wide text: both kinds of string the engine compiles for. */
const WARM_UP_FORMS = ["", WIDE_TEXT];

/** Text every rule's regular expression is run on, to compile it. */
const WARM_UP_PROBE = "a *b* `c` [d](https://e.com)\n- f\n> g\n| h | i |\n---";

/** Times each rule runs on each kind of string: the engine interprets an expression the
 * first time it runs and compiles it to machine code the second, which would otherwise
 * happen all at once in the first lexing (16 ms in one step). */
const WARM_UP_RULE_RUNS = 2;

/** Most milliseconds of warm-up work per task before the next piece waits for a task of
 * its own. */
const WARM_UP_SLICE_MS = 8;

let warmth: "cold" | "warming" | "warm" = "cold";

/** Frame jobs of views that drew text as plain text while the parser was not warm: each
 * runs once in the frame after the warm-up ends. Held weakly (each view holds its own job):
 * a view taken off the page while it waits, for libraries that may never come (a saved
 * view without them), is not kept alive by its wait. */
const afterWarm = new Set<WeakRef<() => void>>();

/** The parser's cold start, in steps of a few milliseconds each (a step ends at each
 * `yield`): the libraries' own evaluation, then every rule's regular expression (the
 * browser compiles one the first times it runs, 1-9 ms each), the sanitizer's set-up, each
 * construct lexed, rendered in full, and all of them parsed and lexed together; every step
 * on Latin-1 text and on wide text. */
function* warmUpSteps(): Generator<void, void, void> {
  const { Lexer } = markedLibrary();
  yield;
  const marked = getParser();
  yield;
  const { block, inline } = Lexer.rules;
  for (const form of WARM_UP_FORMS) {
    for (const rules of [block.gfm, inline.gfm] as unknown as Record<string, unknown>[]) {
      for (const rule of Object.values(rules)) {
        if (!(rule instanceof RegExp)) continue;
        for (let run = 0; run < WARM_UP_RULE_RUNS; run++) {
          const at = rule.lastIndex;
          rule.exec(WARM_UP_PROBE + form);
          rule.lastIndex = at;
          yield;
        }
      }
    }
  }
  getPurifier();
  yield;
  for (const form of WARM_UP_FORMS) {
    const pieces = WARM_UP_PIECES.map((piece) => piece + form);
    for (const piece of pieces) {
      marked.lexer(piece);
      yield;
    }
    for (const piece of pieces) {
      renderMarkdown(piece, false);
      yield;
    }
    const sample = pieces.join("\n\n");
    marked.parse(sample, { async: false });
    yield;
    completeBlockEnds(sample);
    yield;
  }
}

/**
 * Warm the parser up when the page has time, in tasks shorter than a frame: its cold start
 * (rules compiled, code optimised: 40-60 ms in one task in the browser) is then paid outside
 * any frame and without a long task, after the first text is on screen rather than before,
 * and the first markdown is drawn by compiled code.
 */
export function warmUpMarkdown(): void {
  if (warmth !== "cold") return;
  warmth = "warming";
  const steps = warmUpSteps();
  const slice = (): void => {
    const started = performance.now();
    let done = false;
    // The next step is taken to last as long as the one before: a slice does not begin a
    // step it would likely finish past its time (under load the idle task runs anyway, when
    // its wait is over, between the frames of a burst).
    let last = 0;
    let now = started;
    try {
      while (!done && now - started + last < WARM_UP_SLICE_MS) {
        done = steps.next().done === true;
        const after = performance.now();
        last = after - now;
        now = after;
      }
    } finally {
      if (!done) whenIdle(slice);
      else {
        warmth = "warm";
        for (const ref of afterWarm) {
          const job = ref.deref();
          if (job !== undefined) schedule(job);
        }
        afterWarm.clear();
      }
    }
  };
  // A page that does not hold the libraries yet asks for them in an idle task as well: one
  // that must fetch them receives them after the first words are on screen, not before.
  if (librariesReady()) whenIdle(slice);
  else whenIdle(() => void whenLibraries().then(() => whenIdle(slice)));
}

/** Whether the parser's warm-up has run to its end. */
export function markdownIsWarm(): boolean {
  return warmth === "warm";
}

/** Whether markdown may be rendered now: in a frame, only once the parser is warm (until
 * then a frame shows text as plain text and asks for the warm-up); outside one (a direct
 * call), as soon as the libraries are there. */
function markdownReady(): boolean {
  if (warmth === "warm" || (!inFrame() && librariesReady())) return true;
  warmUpMarkdown();
  return false;
}

/** Markdown source → a sanitized DocumentFragment. Its code blocks are highlighted later,
 * unless `highlight` is false (a growing block drawn again in the next frame). */
export function renderMarkdown(source: string, highlight = true): DocumentFragment {
  const sanitizer = getPurifier();
  if (sanitizer === null) {
    const fragment = document.createDocumentFragment();
    const plain = document.createElement("div");
    plain.className = "cs-md-plain";
    plain.textContent = source;
    fragment.append(plain);
    return fragment;
  }
  const html = getParser().parse(source, { async: false });
  const fragment = sanitizer(html);
  // Code blocks get their toolbar now and their colours once the highlighter is loaded.
  void decorateCode(fragment, sanitizeSpans, highlight);
  return fragment;
}

/** Highlighter HTML as nodes: `<span class>` and text only, everything else dropped; null
 * when this DOM cannot sanitize. */
export function sanitizeSpans(html: string): DocumentFragment | null {
  const sanitizer = getSpanPurifier();
  return sanitizer === null ? null : sanitizer(html);
}

/**
 * Where the complete blocks of `tail` end: the length of its prefix made of every block
 * before the last real one. A block is known complete once another block follows it.
 * Blocks are rendered on their own, so a reference-style link resolves only against
 * definitions in its own block (model output rarely splits the two).
 */
export function completePrefixLength(tail: string): number {
  return completeBlockEnds(tail).at(-1) ?? 0;
}

/** The end offsets of the complete blocks of `tail` (see `completePrefixLength`), in order;
 * empty when there is none, or when marked's reading does not match the source. */
export function completeBlockEnds(tail: string): number[] {
  const tokens = getParser().lexer(tail);
  let last = tokens.length - 1;
  while (last >= 0 && tokens[last]?.type === "space") last--;
  const ends: number[] = [];
  let length = 0;
  let joined = "";
  for (let k = 0; k < last; k++) {
    const raw = tokens[k]?.raw ?? "";
    length += raw.length;
    joined += raw;
    if (tokens[k]?.type !== "space") ends.push(length);
    else if (ends.length > 0) ends[ends.length - 1] = length;
  }
  // marked normalises some input (line endings); commit only when raws match the source.
  return tail.startsWith(joined) ? ends : [];
}

/** Complete blocks are rendered as markdown in steps of about this many characters, the
 * frame's time checked between steps. */
export const COMMIT_STEP = 2_000;

/** Characters after what is committed in which complete blocks are looked for first (see
 * MarkdownView.blockEnds). */
const BLOCK_SEARCH = 3 * COMMIT_STEP;

/** While complete blocks wait to be committed (a backlog, or a frame out of time), a tail
 * longer than this is drawn as plain text: it would be rendered again as each of them is
 * committed. At the end of a 300k-delta burst, rendering the 32 KB left as markdown made
 * tasks of 45-61 ms, and putting it in the page one of 62 ms. */
export const PENDING_TAIL_LIMIT = COMMIT_STEP;

/** A drawn text that grew by at least this many characters since it was last drawn is
 * arriving faster than a frame renders markdown (COMMIT_BUDGET a frame at most). */
export const BURST_GROWTH = COMMIT_BUDGET;

/** While a text arrives in a burst, and for this long (ms) after its last burst-sized growth,
 * what it has not rendered yet stays plain text: the steps that render it as markdown wait
 * for the burst to pass. Rendered during a burst, they would have to go on after it anyway,
 * and their garbage (two thirds of what the page allocates while a 1M-delta burst arrives)
 * sends the collector into the frames that draw the burst. */
export const BURST_QUIET_MS = 200;

/** A growing markdown text drawn into one element. */
export class MarkdownView {
  /** The element holding the rendered markdown. */
  readonly el: HTMLElement;
  /** How much of the text is rendered as markdown blocks, which never change again. */
  private committedLength = 0;
  /** The first and the last characters of that part, enough to tell a text that continues it
   * from another one (a past state while scrubbing, a replaced part) without comparing
   * megabytes on every frame. */
  private committedHead = "";
  private committedEnd = "";
  /** The page that takes the next rendered block, and the chapter that takes the next page. */
  private page: HTMLElement | null = null;
  private chapter: HTMLElement | null = null;
  private readonly done: HTMLElement;
  private readonly live: HTMLElement;
  private lastTail: string | null = null;
  private lastFinal = false;
  private lastPlain = false;
  /** Whether a text was drawn here: only the first one is drawn plain first, in a frame; not
   * a text drawn again or replaced (a past state while scrubbing, redrawn on every step). */
  private drawnText = false;
  private wanted: TextSource = "";
  private wantedFinal = false;
  /** Offsets in the text where plain pieces start (the first is 0), found as it grows. */
  private pieceStarts: number[] = [0];
  /** The first piece the plain text showed when last drawn, and how many piece starts were
   * known then; null when nothing is drawn (see showPlain). */
  private plainShown: { first: number; count: number } | null = null;
  /** Piece elements by piece number, with the range of the text each one shows. */
  private readonly pieces = new Map<number, { el: HTMLElement; start: number; end: number }>();
  /** Sheet elements by sheet number: sheet `n` holds pieces `n * SHEET_PIECES` on. */
  private readonly sheets = new Map<number, HTMLElement>();
  /** Chapter elements by chapter number: chapter `c` holds sheets `c * CHAPTER_SHEETS` on. */
  private readonly plainChapters = new Map<number, HTMLElement>();
  /** Sheets and pieces that have not been on screen yet, kept out of layout until they are. */
  private readonly heldBack = new HeldBack();
  /** Pieces held when they were drawn, by sheet number, while their sheet is one of the
   * last two: past them, a sheet none of whose held pieces came into view is held whole
   * instead, so the browser watches a sheet rather than each of its pieces. */
  private readonly heldPieces = new Map<number, HTMLElement[]>();
  private readonly plain = document.createElement("div");
  /** Draws again in the next frame (text that came after this frame's time for markdown). */
  private readonly resume = (): void => this.update(this.wanted, this.wantedFinal);
  /** `resume`, for the warm-up to call when it ends without keeping this view alive. */
  private readonly resumeWhenWarm = new WeakRef(this.resume);
  /** Whether the update running is a catch-up task (see `catchUp`). */
  private catchingUp = false;
  /** The length of the text when it was last drawn, outside a catch-up (0 before any). */
  private drawnLength = 0;
  /** performance.now() before which the catch-up waits: the text is arriving in a burst. */
  private burstUntil = 0;
  /** Whether a catch-up waits on a timer for the burst to pass. */
  private waitingForQuiet = false;
  /** Carries on committing a text too long to render in one frame, in a task of its own
   * after the next frame is drawn; while the text arrives in a burst, once it has passed. */
  private readonly catchUp = (): void => {
    const wait = this.burstUntil - performance.now();
    if (wait > 0) {
      if (!this.waitingForQuiet) {
        this.waitingForQuiet = true;
        setTimeout(() => {
          this.waitingForQuiet = false;
          afterFrame(this.catchUp);
        }, wait);
      }
      return;
    }
    this.catchingUp = true;
    try {
      this.update(this.wanted, this.wantedFinal);
    } finally {
      this.catchingUp = false;
    }
  };

  constructor(className = "cs-md") {
    this.el = document.createElement("div");
    this.el.className = className;
    this.done = document.createElement("div");
    this.done.className = "cs-md-done";
    this.live = document.createElement("div");
    this.live.className = "cs-md-live";
    this.el.append(this.done, this.live);
    this.plain.className = "cs-md-plain";
  }

  /** Show `text`; `final` says it will not grow any more. Only what changed is read of a
   * `TextRope`: the start and end of what is committed, a window after it, the new end. */
  update(text: TextSource, final: boolean): void {
    this.wanted = text;
    this.wantedFinal = final;
    const continued = this.continues(text);
    const now = performance.now();
    if (!this.catchingUp) {
      // A text that goes on from the one drawn, by more than a frame renders: a burst. Not
      // a text's first drawing (a saved run opened), nor one that replaces it.
      const grown = continued && this.drawnText ? text.length - this.drawnLength : 0;
      if (grown >= BURST_GROWTH) this.burstUntil = now + BURST_QUIET_MS;
      this.drawnLength = text.length;
    }
    if (!continued) {
      // Not a continuation (a past state while scrubbing, or a replaced part): start over.
      this.committedLength = 0;
      this.committedHead = "";
      this.committedEnd = "";
      this.done.replaceChildren();
      this.page = null;
      this.chapter = null;
      this.lastTail = null;
      this.pieceStarts = [0];
      this.plainShown = null;
      this.pieces.clear();
      this.sheets.clear();
      this.plainChapters.clear();
      this.heldBack.clear();
      this.heldPieces.clear();
    }
    const start = this.committedLength;
    // Commit the complete blocks found in a bounded window, so one frame never renders more
    // than COMMIT_BUDGET characters of markdown; what is left waits for the next frame, and
    // so does all of it when this frame's time for markdown is spent.
    const ready = markdownReady();
    // The first frame that shows a text shows it as plain text, at once, and renders it as
    // markdown in the next: the first words of a run are on screen a markdown pass sooner.
    const fresh = !this.drawnText && inFrame();
    if (text.length > 0) this.drawnText = true;
    const timely = ready && !fresh && frameTime() < FRAME_MARKDOWN_MS;
    const waiting = text.length - start;
    // A backlog (more text than is ever rendered live) is committed after the frame that
    // shows its new end, in a task of its own: a frame that draws a burst of text does not
    // also render markdown, and neither task is long.
    // So is all of a text that arrives in a burst, once the burst has passed.
    const bursting = now < this.burstUntil;
    const backlog = (waiting > LIVE_MARKDOWN_LIMIT || bursting) && inFrame() && !this.catchingUp;
    const window =
      backlog || (final && waiting <= COMMIT_STEP) || !timely
        ? ""
        : text.slice(start, start + COMMIT_BUDGET);
    const ends = window === "" ? [] : this.blockEnds(window);
    // Render the complete blocks a step at a time while the frame has time: what is left
    // stays plain text and waits for the next frame.
    let cut = 0;
    let next = 0;
    while (next < ends.length && (cut === 0 || frameTime() < FRAME_MARKDOWN_MS)) {
      let end = ends[next] as number;
      while (next + 1 < ends.length && (ends[next + 1] as number) - cut <= COMMIT_STEP) {
        next += 1;
        end = ends[next] as number;
      }
      next += 1;
      this.addBlock(renderMarkdown(window.slice(cut, end)), start + cut, text.length - start - end);
      cut = end;
    }
    if (cut > 0) this.commit(text, start + cut);
    const tailLength = waiting - cut;
    // Blocks were looked for in the first steps of the window only when those held some
    // (see blockEnds): the tail may hold more, and a task of its own goes on with them.
    const searchedPart = window.length > BLOCK_SEARCH && cut > 0 && cut <= BLOCK_SEARCH;
    const more =
      backlog || next < ends.length || (cut > 0 && (tailLength > COMMIT_BUDGET || searchedPart));
    if (more) afterFrame(this.catchUp);
    // A tail that still holds complete blocks is rendered again as each of them is
    // committed: only a short one is worth rendering as markdown meanwhile.
    const limit = more ? PENDING_TAIL_LIMIT : final ? FINAL_BLOCK_LIMIT : LIVE_MARKDOWN_LIMIT;
    // Out of time, the tail is shown as text now and as markdown in the next frame.
    const late = tailLength <= limit && frameTime() >= FRAME_MARKDOWN_MS;
    // Not ready, it waits for the warm-up's end rather than asking every frame: the
    // libraries may be long in coming, or never come (a saved view without them).
    if (late || (!timely && ready)) schedule(this.resume);
    else if (!ready) afterWarm.add(this.resumeWhenWarm);
    const plain = tailLength > limit || late || !ready || fresh;
    // A plain tail is told by where it starts and ends (its pieces redraw what moved); a
    // markdown one, short enough to compare, by its text.
    const tail = plain
      ? `${this.committedLength}:${text.length}`
      : text.slice(this.committedLength);
    if (tail === this.lastTail && final === this.lastFinal && plain === this.lastPlain) return;
    this.lastTail = tail;
    this.lastFinal = final;
    this.lastPlain = plain;
    if (plain) {
      // A block this large (or the rest of a text still being committed) is drawn as plain
      // text: rendering it as markdown in one go would freeze the page.
      const attaching = this.live.firstChild !== this.plain || this.live.childNodes.length > 1;
      this.showPlain(text, this.committedLength, attaching);
      if (attaching) this.live.replaceChildren(this.plain);
    } else {
      this.live.replaceChildren(renderMarkdown(tail, final));
    }
  }

  /** Whether `text` goes on from what is committed: as long, with the same first and last
   * committed characters (text only grows while a run streams). */
  private continues(text: TextSource): boolean {
    const length = this.committedLength;
    if (length === 0) return true;
    const head = this.committedHead;
    const end = this.committedEnd;
    return (
      text.length >= length &&
      text.slice(0, head.length) === head &&
      text.slice(length - end.length, length) === end
    );
  }

  /** Put a rendered block, which starts at offset `at` and has `behind` characters of the
   * text after it, after the others, in the last page. A page begun far from both ends of
   * the text (a backlog caught up while the reader follows the end, or the middle of a
   * long saved text opened at its start) is held out of layout until it is on screen, as
   * plain sheets are. Each page was laid out as it entered the page; held, the backlog of a
   * 1M-delta burst left 60-66 frames of 30 ms and more behind it instead of 88-168. */
  private addBlock(content: DocumentFragment, at: number, behind: number): void {
    if (this.page === null || this.page.childElementCount >= PAGE_BLOCKS) {
      this.page = h("div", "cs-md-page");
      if (at > LIVE_MARKDOWN_LIMIT && behind > LIVE_MARKDOWN_LIMIT) this.heldBack.hold(this.page);
      if (this.chapter === null || this.chapter.childElementCount >= CHAPTER_PAGES) {
        this.chapter = h("div", "cs-md-chapter");
        this.done.append(this.chapter);
      }
      this.chapter.append(this.page);
    }
    const block = h("div", "cs-md-block");
    block.append(content);
    this.page.append(block);
  }

  /** Mark `text` up to `length` as rendered. */
  private commit(text: TextSource, length: number): void {
    this.committedLength = length;
    if (this.committedHead.length < EDGE)
      this.committedHead = text.slice(0, Math.min(EDGE, length));
    this.committedEnd = text.slice(Math.max(0, length - EDGE), length);
  }

  /** The complete blocks at the start of `window`, the first COMMIT_BUDGET characters
   * after what is committed: looked for in a few steps, which a frame can render, and in
   * the whole window only when those hold none (a long block), so a backlog is not lexed
   * whole on every frame. */
  private blockEnds(window: string): number[] {
    if (window.length > BLOCK_SEARCH) {
      const ends = completeBlockEnds(window.slice(0, BLOCK_SEARCH));
      if (ends.length > 0) return ends;
    }
    return completeBlockEnds(window);
  }
  /** Make the plain element show `text` from offset `from` on, in pieces; `attaching` says
   * the element is about to be put back into the page with every sheet it holds. Sheets
   * new to the page, except the last two (where a reader following the end looks), are
   * held out of layout until they come into view (see HeldBack). */
  private showPlain(text: TextSource, from: number, attaching: boolean): void {
    const starts = this.pieceStarts;
    const known = starts.length;
    for (;;) {
      const newline = text.indexOf("\n", (starts[starts.length - 1] as number) + PLAIN_PIECE);
      if (newline < 0 || newline + 1 >= text.length) break;
      starts.push(newline + 1);
    }
    const first = lastAtOrBefore(starts, from);
    const last = starts.length - 1;
    // Only the first piece (where the text now starts) and the pieces from the last one
    // drawn on can have changed: the pieces between keep their text and their place, and
    // are not gone over again. A backlog of megabytes, caught up a step at a time, is
    // thousands of pieces, and going over all of them made each step's task long.
    const before = this.plainShown;
    const whole = attaching || before === null || first < before.first || before.count !== known;
    const grown = whole ? first : Math.max(first, known - 1);
    const lastSheet = Math.floor(last / SHEET_PIECES);
    const firstSheet = Math.floor(first / SHEET_PIECES);
    const grownSheet = Math.floor(grown / SHEET_PIECES);
    let made = 0;
    const drawSheet = (n: number): void => {
      const firstPiece = Math.max(n * SHEET_PIECES, first);
      const to = Math.min((n + 1) * SHEET_PIECES, last + 1);
      const inSheet: HTMLElement[] = [];
      for (let k = firstPiece; k < to; k++) inSheet.push(this.drawPiece(text, from, k));
      if (!this.sheets.has(n)) made += 1;
      placeChildren(numbered(this.sheets, n, "cs-md-sheet"), inSheet);
    };
    if (firstSheet < grownSheet) drawSheet(firstSheet);
    for (let n = grownSheet; n <= lastSheet; n++) drawSheet(n);
    const firstChapter = Math.floor(firstSheet / CHAPTER_SHEETS);
    const lastChapter = Math.floor(lastSheet / CHAPTER_SHEETS);
    const grownChapter = Math.floor(grownSheet / CHAPTER_SHEETS);
    const drawChapter = (c: number): void => {
      const to = Math.min((c + 1) * CHAPTER_SHEETS, lastSheet + 1);
      const inChapter: HTMLElement[] = [];
      for (let n = Math.max(c * CHAPTER_SHEETS, firstSheet); n < to; n++) {
        inChapter.push(this.sheets.get(n) as HTMLElement);
      }
      placeChildren(numbered(this.plainChapters, c, "cs-md-sheets"), inChapter);
    };
    if (firstChapter < grownChapter) drawChapter(firstChapter);
    for (let c = grownChapter; c <= lastChapter; c++) drawChapter(c);
    // What the text no longer starts with goes: looked for in the whole of each map when
    // the pieces were drawn whole, else from the last call's first piece on.
    const gone = whole ? null : before.first;
    const goneSheet = gone === null ? null : Math.floor(gone / SHEET_PIECES);
    dropBelow(this.pieces, first, gone, (piece) => this.heldBack.forget(piece.el));
    dropBelow(this.sheets, firstSheet, goneSheet, (sheet, n) => {
      this.heldBack.forget(sheet);
      this.heldPieces.delete(n);
    });
    this.holdPastSheets(lastSheet);
    const goneChapter = goneSheet === null ? null : Math.floor(goneSheet / CHAPTER_SHEETS);
    dropBelow(this.plainChapters, firstChapter, goneChapter);
    // The sheets made by this call are the last ones; all of them when the element is put
    // back into the page. The last two, where a reader following the end looks, stay.
    const fresh = attaching ? lastSheet - firstSheet + 1 : made;
    for (let n = Math.max(firstSheet, lastSheet + 1 - fresh); n <= lastSheet - 2; n++) {
      this.heldBack.hold(this.sheets.get(n) as HTMLElement);
    }
    const chapters: HTMLElement[] = [];
    for (let c = firstChapter; c <= lastChapter; c++) {
      chapters.push(this.plainChapters.get(c) as HTMLElement);
    }
    placeChildren(this.plain, chapters);
    this.plainShown = { first, count: starts.length };
  }

  /** Piece `k` of the plain text, made or brought up to date to show `text` from `from` on. */
  private drawPiece(text: TextSource, from: number, k: number): HTMLElement {
    const starts = this.pieceStarts;
    const start = Math.max(starts[k] as number, from);
    const end = starts[k + 1] ?? text.length;
    let piece = this.pieces.get(k);
    const fresh = piece === undefined;
    if (piece === undefined) {
      const el = document.createElement("div");
      el.className = "cs-md-piece";
      piece = { el, start: -1, end: -1 };
      this.pieces.set(k, piece);
    }
    if (piece.start !== start || piece.end !== end) {
      const shown = text.slice(start, end);
      piece.el.textContent = shown;
      piece.start = start;
      piece.end = end;
      if (fresh && end < text.length - PLAIN_SHOWN_TAIL) {
        this.holdPiece(piece.el, shown, Math.floor(k / SHEET_PIECES));
      }
    }
    return piece.el;
  }

  /** Hold piece `el` of sheet `n`, which shows `shown`, out of layout until it comes into
   * view; meanwhile it is about as tall as its text will be, so that revealing it moves
   * little around it. */
  private holdPiece(el: HTMLElement, shown: string, n: number): void {
    this.heldBack.hold(el);
    if (!this.heldBack.holds(el)) return;
    el.style.containIntrinsicSize = `auto ${guessLines(shown)}lh`;
    const held = this.heldPieces.get(n);
    if (held === undefined) this.heldPieces.set(n, [el]);
    else held.push(el);
  }

  /** Sheets before the last two (`last` is the last) whose held pieces all stayed out of
   * view are held whole, and their pieces released into them (a held sheet skips its
   * content). A sheet one of whose pieces came into view is being read: it stays as it is. */
  private holdPastSheets(last: number): void {
    for (const [n, held] of this.heldPieces) {
      if (n >= last - 1) continue;
      this.heldPieces.delete(n);
      const sheet = this.sheets.get(n);
      if (sheet === undefined || !held.every((el) => this.heldBack.holds(el))) continue;
      if (!this.heldBack.holds(sheet)) this.heldBack.hold(sheet);
      for (const el of held) this.heldBack.release(el);
    }
  }
}

/** Characters a line of plain text is taken to hold when its height is guessed unseen. */
const GUESSED_LINE_CHARS = 100;

/** About how many lines `text` takes as plain text: each of its lines, wrapped every
 * GUESSED_LINE_CHARS characters. */
export function guessLines(text: string): number {
  let lines = 0;
  let from = 0;
  while (from < text.length) {
    const newline = text.indexOf("\n", from);
    const end = newline < 0 ? text.length : newline;
    lines += Math.max(1, Math.ceil((end - from) / GUESSED_LINE_CHARS));
    from = end + 1;
  }
  return lines;
}

/** The index of the last of the ascending `starts` that is at most `offset` (0 when none). */
function lastAtOrBefore(starts: readonly number[], offset: number): number {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if ((starts[middle] as number) <= offset) low = middle;
    else high = middle - 1;
  }
  return low;
}

/** Delete the entries of `elements` numbered below `to`, calling `gone` for each: looked for
 * from `from` on, or in the whole map when `from` is null. */
function dropBelow<T>(
  elements: Map<number, T>,
  to: number,
  from: number | null,
  gone: (element: T, n: number) => void = () => {},
): void {
  const drop = (n: number, element: T): void => {
    elements.delete(n);
    gone(element, n);
  };
  if (from === null) {
    for (const [n, element] of elements) if (n < to) drop(n, element);
    return;
  }
  for (let n = from; n < to; n++) {
    const element = elements.get(n);
    if (element !== undefined) drop(n, element);
  }
}

/** The element numbered `n` in `elements`, made with `className` when first needed. */
function numbered(elements: Map<number, HTMLElement>, n: number, className: string): HTMLElement {
  let el = elements.get(n);
  if (el === undefined) {
    el = h("div", className);
    elements.set(n, el);
  }
  return el;
}
