// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import { viewAt } from "../../../src/model/scrub";
import { fromSnapshot } from "../../../src/model/store";
import { TranscriptView } from "../../../src/views/transcript/view";
import { part, snapshot } from "../../helpers";

function suspendedRun() {
  const workflow = part("workflow", {
    id: "wf",
    runId: "run-1",
    workflowId: "approval-flow",
    status: "suspended",
    result: null,
    error: null,
  });
  const step = part("wstep", {
    id: "ws",
    parent: "wf",
    stepId: "approve",
    status: "suspended",
    states: [
      [10, "running"],
      [20, "suspended"],
    ],
    input: { amount: 120 },
    output: null,
    error: null,
    progress: null,
    suspendPayload: { ask: "Approve a refund of 120?" },
    t0: 10,
  });
  return fromSnapshot(snapshot([workflow, step]));
}

describe("workflow cards", () => {
  it("show what a suspended step asks to be resumed with, and hide it before it was asked", () => {
    const view = new TranscriptView();
    const state = suspendedRun();
    view.draw(state);
    expect(view.el.textContent).toContain("suspended with");
    expect(view.el.textContent).toContain("Approve a refund of 120?");

    const before = new TranscriptView();
    before.draw(viewAt(state, 15));
    expect(before.el.textContent).not.toContain("Approve a refund of 120?");
  });

  it("say why a workflow failed before any of its steps ran", () => {
    const failed = part("workflow", {
      id: "wf",
      runId: "run-2",
      workflowId: "invoice-flow",
      status: "failed",
      result: null,
      error: { message: "Invalid input data: amount must be a number" },
      t1: 5,
    });
    const view = new TranscriptView();
    view.draw(fromSnapshot(snapshot([failed])));
    expect(view.el.textContent).toContain("Invalid input data: amount must be a number");
  });
});
