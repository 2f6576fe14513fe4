/**
 * Stand-in for a panel module missing from this build: it says so instead of failing.
 */
import { h } from "../dom";
import type { MountPanel } from "../panel";

/** A panel that only explains that `name` is not part of this build. */
export function unavailablePanel(name: string): MountPanel {
  return (container) => {
    const note = h("div", "cs-empty", `The ${name} panel is not available in this build.`);
    container.append(note);
    return () => note.remove();
  };
}
