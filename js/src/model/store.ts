/**
 * The front end's copy of a run: a snapshot plus every op batch folded in after it
 * (docs/wire.md). Python does the folding of chunks; this module only applies ops.
 *
 * Update strategy: the state is mutated in place. Applying a batch touches only the parts,
 * rows and transient items the batch names (O(size of the batch), never O(size of the
 * store)); `version` goes up on every applied message and `partRev` records, per part id,
 * the `version` at which that part last changed, so a view redraws only what moved.
 * A derived state (for example a past state built for scrubbing) that hands out new part
 * objects is redrawn from those objects, because views compare both the object and its rev.
 */
import { heldEntry, heldWithout } from "../held/values";
import { isRecord, preview } from "../util";
import { compactStates, expandStates } from "./history";
import { forgetText, growText } from "./rope";
import {
  type ChunkRow,
  type Down,
  MARK_INTERVAL_MS,
  type Op,
  type Part,
  type ReasoningPart,
  type RowsPiece,
  type RunInfo,
  type Snapshot,
  type StateMark,
  type TextPart,
  TRANSIENT_CAP,
  type TransientItem,
} from "./wire";

/** How many problems (ops the store could not apply) are kept for display. */
export const PROBLEM_CAP = 50;

export interface StoreState {
  /** `seq` of the last batch folded in (0 before any). */
  seq: number;
  /** The run-level record: status, timing, usage. */
  run: RunInfo;
  /** Every part, in creation order. */
  parts: Part[];
  /** Parts by id (the same objects as in `parts`). */
  byId: Map<string, Part>;
  /** Position of each part in `parts`, so a replacing `add` is O(1). */
  indexOf: Map<string, number>;
  /** The chunk inspector's rows, persisted chunks only. */
  rows: ChunkRow[];
  /** `rows` holds every row: a live kernel sends them only once a page asks (`{kind:
   * "rows"}`); a saved or exported run always has them. */
  rowsLoaded: boolean;
  /** Pieces of the rows received so far, put in place of `rows` when the last one comes. */
  incomingRows: ChunkRow[] | null;
  /** Live-only items (transient `data-*` chunks), the last `TRANSIENT_CAP` of them. */
  transient: TransientItem[];
  /** A batch was missed (or an op named an unknown part): ask for a snapshot; batches are
   * ignored until it arrives. */
  needsResync: boolean;
  /** Goes up by one on every applied message. */
  version: number;
  /** Part id → the `version` at which that part last changed. */
  partRev: Map<string, number>;
  /** Counts the times a part already known was replaced or moved (new `parent`, `step`
   * or `kind`); parts only added at the end leave it alone, so views can extend what they
   * built instead of rebuilding it. */
  structureRev: number;
  /** `version` at which `rows` last changed. */
  rowsRev: number;
  /** `version` at which `transient` last changed. */
  transientRev: number;
  /** A `snapshot` message (not just the saved trait) has been received. */
  snapshotSeen: boolean;
  /** Wall-clock time (ms since epoch) of the last live message that set `run.elapsedMs`;
   * null when the state only comes from saved data, so the clock must not tick. */
  liveAnchor: number | null;
  /** What the store could not apply, newest last, so it can be shown instead of lost. */
  problems: string[];
}

export function emptyRun(title = ""): RunInfo {
  return {
    title,
    status: "waiting",
    runId: null,
    finishReason: null,
    usage: null,
    ttftMs: null,
    elapsedMs: 0,
    chunkCount: 0,
    outputTokens: null,
    error: null,
    ended: false,
  };
}

export function emptyState(title = ""): StoreState {
  return {
    seq: 0,
    run: emptyRun(title),
    parts: [],
    byId: new Map(),
    indexOf: new Map(),
    rows: [],
    rowsLoaded: false,
    incomingRows: null,
    transient: [],
    needsResync: false,
    version: 0,
    partRev: new Map(),
    structureRev: 0,
    rowsRev: 0,
    transientRev: 0,
    snapshotSeen: false,
    liveAnchor: null,
    problems: [],
  };
}

