/**
 * One view per part kind. A view is created once per part id and then updated in place
 * whenever its part changed, touching only the pieces whose values moved.
 */

import { type TextSource, textSource } from "../../model/rope";
import type { NoticeKind, Part, PartKind } from "../../model/wire";
import { isPresent } from "../../util";
import { copyButton } from "../copy";
import { formatSeconds, h, setText } from "../dom";
import { JsonTree } from "../json-tree";
import { INLINE_IMAGE_TYPES, isSafeLinkUrl, MarkdownView } from "../markdown";
import { progressBar, progressOf } from "../progress";
import { DataBody } from "./data";
import { Badge, FollowingDetails, heldView, TreeSection } from "./sections";

/** Facts about the whole run a part view needs. */
export interface DrawInfo {
  /** The consumer is done: nothing will grow any more. */
  ended: boolean;
  /** Finds another part of the run by id (a part's parent, to name what wrote it). */
  partById?: (id: string) => Part | undefined;
}

/** The part type of one kind. */
type PartOf<K extends PartKind> = Extract<Part, { kind: K }>;

export interface PartView<P extends Part = Part> {
  /** The part's element (carries `data-part-id`). */
  readonly el: HTMLElement;
  /** Where parts nested under this one are placed, or null when it holds none. */
  readonly children: HTMLElement | null;
  /** Redraw from the part's current fields. */
  update(part: P, info: DrawInfo): void;
}

const str = (value: unknown): string => (typeof value === "string" ? value : "");
const isOpen = (part: Part, info: DrawInfo): boolean => part.t1 === null && !info.ended;

/** The view for `part`'s kind (a generic one for kinds this front end does not know). */
export function createPartView(part: Part): PartView {
  const el = h("div", `cs-part cs-part-${String(part.kind).replace(/[^a-z0-9-]/gi, "_")}`);
  el.dataset.partId = part.id;
  return isKnownKind(part.kind) ? viewOfKind(part.kind, el) : unknownView(el);
}

/** The view of a part of `kind`; it draws parts of that kind only (the transcript makes a new
 * view when a part's kind changes). */
function viewOfKind<K extends PartKind>(kind: K, el: HTMLElement): PartView {
  const view = VIEWS[kind](el);
  return {
    el: view.el,
    children: view.children,
    update(part, info) {
      if (isOfKind(part, kind)) view.update(part, info);
    },
  };
}

function isKnownKind(kind: string): kind is PartKind {
  return Object.hasOwn(VIEWS, kind);
}

function isOfKind<K extends PartKind>(part: Part, kind: K): part is PartOf<K> {
  return part.kind === kind;
}

/** One view factory per part kind; each draws its own kind's part type. */
type ViewFactories = { [K in PartKind]: (el: HTMLElement) => PartView<PartOf<K>> };

