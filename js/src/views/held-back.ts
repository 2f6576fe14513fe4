/**
 * Elements kept out of layout until they come into view.
 *
 * A browser lays an element with `content-visibility: auto` out once when it enters the
 * page, before it knows whether the element is on screen; only later frames skip it. A
 * stream that adds the sheets of a long plain text far faster than anyone reads them (or a
 * backlog of them put back into the page at once) would pay for laying out text nobody
 * sees. `hidden="until-found"` keeps such an element out of layout from the start, with its
 * text still in the page, where find-in-page finds it (and the browser reveals it); an
 * IntersectionObserver reveals it when it is scrolled into view.
 */
export class HeldBack {
  private observer: IntersectionObserver | null = null;

  /** Keep `el` out of layout until it comes into view; a no-op where nothing could tell
   * when that happens (no IntersectionObserver). */
  hold(el: HTMLElement): void {
    const observer = this.ensureObserver();
    if (observer === null) return;
    el.setAttribute("hidden", "until-found");
    observer.observe(el);
  }

  /** Put `el` back into layout now and stop watching it. */
  release(el: HTMLElement): void {
    el.removeAttribute("hidden");
    this.observer?.unobserve(el);
  }

  /** Whether `el` is held (not yet come into view, nor released). */
  holds(el: HTMLElement): boolean {
    return el.getAttribute("hidden") === "until-found";
  }

  /** Stop watching `el` (it left the page). */
  forget(el: HTMLElement): void {
    this.observer?.unobserve(el);
  }

  /** Stop watching everything. */
  clear(): void {
    this.observer?.disconnect();
    this.observer = null;
  }

  private ensureObserver(): IntersectionObserver | null {
    if (this.observer !== null) return this.observer;
    if (typeof IntersectionObserver !== "function") return null;
    // The viewport as root: a held element anywhere in the page is revealed once it shows.
    const observer = new IntersectionObserver((entries) => {
      for (const entry of entries) {
        if (!entry.isIntersecting) continue;
        entry.target.removeAttribute("hidden");
        observer.unobserve(entry.target);
      }
    });
    this.observer = observer;
    return observer;
  }
}