/** A fresh state holding a snapshot (copied, so later ops never write into the caller's
 * objects, such as a synced trait value). */
export function fromSnapshot(s: Snapshot, transient: TransientItem[] = []): StoreState {
  const state = emptyState();
  if (!isRecord(s) || !Array.isArray(s.parts)) {
    state.problems.push("snapshot is not an object with a parts list; showing an empty run");
    return state;
  }
  state.seq = typeof s.seq === "number" ? s.seq : 0;
  state.run = { ...emptyRun(), ...(isRecord(s.run) ? s.run : {}) };
  for (const raw of s.parts) {
    if (!isPart(raw)) {
      note(state, `snapshot part without a string id/kind was skipped: ${preview(raw)}`);
      continue;
    }
    insertPart(state, copyPart(raw));
  }
  state.rowsLoaded = Array.isArray(s.rows);
  state.rows = Array.isArray(s.rows) ? s.rows.map((r) => ({ ...r })) : [];
  state.transient = Array.isArray(transient) ? transient.slice(-TRANSIENT_CAP) : [];
  return state;
}

/**
 * Apply one kernel message. Mutates `state` in place and returns it, except for a
 * snapshot, which returns a new state. `receivedAt` is the wall-clock time the message
 * arrived, used to keep the elapsed-time display ticking between messages.
 */
export function applyDown(
  state: StoreState,
  msg: Down,
  receivedAt: number | null = null,
): StoreState {
  if (!isRecord(msg)) {
    note(state, `message is not an object: ${preview(msg)}`);
    return bump(state);
  }
  if (msg.kind === "snapshot") {
    // Transient items are this page's live memory: a snapshot (an answer to "ready" or a
    // resync) keeps the ones already shown and adds any the kernel sent.
    const sent = Array.isArray(msg.transient) ? msg.transient : [];
    const next = fromSnapshot(msg.snapshot, [...state.transient, ...sent]);
    next.problems = [...state.problems, ...next.problems].slice(-PROBLEM_CAP);
    next.version = state.version + 1;
    for (const id of next.byId.keys()) next.partRev.set(id, next.version);
    next.rowsRev = next.version;
    next.transientRev = next.version;
    next.snapshotSeen = true;
    next.liveAnchor = receivedAt;
    return next;
  }
  if (msg.kind === "synced") {
    // The kernel's answer to a page that followed every batch from the first: the batches
    // sent before it have arrived, so this page holds batch `seq`; anything else means one
    // was lost on the way.
    if (typeof msg.seq !== "number") {
      note(state, `synced without a numeric seq: ${preview(msg)}`);
      return bump(state);
    }
    state.snapshotSeen = true;
    if (msg.seq !== state.seq && !state.needsResync) {
      state.needsResync = true;
      note(
        state,
        `the kernel is at batch ${msg.seq}, this page at ${state.seq}: asking for a snapshot`,
      );
    }
    return bump(state);
  }
  if (msg.kind === "batch") {
    if (state.needsResync) return state;
    if (typeof msg.seq !== "number" || !Array.isArray(msg.ops)) {
      note(state, `batch without a numeric seq and an ops list: ${preview(msg)}`);
      return bump(state);
    }
    if (msg.seq <= state.seq) return state; // already folded into the snapshot we hold
    if (msg.seq !== state.seq + 1) {
      // Before the kernel's answer to our "ready" arrives, a gap is expected (a page reloaded
      // mid-stream hears batches it missed the start of): the coming snapshot holds them.
      if (!state.snapshotSeen) return state;
      state.needsResync = true;
      note(state, `batch ${msg.seq} arrived after batch ${state.seq}: asking for a snapshot`);
      return bump(state);
    }
    state.version += 1;
    state.seq = msg.seq;
    for (const op of msg.ops) applyOp(state, op, receivedAt);
    return state;
  }
  // (`isRecord` narrowed the interface members of Down away.)
  if ((msg as { kind?: unknown }).kind === "rows")
    return applyRows(state, msg as unknown as RowsPiece);
  note(state, `unknown message kind: ${preview((msg as { kind?: unknown }).kind)}`);
  return bump(state);
}

