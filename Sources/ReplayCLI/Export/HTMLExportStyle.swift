/// The exported page's style sheet: neutral colours, light or dark as the system prefers,
/// system fonts for labels and the system's monospace font for values (nothing is loaded).
enum HTMLExportStyle {
  /// The CSS, as the page's one inline `<style>` element holds it.
  ///
  /// `.action-row` is 24 pixels high: the script's virtual list counts on it.
  static let css = #"""

    :root {
      color-scheme: light dark;
      --bg: #f6f7f9; --panel: #ffffff; --text: #1d2127; --muted: #69717d; --line: #dde1e6;
      --accent: #2f6feb; --accent-soft: #e3ecfd; --hover: #f0f2f5;
      --add: #1a7f37; --add-bg: #e6f4ea; --remove: #c2313a; --remove-bg: #fbe9ea;
      --change: #9a6700; --change-bg: #fff5d6; --str: #0b6b6f; --num: #5b3fc4; --key: #3d4450;
      --mono: ui-monospace, SFMono-Regular, "SF Mono", Menlo, Consolas, "DejaVu Sans Mono", "Liberation Mono", monospace;
      --sans: system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "DejaVu Sans", sans-serif;
    }
    @media (prefers-color-scheme: dark) {
      :root {
        --bg: #15171b; --panel: #1d2025; --text: #e3e6ea; --muted: #9aa2ad; --line: #30353c;
        --accent: #6ea0ff; --accent-soft: #223252; --hover: #262a30;
        --add: #5fce7d; --add-bg: #16301f; --remove: #ff7b83; --remove-bg: #3a1c20;
        --change: #e3b341; --change-bg: #3a2f12; --str: #62d0c7; --num: #b6a2ff; --key: #c6ccd4;
      }
    }
    * { box-sizing: border-box; }
    html, body { margin: 0; height: 100%; }
    body { background: var(--bg); color: var(--text); font: 14px/1.45 var(--sans); }
    .mono, pre, .tree, .diff { font-family: var(--mono); font-size: 12.5px; }
    .muted { color: var(--muted); }
    [hidden] { display: none !important; }
    .noscript, .load-error { margin: 2em; padding: 1em; border: 1px solid var(--remove); border-radius: 8px; }
    .page { display: flex; flex-direction: column; height: 100vh; }
    .top { padding: 12px 20px 8px; background: var(--panel); border-bottom: 1px solid var(--line); }
    .title-line { display: flex; align-items: baseline; gap: 12px; flex-wrap: wrap; }
    .brand { font-weight: 700; letter-spacing: .04em; text-transform: uppercase; font-size: 12px; color: var(--accent); }
    h1 { margin: 0; font-size: 20px; font-weight: 650; }
    .types { color: var(--muted); }
    .meta { display: flex; flex-wrap: wrap; gap: 4px 22px; margin: 8px 0 0; }
    .meta-item { display: flex; gap: 6px; min-width: 0; }
    .meta dt { color: var(--muted); }
    .meta dd { margin: 0; overflow-wrap: anywhere; }
    .meta .good dd { color: var(--add); }
    .meta .bad dd { color: var(--remove); font-weight: 600; }
    .notes { list-style: none; margin: 0; padding: 8px 20px 0; display: flex; flex-direction: column; gap: 6px; }
    .note { padding: 7px 12px; border-radius: 6px; border-left: 4px solid var(--accent); background: var(--accent-soft); margin: 0; }
    .note.bad { border-color: var(--remove); background: var(--remove-bg); }
    .note.warn { border-color: var(--change); background: var(--change-bg); }
    .timeline { display: flex; align-items: center; gap: 8px; padding: 10px 20px; }
    .timeline input[type=range] { flex: 1; accent-color: var(--accent); min-width: 120px; }
    button { font: inherit; color: var(--text); background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: 3px 10px; cursor: pointer; }
    button:hover { background: var(--hover); }
    button:focus-visible, input:focus-visible, select:focus-visible { outline: 2px solid var(--accent); outline-offset: 1px; }
    .position-label { min-width: 150px; text-align: right; color: var(--muted); }
    .panes { flex: 1; min-height: 0; display: grid; grid-template-columns: minmax(320px, 42%) 1fr; gap: 12px; padding: 0 20px 16px; }
    .pane { min-height: 0; display: flex; flex-direction: column; }
    .actions-pane { background: var(--panel); border: 1px solid var(--line); border-radius: 10px; overflow: hidden; }
    .filters { display: flex; gap: 8px; padding: 10px; border-bottom: 1px solid var(--line); }
    .filters input, .filters select { font: inherit; color: var(--text); background: var(--bg); border: 1px solid var(--line); border-radius: 6px; padding: 4px 8px; }
    .filters input { flex: 1; min-width: 0; }
    .match-count { padding: 4px 12px; font-size: 12px; color: var(--muted); border-bottom: 1px solid var(--line); }
    .actions { flex: 1; overflow-y: auto; position: relative; }
    .actions-inner { position: relative; }
    .action-row { display: flex; align-items: center; gap: 10px; height: 24px; padding: 0 12px; cursor: pointer; white-space: nowrap; font-family: var(--mono); font-size: 12.5px; }
    .actions-inner .action-row { position: absolute; left: 0; right: 0; }
    .action-row:hover { background: var(--hover); }
    .action-row.selected { background: var(--accent-soft); box-shadow: inset 3px 0 0 var(--accent); }
    .action-row.initial { border-bottom: 1px solid var(--line); }
    .action-row.stopped .seq::before { content: "\26A0\FE0E  "; color: var(--remove); }
    .action-row.stopped { color: var(--remove); }
    .crash-card pre { margin: 0.15em 0; white-space: pre-wrap; font: inherit; }
    .action-row.unrecorded .payload { color: var(--muted); font-style: italic; }
    .seq { min-width: var(--seq-width, 4ch); text-align: right; color: var(--muted); font-variant-numeric: tabular-nums; }
    .time { min-width: 8ch; text-align: right; color: var(--muted); }
    .type { display: inline-block; padding: 0 6px; border-radius: 4px; font-size: 12px; line-height: 18px; background: var(--hover); }
    .payload { overflow: hidden; text-overflow: ellipsis; min-width: 0; }
    .t0 { color: #2f6feb; } .t1 { color: #1a7f37; } .t2 { color: #b35900; } .t3 { color: #8250df; }
    .t4 { color: #c2313a; } .t5 { color: #0b7285; } .t6 { color: #9a6700; } .t7 { color: #bf3989; }
    @media (prefers-color-scheme: dark) {
      .t0 { color: #79a8ff; } .t1 { color: #5fce7d; } .t2 { color: #f0a35e; } .t3 { color: #c29bff; }
      .t4 { color: #ff7b83; } .t5 { color: #5cc8d6; } .t6 { color: #e3b341; } .t7 { color: #f38bc4; }
    }
    .detail-pane { overflow-y: auto; gap: 12px; }
    .card { background: var(--panel); border: 1px solid var(--line); border-radius: 10px; padding: 10px 14px; }
    .state-card { flex: 1; }
    h2 { margin: 0 0 6px; font-size: 12px; font-weight: 650; letter-spacing: .05em; text-transform: uppercase; color: var(--muted); }
    .action-line { margin: 0 0 6px; display: flex; gap: 8px; align-items: center; }
    .badge { font-size: 11px; padding: 0 6px; border-radius: 8px; border: 1px solid var(--change); color: var(--change); }
    .payload-json { margin: 0; padding: 8px 10px; background: var(--bg); border-radius: 6px; white-space: pre-wrap; overflow-wrap: anywhere; max-height: 220px; overflow: auto; }
    .diff { list-style: none; margin: 0; padding: 0; }
    .diff li { padding: 2px 8px; border-radius: 4px; white-space: pre-wrap; overflow-wrap: anywhere; }
    .diff li + li { margin-top: 2px; }
    .change.add { background: var(--add-bg); }
    .change.add .sign, .change.add .value { color: var(--add); }
    .change.remove { background: var(--remove-bg); }
    .change.remove .sign, .change.remove .value { color: var(--remove); }
    .change.replace { background: var(--change-bg); }
    .change .old { color: var(--remove); text-decoration: line-through; text-decoration-thickness: 1px; }
    .change .new { color: var(--add); }
    .change .path { font-weight: 600; }
    .state-note { margin: 0 0 8px; color: var(--muted); }
    .tree { line-height: 1.6; }
    .tree .children { margin-left: 9px; padding-left: 12px; border-left: 1px dotted var(--line); }
    .tree .row { white-space: pre-wrap; overflow-wrap: anywhere; border-radius: 4px; padding-right: 4px; }
    .tree .row.folding { cursor: pointer; }
    .tree .row.folding:hover { background: var(--hover); }
    .tree .row.changed { background: var(--change-bg); box-shadow: inset 3px 0 0 var(--change); }
    .toggle { display: inline-block; width: 1.3em; color: var(--muted); }
    .key { color: var(--key); font-weight: 600; }
    .index { color: var(--muted); }
    .colon { color: var(--muted); }
    .v.str { color: var(--str); }
    .v.num { color: var(--num); }
    .v.bool, .v.null { color: var(--accent); }
    .summary, .preview { color: var(--muted); }
    .more, .jump { margin: 4px 0 4px 1.3em; font-size: 12px; }
    .jump { margin-right: 8px; }
    .tree .key, .tree .index { cursor: help; }
    .tree .key:hover, .tree .index:hover { text-decoration: underline dotted; }
    .tree .row.found { background: var(--accent-soft); box-shadow: inset 3px 0 0 var(--accent); }
    button.link { border: none; background: none; padding: 0; color: var(--accent); cursor: pointer; font: inherit; }
    button.link:hover { text-decoration: underline; background: none; }
    .origins { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: 6px 0 8px; font-size: 13px; }
    .origins dt { color: var(--muted); }
    .origins dd { margin: 0; }
    .origins .site { font-family: var(--mono); font-size: 12.5px; }
    .state-search { display: flex; gap: 6px; margin-bottom: 6px; }
    .state-search input { flex: 1; font: inherit; color: var(--text); background: var(--bg); border: 1px solid var(--line); border-radius: 6px; padding: 3px 8px; }
    .state-search button { font-size: 12px; }
    .state-matches, .history { list-style: none; margin: 0 0 8px; padding: 0; max-height: 12em; overflow: auto; }
    .history { max-height: 24em; }
    .state-matches li, .history li { padding: 1px 4px; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
    .history .old { color: var(--remove); }
    .history .new { color: var(--add); }
    .history-card h2 { display: flex; justify-content: space-between; align-items: center; }
    .costs { display: grid; grid-template-columns: max-content minmax(80px, 1fr) max-content; gap: 3px 10px; align-items: center; font-size: 12.5px; }
    .cost-row { display: contents; }
    .cost-bar { height: 10px; background: var(--hover); border-radius: 3px; overflow: hidden; }
    .cost-fill { height: 100%; background: var(--accent); border-radius: 3px; }
    .cost-figures { color: var(--muted); white-space: nowrap; }
    .costs-note { margin: 0 0 8px; font-size: 12px; }
    .costs-slowest { margin-top: 8px; font-size: 12.5px; }
    #history-title { text-transform: none; letter-spacing: 0; font-family: var(--mono); }
    .close { font-size: 12px; padding: 0 6px; }
    @media (max-width: 820px) {
      .page { height: auto; }
      .panes { grid-template-columns: 1fr; }
      .actions-pane { height: 60vh; }
    }

    """#
}
