/**
 * Fetches held values from the kernel: sends `fetch`, collects the `held` pieces in order,
 * parses the JSON once at the end and hands the value over. One fetch per held value at a
 * time, however many trees ask for it.
 */

import type { HeldAnswer, Up } from "../model/wire";
import {
  type Assembly,
  addPiece,
  assembledText,
  type HeldRequest,
  type ReportLoad,
  receivedBytes,
} from "./values";

/** Seconds without a piece after which the fetch counts as unanswered. */
export const FETCH_TIMEOUT_MS = 30_000;

export interface HeldFetcherOptions {
  /** Send a message to the kernel. */
  send(up: Up): void;
  /** Put the whole value in place; false when the part moved on (a newer token). */
  apply(request: HeldRequest, value: unknown): boolean;
  /** Milliseconds without an answer before giving up. */
  timeoutMs?: number;
  /** Timers (tests pass fake ones). */
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
}

interface Pending {
  request: HeldRequest;
  assembly: Assembly | null;
  reports: Set<ReportLoad>;
  timer: unknown;
}

const keyOf = (part: string, field: string, token: number) => `${part}\u0000${field}\u0000${token}`;

export class HeldFetcher {
  private readonly pending = new Map<string, Pending>();
  private readonly timeoutMs: number;
  private readonly setTimer: (fn: () => void, ms: number) => unknown;
  private readonly clearTimer: (handle: unknown) => void;

  constructor(private readonly options: HeldFetcherOptions) {
    this.timeoutMs = options.timeoutMs ?? FETCH_TIMEOUT_MS;
    this.setTimer = options.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
    this.clearTimer =
      options.clearTimer ?? ((handle) => clearTimeout(handle as ReturnType<typeof setTimeout>));
  }

  /** Ask for the whole value of `request` (once, while a fetch of it is under way). */
  fetch(request: HeldRequest, report: ReportLoad): void {
    const key = keyOf(request.part, request.field, request.token);
    const known = this.pending.get(key);
    if (known !== undefined) {
      known.reports.add(report);
      report({
        state: "loading",
        received: receivedBytes(known.assembly, request.size),
        total: request.size,
      });
      return;
    }
    const pending: Pending = { request, assembly: null, reports: new Set([report]), timer: null };
    this.pending.set(key, pending);
    this.arm(key, pending);
    report({ state: "loading", received: 0, total: request.size });
    this.options.send({
      kind: "fetch",
      part: request.part,
      field: request.field,
      token: request.token,
    });
  }

  /** Take one `held` answer from the kernel. Answers nobody waits for are dropped. */
  receive(answer: HeldAnswer): void {
    const key = keyOf(answer.part, answer.field, answer.token);
    const pending = this.pending.get(key);
    if (pending === undefined) return;
    const step = addPiece(pending.assembly, answer);
    if ("error" in step) {
      this.fail(key, pending, `the kernel could not send the full value: ${step.error}`);
      return;
    }
    pending.assembly = step.assembly;
    const text = assembledText(step.assembly);
    if (text === null) {
      this.arm(key, pending);
      const received = receivedBytes(step.assembly, pending.request.size);
      for (const report of pending.reports)
        report({ state: "loading", received, total: pending.request.size });
      return;
    }
    this.finish(key, pending);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      this.tell(pending, `the full value did not parse: ${String(error)}`);
      return;
    }
    if (!this.options.apply(pending.request, value)) {
      this.tell(pending, "the value changed while it was loading: ask again for the new one");
    }
  }

  /** Forget every fetch under way (the view is going away). */
  dispose(): void {
    for (const pending of this.pending.values()) this.clearTimer(pending.timer);
    this.pending.clear();
  }

  private arm(key: string, pending: Pending): void {
    if (pending.timer !== null) this.clearTimer(pending.timer);
    pending.timer = this.setTimer(() => {
      const seconds = Math.round(this.timeoutMs / 1000);
      this.fail(
        key,
        pending,
        `no answer from the kernel in ${seconds} s: is a kernel connected to this notebook?`,
      );
    }, this.timeoutMs);
  }

  private fail(key: string, pending: Pending, message: string): void {
    this.finish(key, pending);
    this.tell(pending, message);
  }

  private finish(key: string, pending: Pending): void {
    this.clearTimer(pending.timer);
    if (this.pending.get(key) === pending) this.pending.delete(key);
  }

  private tell(pending: Pending, message: string): void {
    for (const report of pending.reports) report({ state: "failed", message });
  }
}
