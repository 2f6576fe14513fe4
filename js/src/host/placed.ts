/**
 * The views drawn of one model, and where each was placed last.
 *
 * JupyterLab renders a widget output again each time the kernel updates its display (a
 * StreamView or a board does as its runs grow): it empties the old element and asks for a
 * new view without unmounting the old one. The view that was shown there and is now off the
 * page is moved into the new element as it stands (its scroll position, selection and
 * search kept) instead of a new one being built beside it.
 */

/** A view that can be moved into another element. */
export interface MovableView {
  /** The view's own element. */
  readonly el: HTMLElement;
  /** Whether the view has been in the page since it was mounted. */
  wasShown(): boolean;
  /** Put the view into `el` as it stands. */
  moveTo(el: HTMLElement): void;
  /** Remove the view and stop listening. */
  unmount(): void;
}

/** A view, and the render call that owns it (the last one it was placed by). */
interface Placed<V> {
  view: V;
  owner: object | null;
}

export class PlacedViews<V extends MovableView> {
  private readonly placed = new Set<Placed<V>>();

  /** How many views are drawn and not unmounted. */
  get size(): number {
    return this.placed.size;
  }

  /**
   * Show a view in `el`: one that left the page is moved there, else `mount` builds a new
   * one. Returns the render's cleanup, which unmounts the view unless a later render has
   * taken it over.
   */
  place(el: HTMLElement, mount: () => V): () => void {
    let placed = [...this.placed].find(
      (candidate) => !candidate.view.el.isConnected && candidate.view.wasShown(),
    );
    if (placed === undefined) {
      placed = { view: mount(), owner: null };
      this.placed.add(placed);
    } else {
      placed.view.moveTo(el);
    }
    const view = placed;
    const owner = {};
    view.owner = owner;
    return () => {
      // A render whose view moved on to a later output no longer owns it.
      if (view.owner !== owner) return;
      this.placed.delete(view);
      view.view.unmount();
    };
  }
}
