/**
 * Reading a progress figure out of an untrusted `data` payload, and drawing it as a bar.
 */
import { isRecord } from "../util";

/** A progress reading: `fraction` in [0, 1] when known, and the text to show. */
export interface Progress {
  /** Completed share in [0, 1], or null when only a count is known. */
  fraction: number | null;
  /** Human-readable figure, such as "40%" or "3 / 10". */
  label: string;
}

/**
 * `percent` (0–100), `progress` (0–1, or 0–100 when above 1), or `current` + `total`;
 * null when the value has none of them as finite numbers.
 */
export function progressOf(data: unknown): Progress | null {
  if (typeof data === "number" && Number.isFinite(data))
    return fromShare(data > 1 ? data / 100 : data);
  if (!isRecord(data)) return null;
  const { percent, progress, current, total } = data;
  if (isNumber(percent)) return fromShare(percent / 100);
  if (isNumber(progress)) return fromShare(progress > 1 ? progress / 100 : progress);
  if (isRecord(progress)) return progressOf(progress);
  if (isNumber(current) && isNumber(total)) {
    return { fraction: total > 0 ? clamp(current / total) : null, label: `${current} / ${total}` };
  }
  return null;
}

function fromShare(share: number): Progress {
  const fraction = clamp(share);
  return { fraction, label: `${Math.round(fraction * 100)}%` };
}

function isNumber(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value);
}

function clamp(value: number): number {
  return Math.min(1, Math.max(0, value));
}

/** A `<progress>`-like bar with its label, built from text nodes. */
export function progressBar(progress: Progress, caption = ""): HTMLElement {
  const wrap = document.createElement("div");
  wrap.className = "cs-progress";
  const track = document.createElement("div");
  track.className = "cs-progress-track";
  track.setAttribute("role", "progressbar");
  track.setAttribute("aria-valuemin", "0");
  track.setAttribute("aria-valuemax", "100");
  const fill = document.createElement("div");
  fill.className = "cs-progress-fill";
  if (progress.fraction === null) {
    track.classList.add("cs-progress-unknown");
  } else {
    track.setAttribute("aria-valuenow", String(Math.round(progress.fraction * 100)));
    fill.style.width = `${(progress.fraction * 100).toFixed(1)}%`;
  }
  track.append(fill);
  const label = document.createElement("span");
  label.className = "cs-progress-label";
  label.textContent = caption ? `${caption} · ${progress.label}` : progress.label;
  track.setAttribute("aria-label", caption || "progress");
  wrap.append(track, label);
  return wrap;
}
