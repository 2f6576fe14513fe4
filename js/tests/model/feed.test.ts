import { describe, expect, it } from "vitest";
import type { LoadStatus } from "../../src/held/values";
import { createFeed, NO_KERNEL } from "../../src/model/feed";
import { emptyState, fromSnapshot } from "../../src/model/store";
import type { Up } from "../../src/model/wire";
import { batch, part, snapshot, snapshotMsg } from "../helpers";

function feedWith(initial = emptyState()) {
  const sent: Up[] = [];
  const feed = createFeed({ send: (up) => sent.push(up), initial });
  return { feed, sent };
}

describe("a run's feed", () => {
  it("folds the kernel's messages into its store", () => {
    const { feed } = feedWith();
    feed.receive(snapshotMsg(snapshot([part("text", { id: "t", text: "Hi" })], { seq: 1 })));
    feed.receive(batch(2, { op: "append", id: "t", field: "text", text: " there", t: 5 }));
    expect(feed.store.get().byId.get("t")).toMatchObject({ text: "Hi there" });
  });

  it("asks for a resync once per gap and again after the next snapshot", () => {
    const { feed, sent } = feedWith();
    feed.receive(snapshotMsg(snapshot([], { seq: 1 })));
    feed.receive(batch(3));
    feed.receive(batch(4));
    expect(sent).toEqual([{ kind: "resync", have: 1 }]);
    feed.receive(snapshotMsg(snapshot([], { seq: 4 })));
    feed.receive(batch(7));
    expect(sent).toEqual([
      { kind: "resync", have: 1 },
      { kind: "resync", have: 4 },
    ]);
  });

  it("asks for the rows once, only after a kernel sent the run", () => {
    const { feed, sent } = feedWith();
    feed.wantRows();
    expect(sent).toEqual([]);
    const live = snapshot([], { seq: 1 });
    delete live.rows;
    feed.receive(snapshotMsg(live));
    feed.wantRows();
    feed.receive(batch(2));
    expect(sent).toEqual([{ kind: "rows" }]);
  });

  it("says at once that a held value needs the kernel when only a saved run is held", () => {
    const { feed, sent } = feedWith(fromSnapshot(snapshot([], { seq: 3 })));
    const reports: LoadStatus[] = [];
    feed.fetchHeld({ part: "p", field: "result", token: 1, size: 10 }, (s) => reports.push(s));
    expect(sent).toEqual([]);
    expect(reports).toEqual([{ state: "failed", message: NO_KERNEL }]);
  });
});