/** Gather the pieces of the rows answer; the whole list replaces `rows` once complete. */
function applyRows(state: StoreState, msg: RowsPiece): StoreState {
  if (state.needsResync) return state; // the coming snapshot carries the rows
  if (
    typeof msg.seq !== "number" ||
    typeof msg.offset !== "number" ||
    typeof msg.total !== "number" ||
    !Array.isArray(msg.rows)
  ) {
    note(
      state,
      `rows message without numeric seq, offset and total and a rows list: ${preview(msg)}`,
    );
    return bump(state);
  }
  if (msg.seq !== state.seq) {
    // Rows for batches this page has not folded: before its snapshot arrives that is
    // expected (the snapshot will hold them); after, something was lost.
    if (!state.snapshotSeen) return state;
    state.needsResync = true;
    note(
      state,
      `chunk rows for batch ${msg.seq} arrived at batch ${state.seq}: asking for a snapshot`,
    );
    return bump(state);
  }
  if (msg.offset === 0) state.incomingRows = [];
  const incoming = state.incomingRows;
  if (incoming === null || msg.offset !== incoming.length) {
    state.incomingRows = null;
    state.needsResync = true;
    note(
      state,
      `chunk rows from ${msg.offset} arrived after ${incoming?.length ?? 0} of them: asking for a snapshot`,
    );
    return bump(state);
  }
  for (const row of msg.rows) {
    if (isRecord(row)) incoming.push({ ...row });
    else note(state, `chunk row is not an object: ${preview(row)}`);
  }
  if (msg.offset + msg.rows.length < msg.total) return state;
  state.incomingRows = null;
  state.rows = incoming;
  state.rowsLoaded = true;
  bump(state);
  state.rowsRev = state.version;
  return state;
}

/**
 * Whether the store holds nothing yet: no kernel answered and no part came. A saved run of
 * seq 0 (one no page was ready for while it ran: executed headless, or a board's run that was
 * never opened) is still ahead of it.
 */
export function holdsNothing(state: StoreState): boolean {
  return !state.snapshotSeen && state.seq === 0 && state.parts.length === 0;
}

/**
 * Take a newer saved snapshot (the synced trait) when it is ahead of what the store holds;
 * transient items and the "snapshot message seen" flag are kept. Returns `state` unchanged
 * when the snapshot is not newer.
 */
export function adoptSaved(
  state: StoreState,
  snapshot: Snapshot | null,
  receivedAt: number | null = null,
): StoreState {
  if (!isRecord(snapshot) || typeof snapshot.seq !== "number") return state;
  if (snapshot.seq <= state.seq && !holdsNothing(state)) return state;
  const next = fromSnapshot(snapshot, state.transient);
  next.version = state.version + 1;
  for (const id of next.byId.keys()) next.partRev.set(id, next.version);
  next.rowsRev = next.version;
  next.transientRev = state.transientRev;
  // A kernel that is not sending rows would leave the saved ones behind the parts.
  if (state.snapshotSeen && !state.rowsLoaded) {
    next.rows = [];
    next.rowsLoaded = false;
  }
  next.snapshotSeen = state.snapshotSeen;
  next.needsResync = state.needsResync;
  // The clock only ticks for a view that is hearing from a live kernel.
  next.liveAnchor = state.liveAnchor === null ? null : receivedAt;
  next.problems = [...state.problems, ...next.problems].slice(-PROBLEM_CAP);
  return next;
}

/**
 * Put the whole value of a held field (fetched from the kernel) in place of its preview and
 * drop its `held` entry: a local update of that one part. Only when the part still holds
 * the field under `token`; a newer value (a new token) wins. Returns whether it applied.
 */
export function fillHeld(
  state: StoreState,
  partId: string,
  field: string,
  token: number,
  value: unknown,
): boolean {
  const part = state.byId.get(partId);
  if (part === undefined || heldEntry(part, field)?.token !== token) return false;
  if (field === "text") forgetText(part);
  writeField(part, field, value);
  part.held = heldWithout(part.held, field);
  state.version += 1;
  state.partRev.set(part.id, state.version);
  return true;
}

