/**
 * A fresh view's first words, drawn before the view itself is built.
 *
 * Building a StreamView's view (header, tabs, find bar, status bar, transcript) and drawing
 * it the first time costs a page that has not drawn one yet 15-25 ms, most of it the engine
 * compiling the views' code on first use, then laying them out; a fast stream's words are
 * there by then. So a new view first draws what a reader sees first, where the view will
 * show it and as it will look: the title bar, the status line and the run's text, plain (as
 * the view shows a text until its markdown libraries have come). The view is built at the
 * start of the frame after the one that painted the words, and takes the sketch's place in
 * that frame.
 *
 * The sketch draws a run of one step and one text part, up to `FIRST_WORDS_MAX_CHARS`; a run
 * that holds anything else (a tool call, reasoning, a second step) is built at once, and so is
 * one that has ended with no text. It is inert: nothing in it can be clicked or focused.
 */

import { holdsNothing, type StoreState } from "../model/store";
import type { Part } from "../model/wire";
import type { Watchable } from "./attached";
import { h, setText } from "./dom";
import { atNextFrame, schedule, unschedule } from "./frame";
import { stateClass, stateLabel } from "./transcript/sections";

/** Longest text (characters) the sketch draws; a longer run is built at once, as the view
 * windows a long text and a single text node of it would be slow to lay out. */
export const FIRST_WORDS_MAX_CHARS = 20_000;

/** The longest (ms) the sketch waits for its first words before the view is built anyway:
 * a model that takes a while to answer shows the whole view while it thinks. */
export const FIRST_WORDS_WAIT_MS = 150;

/** What the sketch draws of a run: the text of its one text part ("" before it), and whether
 * a step holds it. */
interface Sketched {
  text: string;
  step: boolean;
}

/** What the sketch can draw of `state`, or null when it cannot: the run holds something else
 * (another step, another part, a longer text than `FIRST_WORDS_MAX_CHARS`), or it has ended
 * with no text. */
export function sketchOf(state: StoreState): Sketched | null {
  const parts = state.parts as readonly Part[];
  let text: string | null = null;
  let steps = 0;
  for (const part of parts) {
    if (part.kind === "step" && steps === 0) steps += 1;
    else if (part.kind === "text" && text === null) text = part.text;
    else return null;
  }
  if (text !== null && text.length > FIRST_WORDS_MAX_CHARS) return null;
  if (state.run.ended && !text) return null;
  return { text: text ?? "", step: parts[0]?.kind === "step" };
}

/** Whether a view of `state` is worth sketching first: a run already under way, whose words
 * are there or coming (see the module's comment). A view drawn before its run sent anything
 * is built at once, while it waits. */
export function sketchable(state: StoreState): boolean {
  return !holdsNothing(state) && sketchOf(state) !== null;
}

/**
 * Draw the sketch into `root` and call `build` (once) when the view should take its place:
 * after the first painted frame that shows words, when the run holds something the sketch
 * cannot draw, or after `FIRST_WORDS_WAIT_MS`. Returns the function that removes it.
 */
export function sketchFirstWords(
  root: HTMLElement,
  store: Watchable<StoreState>,
  title: () => string,
  build: () => void,
): () => void {
  // Lookalikes of the view's parts, in its places; their classes are the sketch's own (the
  // style sheet gives them the view's looks), so nothing that looks for the view finds them.
  const sketch = h("div", "cs-first-words");
  sketch.inert = true;
  sketch.setAttribute("aria-busy", "true");
  const header = h("div", "cs-sketch-header");
  const titleEl = h("span", "cs-sketch-title", title());
  const tabs = h("div", "cs-sketch-tabs");
  tabs.append(
    h("span", "cs-sketch-tab cs-sketch-tab-on", "Transcript"),
    h("span", "cs-sketch-tab", "Timeline"),
    h("span", "cs-sketch-tab", "Chunks"),
  );
  header.append(titleEl, tabs, h("span", "cs-sketch-find", "Find"));
  const status = h("div", "cs-sketch-status");
  const badge = h("span", "cs-sketch-badge");
  status.append(badge, h("span", "cs-sketch-stop", "■ Stop"));
  const transcript = h("div", "cs-sketch-transcript");
  const step = h("div", "cs-sketch-step");
  const body = h("div", "cs-sketch-body");
  const words = h("div", "cs-sketch-text");
  body.append(h("span", "cs-sketch-copy"), words);
  const stepHead = h("div", "cs-sketch-step-head", "Step 1");
  step.append(stepHead, body);
  transcript.append(step);
  step.hidden = true;
  sketch.append(header, status, transcript);
  root.append(sketch);

  let done = false;
  let shownWords = false;
  const finish = () => {
    if (done) return;
    done = true;
    build();
  };
  const draw = () => {
    if (done) return;
    const state = store.get();
    const sketched = sketchOf(state);
    if (sketched === null) {
      finish();
      return;
    }
    const { text } = sketched;
    setText(titleEl, title());
    setText(badge, stateLabel(state.run.status));
    badge.className = `cs-sketch-badge ${stateClass(state.run.status)}`;
    stepHead.hidden = !sketched.step;
    step.hidden = text === "";
    if (words.textContent !== text) words.textContent = text;
    if (text !== "" && !shownWords) {
      shownWords = true;
      // Built at the start of the next frame, not in a task right after this one: the
      // browser presents the words and answers what is waiting before the long build.
      atNextFrame(finish);
    }
  };
  const stop = store.subscribe(() => schedule(draw));
  const timer = setTimeout(finish, FIRST_WORDS_WAIT_MS);
  // Drawn in the next frame, as every later change: the view is then built in the frame
  // after the one that painted the words, never before it.
  schedule(draw);
  return () => {
    done = true;
    stop();
    clearTimeout(timer);
    unschedule(draw);
    sketch.remove();
  };
}
