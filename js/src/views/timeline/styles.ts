/** Styles of the Timeline panel's DOM overlay (the canvas draws the rest). */
export const TIMELINE_CSS = `
.cs-timeline { position: relative; display: flex; flex-direction: column; gap: 4px; font-family: var(--jp-ui-font-family, system-ui, sans-serif); font-size: var(--jp-ui-font-size1, 13px); color: var(--jp-ui-font-color1, var(--cs-fg)); }
.cs-timeline-controls { display: flex; align-items: center; gap: 4px; flex-wrap: wrap; }
.cs-timeline .cs-button { min-width: 26px; padding: 1px 8px; border: 1px solid var(--jp-border-color1, var(--cs-border)); border-radius: 3px; background: var(--jp-layout-color1, var(--cs-bg)); color: inherit; font: inherit; cursor: pointer; }
.cs-timeline .cs-button:disabled { opacity: 0.5; cursor: default; }
.cs-scrub-range { flex: 1 1 160px; min-width: 120px; }
.cs-scrub-time { min-width: 5.5em; font-variant-numeric: tabular-nums; color: var(--jp-ui-font-color2, var(--cs-fg-muted)); }
.cs-timeline.cs-scrubbing .cs-scrub-time { color: var(--jp-error-color1, var(--cs-error)); }
.cs-timeline-help { padding: 0 6px; border-radius: 50%; cursor: help; color: var(--jp-ui-font-color2, var(--cs-fg-muted)); border: 1px solid var(--jp-border-color2, var(--cs-border)); }
.cs-timeline-stage { position: relative; box-sizing: border-box; width: 100%; overflow: hidden; border: 1px solid var(--jp-border-color2, var(--cs-border)); border-radius: 3px; }
.cs-timeline-canvas { display: block; touch-action: none; outline: none; }
.cs-timeline-tooltip { position: absolute; z-index: 2; max-width: min(480px, 90%); padding: 4px 6px; white-space: pre-wrap; overflow-wrap: anywhere; pointer-events: none; font-size: var(--jp-ui-font-size0, 11px); background: var(--jp-layout-color0, var(--cs-bg)); color: var(--jp-ui-font-color1, var(--cs-fg)); border: 1px solid var(--jp-border-color1, var(--cs-border)); border-radius: 3px; box-shadow: 0 1px 4px rgba(0, 0, 0, 0.2); }
.cs-timeline-tooltip[hidden] { display: none; }
.cs-timeline-outline { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
.cs-timeline-outline:focus-within { position: static; width: auto; height: auto; max-height: 240px; overflow: auto; clip-path: none; white-space: normal; padding: 4px; border: 1px solid var(--jp-border-color2, var(--cs-border)); border-radius: 3px; }
.cs-timeline-outline ul { margin: 0; padding-left: 16px; }
.cs-timeline-outline button { padding: 0 2px; border: none; background: none; color: inherit; font: inherit; text-align: left; cursor: pointer; white-space: pre-line; }
.cs-timeline-outline button:focus-visible { outline: 2px solid var(--jp-brand-color1, var(--cs-accent)); }
`;