function applyOp(state: StoreState, op: Op, receivedAt: number | null): void {
  if (!isRecord(op)) {
    note(state, `op is not an object: ${preview(op)}`);
    return;
  }
  switch (op.op) {
    case "run":
      if (isRecord(op.set)) {
        Object.assign(state.run, op.set);
        if ("elapsedMs" in op.set && receivedAt !== null) state.liveAnchor = receivedAt;
      }
      return;
    case "add":
      if (!isPart(op.part)) {
        note(state, `add op without a part having string id and kind: ${preview(op.part)}`);
        return;
      }
      insertPart(state, copyPart(op.part));
      return;
    case "append":
      appendText(state, op);
      return;
    case "set":
      setFields(state, op);
      return;
    case "rows":
      if (Array.isArray(op.rows)) for (const row of op.rows) addRow(state, row);
      state.rowsRev = state.version;
      return;
    case "transient":
      if (isRecord(op.item)) addTransient(state, op.item);
      state.transientRev = state.version;
      return;
    default:
      note(state, `unknown op ${preview((op as { op?: unknown }).op)} ignored`);
  }
}

function insertPart(state: StoreState, part: Part): void {
  const at = state.indexOf.get(part.id);
  if (at === undefined) {
    state.indexOf.set(part.id, state.parts.length);
    state.parts.push(part);
  } else {
    state.parts[at] = part;
    state.structureRev += 1;
  }
  state.byId.set(part.id, part);
  state.partRev.set(part.id, state.version);
}

function appendText(state: StoreState, op: Extract<Op, { op: "append" }>): void {
  const part = state.byId.get(op.id);
  if (part === undefined) {
    missingPart(state, "append", op.id);
    return;
  }
  if (op.field !== "text" && op.field !== "argsText") {
    note(state, `append to unsupported field ${preview(op.field)} of part ${op.id}`);
    return;
  }
  const before = readField(part, op.field);
  const base = typeof before === "string" ? before : "";
  const added = String(op.text ?? "");
  const text = base + added;
  writeField(part, op.field, text);
  if (op.field === "text" && (part.kind === "text" || part.kind === "reasoning")) {
    growText(part, base, added);
    addMark(part, op.t, text.length);
  }
  state.partRev.set(part.id, state.version);
}

/** Record [t, length]; a mark less than MARK_INTERVAL_MS after the previous one only
 * updates that one's length, so there is at most one mark per interval. */
function addMark(part: TextPart | ReasoningPart, t: number, length: number): void {
  if (!Array.isArray(part.marks)) part.marks = [];
  const marks = part.marks;
  const last = marks[marks.length - 1];
  if (last !== undefined && t - last[0] < MARK_INTERVAL_MS) last[1] = length;
  else marks.push([t, length]);
}

function setFields(state: StoreState, op: Extract<Op, { op: "set" }>): void {
  const part = state.byId.get(op.id);
  if (part === undefined) {
    missingPart(state, "set", op.id);
    return;
  }
  if (!isRecord(op.set)) {
    note(state, `set op for part ${op.id} carries no field object`);
    return;
  }
  // The history is made explicit while the fields it may be implied by change.
  expandStates(part);
  for (const [key, value] of Object.entries(op.set)) {
    if (key === "id") continue; // a part keeps its identity
    if (key === "parent" || key === "step" || key === "kind") state.structureRev += 1;
    if (key === "text") forgetText(part);
    writeField(part, key, value);
  }
  if ("state" in op.set && !("states" in op.set)) {
    const states = readField(part, "states");
    const history: StateMark[] = Array.isArray(states) ? states : [];
    history.push([op.t, String(op.set.state)]);
    if (history !== states) writeField(part, "states", history);
  }
  compactStates(part);
  state.partRev.set(part.id, state.version);
}

