/**
 * How a JSON tree deep inside a part view reaches whoever can fetch held values: a bubbling
 * DOM event from the tree up to the app's root, where the widget's fetcher listens. Part
 * views are built without any handle on the kernel, and a page with no kernel (the exported
 * page) simply has no listener.
 */
import type { FetchHeld, HeldRequest, ReportLoad } from "./values";

/** Name of the event a tree dispatches to ask for a whole value. */
export const FETCH_HELD_EVENT = "chunkscope-fetch-held";

interface FetchHeldDetail {
  request: HeldRequest;
  report: ReportLoad;
}

/** Ask, from `origin`, for the whole value of `request`; when nothing above `origin` can
 * fetch it, `report` hears so at once. */
export function requestWhole(origin: Element, request: HeldRequest, report: ReportLoad): void {
  const event = new CustomEvent<FetchHeldDetail>(FETCH_HELD_EVENT, {
    bubbles: true,
    cancelable: true,
    detail: { request, report },
  });
  const unanswered = origin.dispatchEvent(event);
  if (unanswered) {
    report({ state: "failed", message: "no kernel is connected to send the rest of this value" });
  }
}

/** Answer the requests of every tree under `root` with `fetchHeld`; returns the function
 * that stops listening. */
export function relayWholeRequests(root: Element, fetchHeld: FetchHeld): () => void {
  const listener = (event: Event) => {
    const detail = (event as CustomEvent<FetchHeldDetail>).detail;
    if (detail === null || typeof detail !== "object") return;
    event.preventDefault();
    event.stopPropagation();
    fetchHeld(detail.request, detail.report);
  };
  root.addEventListener(FETCH_HELD_EVENT, listener);
  return () => root.removeEventListener(FETCH_HELD_EVENT, listener);
}