const VIEWS: ViewFactories = {
  text(el) {
    const md = new MarkdownView();
    let text = "";
    const tools = h("div", "cs-part-tools");
    tools.append(copyButton("message", () => text));
    el.append(tools, md.el);
    return {
      el,
      children: null,
      update(p, info) {
        text = str(p.text);
        md.update(textSource(p, text), !isOpen(p, info));
      },
    };
  },

  reasoning(el) {
    const box = new FollowingDetails("cs-reasoning");
    const md = new MarkdownView();
    let text = "";
    const tools = h("div", "cs-part-tools");
    tools.append(copyButton("reasoning", () => text));
    box.el.append(tools, md.el);
    el.append(box.el);
    let source: TextSource = "";
    let final = false;
    // The body is only rendered while open: a collapsed thought costs nothing.
    const draw = () => {
      if (box.el.open) md.update(source, final);
    };
    box.el.addEventListener("toggle", draw);
    return {
      el,
      children: null,
      update(p, info) {
        text = str(p.text);
        source = textSource(p, text);
        final = !isOpen(p, info);
        box.follow(!final);
        let label = "Thinking…";
        if (p.redacted === true) label = "Reasoning (redacted by the provider)";
        else if (final)
          label = p.t1 === null ? "Thought" : `Thought for ${formatSeconds(p.t1 - p.t0)}`;
        setText(box.summary, label);
        draw();
      },
    };
  },

  tool(el) {
    const head = h("div", "cs-card-head");
    const name = h("span", "cs-tool-name");
    const badge = new Badge();
    head.append(h("span", "cs-label", "tool"), name, badge.el);
    const args = h("div", "cs-tool-args");
    const argsLabel = h("div", "cs-label", "arguments");
    const argsTree = new JsonTree(null, { openDepth: 2, copy: "arguments" });
    const argsText = h("pre", "cs-args-text");
    let rawArgs = "";
    let argsCopy: HTMLButtonElement | null = null;
    args.append(argsLabel, argsTree.el, argsText);
    const result = new TreeSection("result", true, 1, "result");
    const children = h("div", "cs-children");
    el.classList.add("cs-card");
    el.append(head, args, result.el, children);
    // What most calls never have is made on first use: a run of thousands of calls then
    // costs a few elements per card fewer to build, style and lay out.
    let provider: HTMLElement | null = null;
    let approval: TreeSection | null = null;
    let suspended: TreeSection | null = null;
    let error: HTMLElement | null = null;
    let lastArgs: unknown;
    return {
      el,
      children,
      update(p) {
        setText(name, str(p.toolName) || "tool");
        badge.set(str(p.state));
        if (p.providerExecuted === true && provider === null) {
          provider = h("span", "cs-tag", "provider-executed");
          head.append(provider);
        }
        if (provider !== null) provider.hidden = p.providerExecuted !== true;
        // The partial parse is the friendlier view; the raw text shows what cannot parse yet.
        const hasArgs = isPresent(p.args);
        if (hasArgs && p.args !== lastArgs)
          argsTree.update(p.args, heldView(p, "args", argsTree.el));
        lastArgs = p.args;
        argsTree.el.hidden = !hasArgs;
        rawArgs = str(p.argsText);
        setText(argsText, hasArgs ? "" : rawArgs);
        argsText.hidden = hasArgs;
        if (!hasArgs && rawArgs !== "" && argsCopy === null) {
          argsCopy = copyButton("arguments", () => rawArgs);
          argsCopy.classList.add("cs-json-copy");
          argsText.before(argsCopy);
        }
        if (argsCopy !== null) argsCopy.hidden = hasArgs || rawArgs === "";
        args.hidden = !hasArgs && str(p.argsText) === "";
        const approvalValue = p.state === "awaiting-approval" ? (p.approval ?? {}) : p.approval;
        if (isPresent(approvalValue) && approval === null) {
          approval = new TreeSection("approval requested", true);
          (suspended?.el ?? result.el).before(approval.el);
        }
        approval?.set(approvalValue, heldView(p, "approval", approval.el));
        if (isPresent(p.suspendPayload) && suspended === null) {
          suspended = new TreeSection("suspended with", true);
          result.el.before(suspended.el);
        }
        suspended?.set(p.suspendPayload, heldView(p, "suspendPayload", suspended.el));
        result.set(p.result, heldView(p, "result", result.el));
        if (isPresent(p.error) && error === null) {
          error = h("div", "cs-error-text");
          children.before(error);
        }
        if (error !== null) {
          setText(error, describeError(p.error));
          error.hidden = !isPresent(p.error);
        }
      },
    };
  },

  output(el) {
    const label = h("div", "cs-label");
    const tree = new JsonTree(null, { openDepth: 1, copy: "output" });
    el.append(label, tree.el);
    let last: unknown;
    return {
      el,
      children: null,
      update(p, info) {
        setText(label, outputLabel(p.parent === null ? undefined : info.partById?.(p.parent)));
        // The raw `from` (who emitted the chunk, "USER" for a tool's writer) stays in the
        // inspector and in this tooltip; the label names the tool or step that wrote it.
        el.title = p.from ? `chunk from: ${String(p.from)}` : "";
        if (p.data !== last) tree.update(p.data, heldView(p, "data", tree.el));
        last = p.data;
      },
    };
  },

  run(el) {
    const box = new FollowingDetails("cs-run");
    const label = h("span", "cs-run-label");
    const badge = new Badge();
    const finish = h("span", "cs-muted");
    box.summary.append(label, badge.el, finish);
    const children = h("div", "cs-children");
    box.el.append(children);
    el.append(box.el);
    return {
      el,
      children,
      update(p, info) {
        setText(label, str(p.label) || "nested run");
        badge.set(str(p.status));
        setText(finish, p.finishReason ? `finish: ${String(p.finishReason)}` : "");
        box.follow(isOpen(p, info));
      },
    };
  },

  step(el) {
    const head = h("div", "cs-step-head");
    const children = h("div", "cs-children cs-step-body");
    el.append(head, children);
    return {
      el,
      children,
      update(p) {
        const index = typeof p.index === "number" ? p.index + 1 : "?";
        const bits = [`Step ${index}`];
        if (p.finishReason) bits.push(`finish: ${String(p.finishReason)}`);
        const tokens = p.usage?.totalTokens ?? p.usage?.outputTokens;
        if (typeof tokens === "number") bits.push(`${tokens} tokens`);
        if (Array.isArray(p.warnings) && p.warnings.length > 0)
          bits.push(`${p.warnings.length} warning(s)`);
        setText(head, bits.join(" · "));
      },
    };
  },

  source(el) {
    el.classList.add("cs-inline");
    let drawnKey = "";
    return {
      el,
      children: null,
      update(p) {
        const url = str(p.url);
        const text = str(p.title) || url || str(p.filename) || "source";
        const key = `${url}\u0000${text}`;
        if (key === drawnKey) return;
        drawnKey = key;
        const chip = isSafeLinkUrl(url) ? h("a", "cs-chip", text) : h("span", "cs-chip", text);
        if (chip instanceof HTMLAnchorElement) {
          chip.href = url;
          chip.target = "_blank";
          chip.rel = "noopener noreferrer";
        }
        chip.title = url || text;
        el.replaceChildren(chip);
      },
    };
  },

  file(el) {
    let drawnData: unknown;
    return {
      el,
      children: null,
      update(p) {
        if (p.data === drawnData) return;
        drawnData = p.data;
        el.replaceChildren(fileContent(str(p.data), str(p.mimeType), str(p.filename)));
      },
    };
  },

  object(el) {
    const head = h("div", "cs-card-head");
    const badge = new Badge();
    head.append(h("span", "cs-label", "object"), badge.el);
    const tree = new JsonTree(null, { openDepth: 3 });
    el.classList.add("cs-card");
    el.append(head, tree.el);
    let last: unknown;
    return {
      el,
      children: null,
      update(p) {
        badge.set(p.final === true ? "final" : "partial");
        if (p.object !== last) tree.update(p.object, heldView(p, "object", tree.el));
        last = p.object;
      },
    };
  },

  data(el) {
    const label = h("div", "cs-label");
    const body = new DataBody();
    el.append(label, body.el);
    return {
      el,
      children: null,
      update(p) {
        const id = p.dataId ? ` #${String(p.dataId)}` : "";
        setText(label, `${str(p.dataType) || "data"}${id}`);
        body.update(p.data, heldView(p, "data", body.el));
      },
    };
  },

  notice(el) {
    const label = h("strong", "cs-notice-kind");
    const message = h("span", "cs-notice-message");
    const detail = new TreeSection("details");
    el.append(label, message, detail.el);
    return {
      el,
      children: null,
      update(p) {
        const level = ["error", "warning", "info"].includes(str(p.level)) ? str(p.level) : "info";
        el.className = `cs-part cs-part-notice cs-level-${level}`;
        setText(label, NOTICE_LABELS[str(p.notice)] ?? (str(p.notice) || "notice"));
        setText(message, str(p.message));
        detail.set(p.detail, heldView(p, "detail", detail.el));
      },
    };
  },

  background(el) {
    const head = h("div", "cs-card-head");
    const name = h("span", "cs-tool-name");
    const badge = new Badge();
    head.append(h("span", "cs-label", "background task"), name, badge.el);
    const progress = h("div");
    const result = new TreeSection("result");
    const error = h("div", "cs-error-text");
    el.classList.add("cs-card", "cs-compact");
    el.append(head, progress, result.el, error);
    return {
      el,
      children: null,
      update(p) {
        setText(name, str(p.toolName) || str(p.taskId));
        badge.set(str(p.state));
        const reading = progressOf(p.progress);
        progress.replaceChildren(...(reading === null ? [] : [progressBar(reading)]));
        result.set(p.result, heldView(p, "result", result.el));
        setText(error, describeError(p.error));
        error.hidden = p.error === null || p.error === undefined;
      },
    };
  },

  workflow(el) {
    const head = h("div", "cs-card-head");
    const name = h("span", "cs-tool-name");
    const badge = new Badge();
    head.append(h("span", "cs-label", "workflow"), name, badge.el);
    const children = h("div", "cs-children");
    const result = new TreeSection("result");
    const error = h("div", "cs-error-text");
    el.classList.add("cs-card");
    el.append(head, error, children, result.el);
    return {
      el,
      children,
      update(p) {
        setText(name, str(p.workflowId) || str(p.runId));
        badge.set(str(p.status));
        // Why a failed workflow failed, when it failed before or between its steps.
        setText(error, isPresent(p.error) ? describeError(p.error) : "");
        error.hidden = !isPresent(p.error);
        result.set(p.result, heldView(p, "result", result.el));
      },
    };
  },

  wstep(el) {
    const head = h("div", "cs-card-head");
    const name = h("span", "cs-tool-name");
    const badge = new Badge();
    head.append(h("span", "cs-label", "step"), name, badge.el);
    const progress = h("div");
    const input = new TreeSection("input");
    const output = new TreeSection("output");
    const suspended = new TreeSection("suspended with", true);
    const error = h("div", "cs-error-text");
    const children = h("div", "cs-children");
    el.classList.add("cs-compact");
    el.append(head, progress, input.el, suspended.el, output.el, error, children);
    return {
      el,
      children,
      update(p) {
        setText(name, str(p.stepId));
        badge.set(str(p.status));
        const reading = progressOf(p.progress);
        progress.replaceChildren(...(reading === null ? [] : [progressBar(reading)]));
        input.set(p.input, heldView(p, "input", input.el));
        suspended.set(p.suspendPayload, heldView(p, "suspendPayload", suspended.el));
        output.set(p.output, heldView(p, "output", output.el));
        setText(error, describeError(p.error));
        error.hidden = p.error === null || p.error === undefined;
      },
    };
  },

  network(el) {
    const head = h("div", "cs-card-head");
    const event = h("span", "cs-label");
    const label = h("span");
    head.append(event, label);
    const payload = new TreeSection("payload");
    el.classList.add("cs-compact");
    el.append(head, payload.el);
    return {
      el,
      children: null,
      update(p) {
        setText(event, str(p.event) || "network");
        setText(label, str(p.label));
        payload.set(p.payload, heldView(p, "payload", payload.el));
      },
    };
  },
};

