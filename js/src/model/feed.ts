/**
 * What a page needs to follow one run a kernel streams to it: a store fed by the kernel's
 * messages (docs/wire.md), the fetcher of held values, and the requests the page makes of
 * the kernel for that run (the inspector rows, asked for once; a resync, asked for once per
 * gap). A StreamView has one per model; a board has one for the run it shows in full.
 */
import { HeldFetcher } from "../held/fetcher";
import type { FetchHeld } from "../held/values";
import { isRecord } from "../util";
import { createStore, type Store, type StoreState } from "./store";
import type { Down, HeldAnswer, Up } from "./wire";

/** Why a held value cannot be fetched in a view no kernel has answered. */
export const NO_KERNEL =
  "no kernel is connected to this view: the whole value stays in the kernel that ran the cell (run it again to see all of it)";

export interface FeedOptions {
  /** Send a request about this run to the kernel. */
  send(up: Up): void;
  /** The store's first state (a saved run, or an empty one). */
  initial: StoreState;
}

export interface Feed {
  /** The run's store. */
  store: Store;
  /** Take one kernel message about this run. */
  receive(msg: unknown): void;
  /** Fetch the whole value of a held field into the store. */
  fetchHeld: FetchHeld;
  /** A view needs the inspector rows: ask the kernel for them (once) when it has not sent
   * them. */
  wantRows(): void;
  /** Stop listening to the store and drop pending fetches. */
  dispose(): void;
}

export function createFeed({ send, initial }: FeedOptions): Feed {
  const store = createStore(initial);
  const fetcher = new HeldFetcher({
    send,
    apply: (request, value) => store.fillHeld(request.part, request.field, request.token, value),
  });
  // Pieces of held values go to the fetcher; everything else is the store's.
  const receive = (msg: unknown) => {
    if (isRecord(msg) && msg.kind === "held") fetcher.receive(msg as unknown as HeldAnswer);
    else store.dispatch(msg as Down);
  };

  // Rows are asked for once a view wants them and a kernel has answered; the kernel then
  // keeps sending them to every page of the run, so one request is enough.
  let rowsWanted = false;
  let askedForRows = false;
  const askForRows = () => {
    const state = store.get();
    if (!rowsWanted || askedForRows || state.rowsLoaded || !state.snapshotSeen) return;
    askedForRows = true;
    send({ kind: "rows" });
  };

  // Ask once per gap; a snapshot clears `needsResync` and re-arms the request.
  let askedForResync = false;
  const stopWatching = store.subscribe((state) => {
    if (state.needsResync && !askedForResync) {
      askedForResync = true;
      send({ kind: "resync", have: state.seq });
    } else if (!state.needsResync) {
      askedForResync = false;
    }
    askForRows();
  });

  return {
    store,
    receive,
    fetchHeld: (request, report) => {
      // Only a kernel that sent a snapshot holds the run: a saved run reopened without one
      // has the preview and nothing more, and should say so at once.
      if (store.get().snapshotSeen) fetcher.fetch(request, report);
      else report({ state: "failed", message: NO_KERNEL });
    },
    wantRows() {
      rowsWanted = true;
      askForRows();
    },
    dispose() {
      fetcher.dispose();
      stopWatching();
    },
  };
}
