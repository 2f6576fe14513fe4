/**
 * The status bar: status, elapsed time (ticking while the run goes on), time to first token,
 * chunk count, tokens/s, usage, finish reason, wire problems, and the Stop button.
 */

import { statusView } from "../model/selectors";
import type { Store } from "../model/store";
import { formatSeconds, h, setText } from "./dom";
import { schedule, unschedule } from "./frame";
import { Badge } from "./transcript/sections";

/** How often the elapsed time is refreshed while the run goes on. */
const TICK_MS = 200;

export class StatusBar {
  /** The bar's element. */
  readonly el = h("div", "cs-status");
  /** Called when the user presses Stop. */
  onStop: () => void = () => {};

  private readonly badge = new Badge();
  private readonly elapsed = h("span", "cs-stat");
  private readonly ttft = h("span", "cs-stat");
  private readonly chunks = h("span", "cs-stat");
  private readonly rate = h("span", "cs-stat");
  private readonly usage = h("span", "cs-stat");
  private readonly finish = h("span", "cs-stat");
  private readonly error = h("span", "cs-stat cs-error-text");
  private readonly problems = h("details", "cs-problems");
  private readonly problemsSummary = h("summary");
  private readonly problemsList = h("ul");
  private readonly stop = h("button", "cs-stop", "■ Stop");
  private drawnProblems = "";

  constructor() {
    this.stop.type = "button";
    this.stop.title = "Ask the kernel to stop consuming the stream";
    this.stop.addEventListener("click", () => {
      this.stop.disabled = true;
      this.onStop();
    });
    this.problems.append(this.problemsSummary, this.problemsList);
    this.problems.hidden = true;
    this.el.append(
      this.badge.el,
      this.elapsed,
      this.ttft,
      this.chunks,
      this.rate,
      this.usage,
      this.finish,
      this.error,
      this.problems,
      this.stop,
    );
  }

  /** Redraw from the store's state at wall-clock time `now`. Returns whether to keep ticking. */
  draw(store: Store, now: number): boolean {
    const state = store.get();
    const view = statusView(state, now);
    this.badge.set(view.status);
    setText(this.elapsed, `elapsed ${formatSeconds(view.elapsedMs)}`);
    setText(this.ttft, view.ttftMs === null ? "" : `first token ${formatSeconds(view.ttftMs)}`);
    setText(this.chunks, `${view.chunkCount} chunks`);
    let rate = "";
    if (view.tokensPerSecond !== null) {
      rate = view.tokensEstimated
        ? `≈${view.tokensPerSecond.toFixed(1)} tok/s (estimated, chars/4)`
        : `${view.tokensPerSecond.toFixed(1)} tok/s`;
    }
    setText(this.rate, rate);
    setText(this.usage, view.usage.map((u) => `${u.label} ${u.value}`).join(" · "));
    setText(this.finish, view.finishReason === null ? "" : `finish: ${view.finishReason}`);
    setText(this.error, view.error ?? "");
    for (const stat of [this.ttft, this.rate, this.usage, this.finish, this.error])
      stat.hidden = !stat.textContent;
    this.stop.disabled = view.ended;
    const problemsKey = `${state.problems.length}:${state.problems[state.problems.length - 1] ?? ""}`;
    if (problemsKey !== this.drawnProblems) {
      this.drawnProblems = problemsKey;
      this.problems.hidden = state.problems.length === 0;
      setText(this.problemsSummary, `⚠ ${state.problems.length} wire problem(s)`);
      this.problemsList.replaceChildren(...state.problems.map((p) => h("li", "", p)));
    }
    return !view.ended && view.status === "running" && state.liveAnchor !== null;
  }
}

/** Mount the status bar; it redraws once per frame on store changes and ticks while running. */
export function mountStatus(container: HTMLElement, store: Store, onStop: () => void): () => void {
  const bar = new StatusBar();
  bar.onStop = onStop;
  container.append(bar.el);
  let timer: ReturnType<typeof setInterval> | null = null;
  const redraw = () => {
    const ticking = bar.draw(store, Date.now());
    if (ticking && timer === null) timer = setInterval(() => schedule(redraw), TICK_MS);
    if (!ticking && timer !== null) {
      clearInterval(timer);
      timer = null;
    }
  };
  const stop = store.subscribe(() => schedule(redraw));
  redraw();
  return () => {
    stop();
    unschedule(redraw);
    if (timer !== null) clearInterval(timer);
    bar.el.remove();
  };
}