const NOTICE_LABELS: Record<string, string> = {
  error: "Error",
  abort: "Aborted",
  tripwire: "Tripwire",
  goal: "Goal",
  unknown: "Unknown chunk",
  invalid: "Invalid chunk",
  warning: "Warning",
} satisfies Record<NoticeKind, string>;

function unknownView(el: HTMLElement): PartView {
  const label = h("div", "cs-label");
  const tree = new JsonTree(null, { openDepth: 0 });
  const children = h("div", "cs-children");
  el.classList.add("cs-compact");
  el.append(label, tree.el, children);
  return {
    el,
    children,
    update(p) {
      setText(label, `part of a kind this view does not know: ${String(p.kind)}`);
      tree.update(p);
    },
  };
}

/** What a writer's output is labelled with: the tool call or step it is nested under. */
export function outputLabel(parent: Part | undefined): string {
  if (parent === undefined) return "output";
  if (parent.kind === "tool" || parent.kind === "background") {
    return `output of ${str(parent.toolName) || "a tool"}`;
  }
  if (parent.kind === "wstep") return `output of step ${str(parent.stepId) || "?"}`;
  if (parent.kind === "workflow") return `output of workflow ${str(parent.workflowId) || "?"}`;
  if (parent.kind === "run") return `output of ${str(parent.label) || "a nested run"}`;
  return "output";
}

