/**
 * Short human formats for stream offsets, shared by the timeline and the chunk inspector.
 */

/** An offset in ms as "2.4 ms", "840 ms", "1.25 s", "12.4 s" or "2:05.3". */
export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return "–";
  const sign = ms < 0 ? "-" : "";
  const abs = Math.abs(ms);
  // Replayed and in-process runs can span a few ms: keep a decimal where it matters.
  if (abs < 10 && !Number.isInteger(abs)) return `${sign}${abs.toFixed(1)} ms`;
  if (abs < 1000) return `${sign}${Math.round(abs)} ms`;
  if (abs < 10_000) return `${sign}${(abs / 1000).toFixed(2)} s`;
  if (abs < 60_000) return `${sign}${(abs / 1000).toFixed(1)} s`;
  const minutes = Math.floor(abs / 60_000);
  const seconds = (abs - minutes * 60_000) / 1000;
  return `${sign}${minutes}:${seconds.toFixed(1).padStart(4, "0")}`;
}

/**
 * A one-line preview of any value, at most `max` characters. The value is serialised only as
 * far as the preview needs, so a multi-megabyte payload costs no more than a small one.
 */
export function preview(value: unknown, max = 120): string {
  const raw = typeof value === "string" ? value : boundedJson(value, max + 1);
  const text = raw.replace(/\s+/g, " ");
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** JSON-like text of `value`, stopping soon after `budget` characters. */
function boundedJson(value: unknown, budget: number): string {
  let out = "";
  const walk = (v: unknown, depth: number): void => {
    if (out.length > budget) return;
    if (v === undefined) {
      out += "undefined";
    } else if (v === null || typeof v === "number" || typeof v === "boolean") {
      out += String(v);
    } else if (typeof v === "string") {
      out += JSON.stringify(v.length > budget ? v.slice(0, budget) : v);
    } else if (typeof v !== "object") {
      out += String(v);
    } else if (depth > 32) {
      out += "…";
    } else if (Array.isArray(v)) {
      out += "[";
      for (let i = 0; i < v.length && out.length <= budget; i++) {
        if (i > 0) out += ",";
        walk(v[i], depth + 1);
      }
      out += "]";
    } else {
      out += "{";
      let first = true;
      for (const key in v) {
        if (out.length > budget) break;
        if (!Object.hasOwn(v, key)) continue;
        if (!first) out += ",";
        first = false;
        out += `${JSON.stringify(key)}:`;
        walk((v as Record<string, unknown>)[key], depth + 1);
      }
      out += "}";
    }
  };
  walk(value, 0);
  return out;
}
