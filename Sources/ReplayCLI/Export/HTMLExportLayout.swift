/// The fixed skeleton of the exported page's `<body>`: empty containers that the script fills.
///
/// It holds no data from the log; the script puts every name, value and action in with
/// `textContent`. It is hidden until the script has read the data, so a browser without
/// JavaScript shows only the `<noscript>` message.
enum HTMLExportLayout {
  /// The markup, with the element ids the script looks up.
  static let body = #"""
    <noscript><p class="noscript">This page shows a Rewind log with JavaScript, which is turned off in this browser.</p></noscript>
    <p id="load-error" class="load-error" hidden></p>
    <div id="page" class="page" hidden>
    <header class="top">
      <div class="title-line">
        <span class="brand">Rewind</span>
        <h1 id="app-name"></h1>
        <span id="app-types" class="types mono"></span>
      </div>
      <dl id="meta" class="meta"></dl>
    </header>
    <ul id="notes" class="notes"></ul>
    <section class="timeline" aria-label="Timeline">
      <button id="go-first" type="button" title="First position (Home)" aria-label="First position">&#x21E4;</button>
      <button id="go-prev" type="button" title="Previous position (&#x2190;)" aria-label="Previous position">&#x25C0;</button>
      <input id="slider" type="range" min="0" max="0" step="1" value="0" aria-label="Position">
      <button id="go-next" type="button" title="Next position (&#x2192;)" aria-label="Next position">&#x25B6;</button>
      <button id="go-last" type="button" title="Last position (End)" aria-label="Last position">&#x21E5;</button>
      <output id="position-label" class="position-label mono" for="slider"></output>
    </section>
    <div class="panes">
      <section class="pane actions-pane" aria-label="Actions">
        <div class="filters">
          <input id="search" type="search" placeholder="Search actions  ( / )" aria-label="Search actions" autocomplete="off" spellcheck="false">
          <select id="type-filter" aria-label="Action type"><option value="">all types</option></select>
        </div>
        <div id="match-count" class="match-count"></div>
        <div id="initial-row" class="action-row initial" role="button" tabindex="-1"></div>
        <div id="actions" class="actions" role="listbox" aria-label="Actions"><div id="actions-inner" class="actions-inner"></div></div>
      </section>
      <section class="pane detail-pane" aria-label="Selected position">
        <div class="card">
          <h2 id="action-title">Action</h2>
          <div id="action-detail" class="action-detail"></div>
        </div>
        <div class="card">
          <h2>Diff</h2>
          <ul id="diff" class="diff mono"></ul>
        </div>
        <div class="card state-card">
          <h2 id="state-title">State</h2>
          <div class="state-search">
            <input id="state-search" type="search" placeholder="Search the state: text, or name=value  ( ⏎ )" aria-label="Search the state" autocomplete="off" spellcheck="false">
            <button id="state-prev" type="button" title="Previous position where the state starts or stops matching">&#x25C0; appears</button>
            <button id="state-next" type="button" title="Next position where the state starts or stops matching">appears &#x25B6;</button>
          </div>
          <div id="state-match-count" class="match-count"></div>
          <ul id="state-matches" class="state-matches mono"></ul>
          <p id="state-note" class="state-note" hidden></p>
          <div id="state" class="tree mono" role="tree"></div>
        </div>
        <div id="costs-card" class="card costs-card" hidden>
          <h2>Cost per action type</h2>
          <p id="costs-note" class="costs-note muted"></p>
          <div id="costs" class="costs"></div>
          <div id="costs-slowest" class="costs-slowest"></div>
        </div>
        <div id="history-card" class="card history-card" hidden>
          <h2><span id="history-title">History</span> <button id="history-close" type="button" class="close" aria-label="Close the history">&#x2715;</button></h2>
          <ul id="history" class="history mono"></ul>
        </div>
      </section>
    </div>
    </div>
    """#
}
