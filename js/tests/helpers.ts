/** Builders for wire values used across the tests. */
import { vi } from "vitest";
import { emptyRun } from "../src/model/store";
import type {
  ChunkRow,
  Down,
  Op,
  Part,
  PartKind,
  RunInfo,
  Snapshot,
  TransientItem,
} from "../src/model/wire";
import type { MarkdownView } from "../src/views/markdown";

/** The part type of one kind. */
export type PartOf<K extends PartKind> = Extract<Part, { kind: K }>;

let counter = 0;

/** A part of `kind` with the base fields filled in; `fields` override. */
export function part<K extends PartKind>(kind: K, fields: Record<string, unknown> = {}): PartOf<K> {
  counter += 1;
  const defaults: Record<string, Record<string, unknown>> = {
    text: { text: "", marks: [] },
    reasoning: { text: "", marks: [], redacted: false, signature: null },
    tool: {
      toolCallId: `call-${counter}`,
      toolName: "search",
      state: "input-streaming",
      states: [],
      argsText: "",
      args: null,
      result: null,
      error: null,
      providerExecuted: null,
      suspendPayload: null,
      approval: null,
    },
    step: { index: 0, finishReason: null, usage: null, warnings: [] },
    run: { runId: "r", label: "sub-agent", status: "running", finishReason: null, usage: null },
  };
  return {
    id: `p${counter}`,
    kind,
    parent: null,
    step: null,
    t0: 0,
    t1: null,
    chunk: 0,
    ...(defaults[kind] ?? {}),
    ...fields,
  } as PartOf<K>;
}

/** The part `id` in `byId` when it is of `kind`, else undefined. */
export function partIn<K extends PartKind>(
  byId: ReadonlyMap<string, Part>,
  id: string,
  kind: K,
): PartOf<K> | undefined {
  const found = byId.get(id);
  return found?.kind === kind ? (found as PartOf<K>) : undefined;
}

export function run(fields: Partial<RunInfo> = {}): RunInfo {
  return { ...emptyRun("test run"), ...fields };
}

export function snapshot(parts: Part[], fields: Partial<Snapshot> = {}): Snapshot {
  return { v: 1, seq: 0, run: run({ status: "running" }), parts, rows: [], ...fields };
}

export function batch(seq: number, ...ops: Op[]): Down {
  return { kind: "batch", seq, ops };
}

export function snapshotMsg(snap: Snapshot, transient: TransientItem[] = []): Down {
  return { kind: "snapshot", snapshot: snap, transient };
}

export function row(i: number, fields: Partial<ChunkRow> = {}): ChunkRow {
  return {
    i,
    n: 1,
    t: i,
    type: "text-delta",
    from: "AGENT",
    family: "text",
    part: null,
    json: {},
    ...fields,
  };
}

export function transient(
  i: number,
  type: string,
  id: string | null,
  data: unknown,
): TransientItem {
  return { t: i, i, type, id, data };
}

/** Wait, 20 ms at a time and for at most 2 s, until `done()` holds (work the page does
 * in later frames or tasks). */
export async function waitUntil(done: () => boolean): Promise<void> {
  for (let k = 0; k < 100 && !done(); k++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A new MarkdownView of fresh modules (the parser's warm-up is the page's, done once, so
 * each caller starts it cold), with `source` drawn inside an animation frame, as a streaming
 * view draws it. */
export async function drawnInAFrame(source: string): Promise<MarkdownView> {
  vi.resetModules();
  const { schedule } = await import("../src/views/frame");
  const fresh = await import("../src/views/markdown");
  const view = new fresh.MarkdownView();
  await new Promise<void>((resolve) =>
    schedule(() => {
      view.update(source, false);
      resolve();
    }),
  );
  return view;
}

/** Whether `el` shows its text's emphasis as markdown, with none of it left as plain text. */
export function shownAsMarkdown(el: HTMLElement): boolean {
  return el.querySelector("em") !== null && el.querySelector(".cs-md-plain") === null;
}
