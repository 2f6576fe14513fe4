// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import { createStore } from "../../src/model/store";
import { gateWhileDetached, type WatchSight } from "../../src/views/attached";

/** A sight watcher the test drives: `see()` is the root coming into view. */
function fakeSight(): { watch: WatchSight; see(visible?: boolean): void; watching(): boolean } {
  let onSight: ((visible: boolean) => void) | null = null;
  return {
    watch(_el, fn) {
      onSight = fn;
      return () => {
        onSight = null;
      };
    },
    see: (visible = true) => onSight?.(visible),
    watching: () => onSight !== null,
  };
}

function report(store: ReturnType<typeof createStore>, problem: string): void {
  store.report(problem);
}

/** A store gated on a root that is in the page, and the versions its one listener saw. */
function gatedInThePage() {
  const store = createStore();
  const root = document.createElement("div");
  document.body.append(root);
  const sight = fakeSight();
  const gate = gateWhileDetached(store, root, sight.watch);
  const versions: number[] = [];
  gate.store.subscribe((s) => versions.push(s.version));
  return { store, root, sight, gate, versions };
}

describe("a view taken off the page", () => {
  it("is told of changes while its root is in the document", () => {
    const { store, root, versions } = gatedInThePage();
    report(store, "one");
    report(store, "two");
    expect(versions).toHaveLength(2);
    root.remove();
  });

  it("draws nothing while detached, then once with the latest state when seen again", () => {
    const { store, root, sight, versions } = gatedInThePage();
    root.remove(); // the renderer emptied its node
    for (let i = 0; i < 50; i++) report(store, `problem ${i}`);
    expect(versions).toEqual([]);
    sight.see(); // still detached: an observer may report while the element is gone
    expect(versions).toEqual([]);
    document.body.append(root);
    sight.see(false); // back in the page but scrolled out of sight: still nothing
    expect(versions).toEqual([]);
    sight.see();
    expect(versions).toEqual([store.get().version]);
    sight.see(); // nothing missed since
    expect(versions).toHaveLength(1);
    report(store, "live again");
    expect(versions).toHaveLength(2);
    root.remove();
  });

  it("tells what it missed when its owner puts it back, though no observer saw it leave", () => {
    const { store, root, sight, gate, versions } = gatedInThePage();
    root.remove(); // the renderer emptied its node ...
    report(store, "the run's last batch");
    gate.back(); // ... and the view is not back yet: nothing
    expect(versions).toEqual([]);
    const output = document.createElement("div");
    document.body.append(output);
    output.append(root); // ... and the view was moved into the output drawn again
    gate.back();
    expect(versions).toEqual([store.get().version]);
    gate.back(); // nothing missed since
    sight.see();
    expect(versions).toHaveLength(1);
    output.remove();
  });

  it("says whether its root was ever in the page", () => {
    const store = createStore();
    const root = document.createElement("div");
    const sight = fakeSight();
    const gate = gateWhileDetached(store, root, sight.watch);
    expect(gate.wasShown()).toBe(false);
    document.body.append(root);
    sight.see(false);
    root.remove();
    expect(gate.wasShown()).toBe(true);
  });

  it("stops watching and forgets missed listeners when disposed or unsubscribed", () => {
    const store = createStore();
    const root = document.createElement("div");
    const sight = fakeSight();
    const gate = gateWhileDetached(store, root, sight.watch);
    let calls = 0;
    const stop = gate.store.subscribe(() => {
      calls += 1;
    });
    report(store, "missed");
    stop();
    document.body.append(root);
    sight.see();
    expect(calls).toBe(0);
    gate.dispose();
    expect(sight.watching()).toBe(false);
    root.remove();
  });

  it("passes everything through where nothing can tell it is in sight", () => {
    const store = createStore();
    const root = document.createElement("div"); // never attached
    const gate = gateWhileDetached(store, root, null);
    let calls = 0;
    gate.store.subscribe(() => {
      calls += 1;
    });
    report(store, "seen");
    expect(calls).toBe(1);
  });
});