/** An error value as one line of text (message when there is one, else JSON). */
export function describeError(error: unknown): string {
  if (error === null || error === undefined) return "";
  if (typeof error === "string") return error;
  if (typeof error === "object" && typeof (error as { message?: unknown }).message === "string") {
    return (error as { message: string }).message;
  }
  try {
    return JSON.stringify(error);
  } catch {
    return String(error);
  }
}

/** An inline image for allowed image types, else a download control. */
export function fileContent(data: string, mimeType: string, filename: string): HTMLElement {
  const parsed = parseFileData(data, mimeType);
  if (INLINE_IMAGE_TYPES.includes(parsed.mimeType) && parsed.base64) {
    const img = h("img", "cs-image");
    img.alt = filename || "image";
    img.src = `data:${parsed.mimeType};base64,${parsed.payload}`;
    return img;
  }
  const button = h(
    "button",
    "cs-download",
    `⤓ ${filename || "file"} (${parsed.mimeType || "unknown type"})`,
  );
  button.type = "button";
  button.addEventListener("click", () => download(parsed, filename || "file"));
  return button;
}

interface FileData {
  /** The declared or embedded MIME type, lower case. */
  mimeType: string;
  /** The content: base64 when `base64`, else plain text. */
  payload: string;
  /** Whether `payload` is base64. */
  base64: boolean;
}

function parseFileData(data: string, mimeType: string): FileData {
  const dataUrl = /^data:([^;,]*)(;base64)?,/i.exec(data);
  if (dataUrl !== null) {
    return {
      mimeType: (dataUrl[1] || mimeType).toLowerCase(),
      payload: data.slice(dataUrl[0].length),
      base64: dataUrl[2] !== undefined,
    };
  }
  const looksBase64 =
    data.length > 0 && data.length % 4 === 0 && /^[A-Za-z0-9+/]+={0,2}$/.test(data);
  return { mimeType: mimeType.toLowerCase(), payload: data, base64: looksBase64 };
}

function download(file: FileData, filename: string): void {
  let blob: Blob;
  let binary: string | null = null;
  try {
    binary = file.base64 ? atob(file.payload) : null;
  } catch {
    binary = null; // not valid base64 after all: offer the text as it came
  }
  if (binary !== null) {
    const bytes = new Uint8Array(binary.length);
    for (let k = 0; k < binary.length; k++) bytes[k] = binary.charCodeAt(k);
    blob = new Blob([bytes], { type: file.mimeType || "application/octet-stream" });
  } else {
    blob = new Blob([file.payload], { type: file.mimeType || "text/plain" });
  }
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  link.rel = "noopener";
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
