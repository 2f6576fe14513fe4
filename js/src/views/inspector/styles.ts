/** Styles of the Chunks panel. */
export const INSPECTOR_CSS = `
.cs-inspector { display: flex; flex-direction: column; gap: 4px; font-family: var(--jp-ui-font-family, system-ui, sans-serif); font-size: var(--jp-ui-font-size1, 13px); color: var(--jp-ui-font-color1, var(--cs-fg)); }
.cs-inspector-controls { display: flex; align-items: center; gap: 6px; flex-wrap: wrap; }
.cs-inspector-type { width: 14em; font: inherit; padding: 1px 4px; color: inherit; background: var(--jp-layout-color1, var(--cs-bg)); border: 1px solid var(--jp-border-color1, var(--cs-border)); border-radius: 3px; }
.cs-inspector-chips { display: flex; gap: 3px; flex-wrap: wrap; }
.cs-inspector .cs-chip { padding: 0 7px; border-radius: 10px; border: 1px solid var(--jp-border-color1, var(--cs-border)); background: var(--jp-layout-color1, var(--cs-bg)); color: inherit; font: inherit; font-size: var(--jp-ui-font-size0, 11px); cursor: pointer; }
.cs-inspector .cs-chip.cs-on { background: var(--jp-brand-color1, var(--cs-accent)); border-color: var(--jp-brand-color1, var(--cs-accent)); color: var(--jp-ui-inverse-font-color1, #fff); }
.cs-inspector .cs-chip.cs-empty:not(.cs-on) { color: var(--cs-fg-muted); border-style: dashed; }
.cs-inspector-count { margin-left: auto; color: var(--jp-ui-font-color2, var(--cs-fg-muted)); font-variant-numeric: tabular-nums; }
.cs-inspector-body { display: flex; flex-wrap: wrap; gap: 6px; min-height: 0; }
.cs-inspector-list { position: relative; flex: 1 1 55%; min-width: min(100%, 320px); height: 320px; overflow-y: auto; border: 1px solid var(--jp-border-color2, var(--cs-border)); border-radius: 3px; outline: none; font-family: var(--jp-code-font-family, monospace); font-size: var(--jp-code-font-size, 12px); }
.cs-inspector-spacer { width: 1px; }
.cs-inspector .cs-row { position: absolute; left: 0; right: 0; height: 20px; line-height: 20px; display: flex; gap: 8px; padding: 0 6px; white-space: nowrap; cursor: pointer; box-sizing: border-box; }
.cs-inspector .cs-row[hidden] { display: none; }
.cs-inspector .cs-row:hover { background: var(--jp-layout-color2, var(--cs-bg-alt)); }
.cs-inspector .cs-row.cs-linked { background: var(--jp-brand-color4, var(--cs-fb-linked-bg)); }
.cs-inspector .cs-row.cs-selected { background: var(--jp-brand-color3, var(--cs-fb-selected-bg)); }
.cs-inspector .cs-row-t { width: 5.5em; text-align: right; color: var(--jp-ui-font-color2, var(--cs-fg-muted)); font-variant-numeric: tabular-nums; }
.cs-inspector .cs-row-type { flex: 1 1 auto; overflow: hidden; text-overflow: ellipsis; }
.cs-inspector .cs-row[data-family="errors"] .cs-row-type { color: var(--jp-error-color1, var(--cs-error)); }
.cs-inspector .cs-row-from { width: 6em; color: var(--jp-ui-font-color2, var(--cs-fg-muted)); }
.cs-inspector .cs-row-n { width: 4em; text-align: right; color: var(--jp-ui-font-color2, var(--cs-fg-muted)); }
.cs-inspector .cs-row-live { width: 5.5em; color: var(--jp-warn-color1, var(--cs-warn)); }
.cs-inspector-detail { flex: 1 1 45%; min-width: min(100%, 240px); height: 320px; overflow: auto; padding: 4px 6px; border: 1px solid var(--jp-border-color2, var(--cs-border)); border-radius: 3px; font-family: var(--jp-code-font-family, monospace); font-size: var(--jp-code-font-size, 12px); }
.cs-inspector-detail-head { margin-bottom: 4px; color: var(--jp-ui-font-color2, var(--cs-fg-muted)); font-family: var(--jp-ui-font-family, system-ui, sans-serif); }
.cs-inspector-hint { color: var(--jp-ui-font-color2, var(--cs-fg-muted)); font-family: var(--jp-ui-font-family, system-ui, sans-serif); }
`;
