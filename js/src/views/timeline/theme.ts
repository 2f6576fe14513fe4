/**
 * Timeline colours and fonts from JupyterLab's CSS variables, so the canvas follows the light
 * and dark themes; every variable has a fallback for pages without JupyterLab's styles.
 */
import type { ColorKey } from "./layout";

/** Resolved colours and fonts for one draw. */
export interface Theme {
  /** Canvas background. */
  background: string;
  /** Background of every other lane. */
  laneStripe: string;
  /** Lane separators and ruler ticks. */
  border: string;
  /** Labels and ruler text. */
  font: string;
  /** Less important text (nested lane labels, ruler units). */
  fontMuted: string;
  /** Outline of the selected item. */
  selection: string;
  /** Scrub cursor. */
  cursor: string;
  /** Canvas font shorthand for labels. */
  labelFont: string;
  /** Colour of each semantic key. */
  colors: Record<ColorKey, string>;
  /** Readable text colour on top of each semantic colour. */
  onColors: Record<ColorKey, string>;
}

const FALLBACK_COLORS: Record<ColorKey, [variable: string, fallback: string]> = {
  run: ["--jp-layout-color3", "#bdbdbd"],
  step: ["--jp-layout-color4", "#9e9e9e"],
  text: ["--jp-brand-color2", "#64b5f6"],
  reasoning: ["--cs-reasoning-color", "#a881d6"],
  input: ["--jp-brand-color3", "#bbdefb"],
  running: ["--jp-brand-color1", "#1976d2"],
  pending: ["--jp-warn-color1", "#f57c00"],
  success: ["--jp-success-color1", "#388e3c"],
  failure: ["--jp-error-color1", "#d32f2f"],
  muted: ["--jp-ui-font-color3", "#9e9e9e"],
  output: ["--jp-ui-font-color1", "#212121"],
  network: ["--jp-info-color1", "#0097a7"],
  accent: ["--jp-brand-color0", "#0d47a1"],
};

/** Read the theme from the CSS variables visible at `el`. */
export function readTheme(el: Element): Theme {
  const style = getComputedStyle(el);
  const read = (name: string, fallback: string): string => {
    const value = style.getPropertyValue(name).trim();
    return value === "" ? fallback : value;
  };
  const colors = {} as Record<ColorKey, string>;
  const onColors = {} as Record<ColorKey, string>;
  for (const [key, [variable, fallback]] of Object.entries(FALLBACK_COLORS) as [
    ColorKey,
    [string, string],
  ][]) {
    colors[key] = read(variable, fallback);
    onColors[key] = readableOn(colors[key]);
  }
  const family = read("--jp-ui-font-family", "system-ui, -apple-system, 'Segoe UI', sans-serif");
  return {
    background: read("--jp-layout-color1", read("--cs-bg", "#ffffff")),
    laneStripe: read("--jp-layout-color2", read("--cs-bg-alt", "#f5f5f5")),
    border: read("--jp-border-color2", read("--cs-border", "#e0e0e0")),
    font: read("--jp-ui-font-color1", read("--cs-fg", "rgba(0, 0, 0, 0.87)")),
    fontMuted: read("--jp-ui-font-color2", read("--cs-fg-muted", "rgba(0, 0, 0, 0.54)")),
    selection: read("--jp-ui-font-color0", read("--cs-fg", "#000000")),
    cursor: read("--jp-error-color1", "#d32f2f"),
    labelFont: `11px ${family}`,
    colors,
    onColors,
  };
}

/** Black or white, whichever reads better on `color` (hex or rgb[a] notation). */
export function readableOn(color: string): string {
  const rgb = parseColor(color);
  if (rgb === null) return "#000000";
  const [r, g, b] = rgb.map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  const luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  return luminance > 0.4 ? "#000000" : "#ffffff";
}

function parseColor(color: string): [number, number, number] | null {
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})([0-9a-f]{2})?$/i.exec(color.trim());
  if (hex !== null) {
    const digits = hex[1] ?? "";
    const full = digits.length === 3 ? [...digits].map((d) => d + d).join("") : digits;
    return [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16)) as [number, number, number];
  }
  const rgb = /^rgba?\(\s*(\d+)[\s,]+(\d+)[\s,]+(\d+)/i.exec(color.trim());
  if (rgb !== null) return [Number(rgb[1]), Number(rgb[2]), Number(rgb[3])];
  return null;
}