/** Python re-sends a growing merged-delta row with the same `i`: it replaces the last row. */
function addRow(state: StoreState, row: ChunkRow): void {
  if (!isRecord(row)) {
    note(state, `chunk row is not an object: ${preview(row)}`);
    return;
  }
  const last = state.rows[state.rows.length - 1];
  if (last !== undefined && last.i === row.i)
    state.rows[state.rows.length - 1] = { ...last, ...row };
  else state.rows.push({ ...row });
}

/** Items with an id are reconciled in place by type + id (as the AI SDK does); the rest are
 * appended. Only the last TRANSIENT_CAP are kept. */
function addTransient(state: StoreState, item: TransientItem): void {
  const list = state.transient;
  if (item.id !== null && item.id !== undefined) {
    for (let k = list.length - 1; k >= 0; k--) {
      const old = list[k];
      if (old !== undefined && old.type === item.type && old.id === item.id) {
        list[k] = item;
        return;
      }
    }
  }
  list.push(item);
  if (list.length > TRANSIENT_CAP) list.splice(0, list.length - TRANSIENT_CAP);
}

function missingPart(state: StoreState, what: string, id: unknown): void {
  note(
    state,
    `${what} op names part ${preview(id)}, which this view does not have: asking for a snapshot`,
  );
  state.needsResync = true;
}

function note(state: StoreState, problem: string): void {
  state.problems.push(problem);
  if (state.problems.length > PROBLEM_CAP)
    state.problems.splice(0, state.problems.length - PROBLEM_CAP);
}

function bump(state: StoreState): StoreState {
  state.version += 1;
  return state;
}

/** A part copy whose mark/state arrays are ours to grow (a history its fields imply is left
 * out: see history.ts). */
function copyPart(part: Part): Part {
  const copy = { ...part };
  if ("marks" in copy && Array.isArray(copy.marks))
    copy.marks = copy.marks.map((m) => [m[0], m[1]]);
  compactStates(copy);
  if ("states" in copy && Array.isArray(copy.states))
    copy.states = copy.states.map((m) => [m[0], m[1]]);
  return copy;
}

/** A field an op names by its wire name: ops may name any field of any part kind. */
function readField(part: Part, field: string): unknown {
  return Reflect.get(part, field);
}

function writeField(part: Part, field: string, value: unknown): void {
  Reflect.set(part, field, value);
}

function isPart(value: unknown): value is Part {
  return isRecord(value) && typeof value.id === "string" && typeof value.kind === "string";
}

/** Listener called after every applied message with the (possibly new) state. */
export type StoreListener = (state: StoreState) => void;

/** The model's store: every view of one model subscribes to the same one. */
export interface Store {
  /** The current state (mutated in place between messages; compare `version`). */
  get(): StoreState;
  /** Call `listener` once per applied message; returns the unsubscribe function. */
  subscribe(listener: StoreListener): () => void;
  /** Apply one kernel message and notify listeners. */
  dispatch(msg: Down): void;
  /** Take the saved snapshot (synced trait) if it is newer than the state; see `adoptSaved`. */
  adoptSaved(snapshot: Snapshot | null): void;
  /** Put a fetched whole value in place of its preview; see `fillHeld`. */
  fillHeld(partId: string, field: string, token: number, value: unknown): boolean;
  /** Show a problem found outside the messages (a saved run that could not be read). */
  report(problem: string): void;
}

export function createStore(
  initial: StoreState = emptyState(),
  clock: () => number = Date.now,
): Store {
  let state = initial;
  const listeners = new Set<StoreListener>();
  const notify = () => {
    for (const listener of [...listeners]) listener(state);
  };
  return {
    get: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    dispatch(msg) {
      const before = state.version;
      state = applyDown(state, msg, clock());
      if (state.version !== before) notify(); // unchanged: an old batch, or waiting for resync
    },
    adoptSaved(snapshot) {
      const before = state.version;
      state = adoptSaved(state, snapshot, clock());
      if (state.version !== before) notify();
    },
    fillHeld(partId, field, token, value) {
      const applied = fillHeld(state, partId, field, token, value);
      if (applied) notify();
      return applied;
    },
    report(problem) {
      note(state, problem);
      bump(state);
      notify();
    },
  };
}
