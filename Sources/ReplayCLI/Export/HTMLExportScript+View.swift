extension HTMLExportScript {
  /// Building and updating the page: header and notes, the timeline slider (and ←/→, Home,
  /// End), the action list (virtual past 2,000 rows) with its search box and type filter, the
  /// selected action, its diff, and the state tree that folds.
  ///
  /// `#position=N&type=NAME&search=TEXT` in the page's address selects position N and sets the
  /// filters when the page opens (`#N` works too), and the address follows the selection and
  /// the filters, so it can be shared. When ready, the `<html>` element gets `data-ready`,
  /// `data-position`, and, in milliseconds, when the script started after the page began
  /// loading (`data-start-ms`), how long it took to read the data (`data-parse-ms`) and to be
  /// ready in all (`data-render-ms`), for tests and measurements.
  static let view = #"""
    (() => {
      const M = RewindModel;
      const started = performance.now();
      const $ = (id) => document.getElementById(id);
      const el = (tag, className, text) => {
        const e = document.createElement(tag);
        if (className) e.className = className;
        if (text !== undefined) e.textContent = text;
        return e;
      };

      let data;
      try {
        data = M.parseJSON($('rewind-data').textContent, { lazy: new Set(['patches']) });
        if (!M.isObject(data) || data.get('format') !== 'rewind-html') throw new Error('this is not Rewind export data');
      } catch (error) {
        $('load-error').textContent = 'This page could not read its data: ' + error.message;
        $('load-error').hidden = false;
        return;
      }
      const parsed = performance.now();
      const info = data.get('info');
      const actions = data.get('actions');
      const states = new M.States(data.get('states'));
      const firstSeq = info.get('firstSeq');
      const firstPosition = firstSeq - 1;
      const lastPosition = firstPosition + actions.length;
      const stopped = states.stoppedSeq;
      const crash = states.crash;
      // The crash report, as lines: the headline, the runtime's message, the app's frames.
      function crashLines() {
        const where = crash.get('type') !== null ? ' (type \u201c' + crash.get('type') + '\u201d, log line ' + crash.get('line') + ')' : '';
        const lines = ['The app\u2019s reducer crashed on action ' + crash.get('seq') + where + ': ' + crash.get('signal')];
        const message = crash.get('message');
        lines.push(message !== null ? message + (crash.get('messageLocation') !== null ? '  (' + crash.get('messageLocation') + ')' : '')
          : '(the runtime printed no message)');
        crash.get('frames').forEach((frame, k) => {
          const file = frame.get('file');
          lines.push('#' + k + ' ' + frame.get('function') + (file !== null ? ' at ' + file + (frame.get('line') !== null ? ':' + frame.get('line') : '') : ''));
        });
        const folded = numberOf(crash.get('foldedFrames'));
        if (folded > 0) lines.push('(' + folded + ' frames of Swift\u2019s runtime and of Rewind\u2019s replay folded)');
        return lines;
      }
      function crashCard() {
        const card = el('div', 'note bad crash-card');
        for (const line of crashLines()) card.append(el('pre', '', line));
        return card;
      }
      const ROW = 24;
      const LIST_ALL = 2000;
      let position = lastPosition;

      // ---- Actions ----
      const actionAt = (seq) => actions[seq - firstSeq];
      // Each action is in its one JSON form (replay action --json): seq, time, type, action,
      // and the marks skipped, missing, sanitized, migrated where they apply.
      const typeOf = (a) => (typeof a.get('type') === 'string' ? a.get('type') : '?');
      const timeOf = (a) => (a.has('time') ? a.get('time') : null);
      const payloadOf = (a) => (a.has('action') ? a.get('action') : null);
      const numberOf = (v) => (v instanceof M.JNumber ? Number(v.text) : v);
      const formatTime = (t) => (typeof numberOf(t) === 'number' ? (Math.round(numberOf(t) * 1000) / 1000).toFixed(3) + 's' : '');
      // Whether an action was recorded: not skipped by the recorder or missing from the file.
      const isRecorded = (a) => !a.has('skipped') && !a.has('missing');
      function payloadText(a, width = 120) {
        if (a.has('skipped')) return '(not recorded: ' + a.get('skipped') + ')';
        if (a.has('missing')) return '(missing: the line was skipped by --recovery salvage)';
        let inner = payloadOf(a);
        if (M.isObject(inner) && inner.size === 1 && inner.has(typeOf(a))) inner = inner.get(typeOf(a));
        if (M.isObject(inner) && inner.size === 0) return '';
        if (M.isObject(inner) && inner.size === 1 && inner.has('_0')) inner = inner.get('_0');
        return M.shortJSON(inner, width);
      }
      const typeClass = (type) => {
        let h = 0;
        for (let k = 0; k < type.length; k++) h = (h * 31 + type.charCodeAt(k)) >>> 0;
        return 't' + (h % 8);
      };
      const describeAction = (seq) => {
        const a = actionAt(seq);
        return a ? 'action ' + seq + ' (' + typeOf(a) + ')' : 'action ' + seq;
      };

      // ---- Header and notes ----
      function renderHeader() {
        const app = info.get('app');
        const path = info.get('path');
        document.title = app + ' \u00b7 ' + path.split('/').pop() + ' \u00b7 Rewind';
        $('app-name').textContent = app;
        $('app-types').textContent = info.get('stateType') + ', ' + info.get('actionType');
        const checkpoints = info.get('checkpoints');
        const shown = checkpoints.slice(0, 6).join(', ') + (checkpoints.length > 6 ? ', \u2026' : '');
        const rows = [
          ['log', path],
          ['session', info.get('session')],
          ['recorded at', info.get('recordedAt')],
          ...(info.get('recordedBy') !== null ? [['recorded by', info.get('recordedBy')]] : []),
          ...(info.get('migratedFrom') !== null ? [['migrated', 'from schema ' + info.get('migratedFrom') + ' by the replay binary\'s migrations']] : []),
          ['actions', actions.length ? actions.length + ' (seq ' + firstSeq + '\u2026' + info.get('lastSeq') + ')' : 'none'],
          ['checkpoints', checkpoints.length ? checkpoints.length + ' (seq ' + shown + ')' : 'none'],
          ['ended', data.get('ended'), info.get('cleanEnd') ? 'good' : 'bad'],
        ];
        const badLines = info.get('badLines');
        if (badLines.length) rows.push(['bad lines', badLines.length + ' (' + info.get('recovery') + ' recovery)', 'bad']);
        const meta = $('meta');
        for (const [name, value, tone] of rows) {
          const item = el('div', 'meta-item' + (tone ? ' ' + tone : ''));
          item.append(el('dt', '', name), el('dd', '', String(value)));
          meta.append(item);
        }
      }

      function renderNotes() {
        const notes = $('notes');
        const note = (tone, text) => notes.append(el('li', 'note ' + tone, text));
        if (!info.get('appKnown')) {
          const recorded = states.full.map((entry) => entry[0]);
          note('info', 'Exported without the app\u2019s reducer (the replay binary did not know the app \u201c' + info.get('app') +
            '\u201d): states are shown only where the log records them, at positions ' + recorded.slice(0, 8).join(', ') +
            (recorded.length > 8 ? ', \u2026' : '') + ', and there are no diffs.');
        }
        if (stopped !== null && crash) {
          note('bad', crashLines()[0] + (crash.get('message') !== null ? ' \u2014 ' + crash.get('message') : '') +
            '. States are shown up to position ' + (stopped - 1) + '.');
        } else if (stopped !== null) {
          note('bad', 'Cut off: the app stopped while running ' + describeAction(stopped) +
            '; its state is not shown. States are shown up to position ' + (stopped - 1) + '.');
        }
        const failure = states.failure;
        if (failure) note('bad', 'States stop before position ' + failure.get('position') + ', which could not be rebuilt: ' + failure.get('message'));
        const suspect = info.get('suspectFrom');
        if (suspect !== null) note('warn', 'States from position ' + suspect + ' on may differ from the live app\u2019s: an action before it was not recorded.');
        notes.hidden = notes.childElementCount === 0;
      }

      // ---- Action list ----
      const list = $('actions');
      const inner = $('actions-inner');
      const search = $('search');
      const typeFilter = $('type-filter');
      const searchText = [];
      let filtered = [];
      let rendered = new Map();
      let windowKey = '';

      function setUpFilters() {
        const counts = new Map();
        for (const a of actions) counts.set(typeOf(a), (counts.get(typeOf(a)) || 0) + 1);
        for (const type of Array.from(counts.keys()).sort()) {
          const option = el('option', '', type + ' (' + counts.get(type) + ')');
          option.value = type;
          typeFilter.append(option);
        }
      }

      function applyFilter() {
        const terms = search.value.toLowerCase().split(/\s+/).filter((t) => t);
        const type = typeFilter.value;
        filtered = [];
        for (let i = 0; i < actions.length; i++) {
          const a = actions[i];
          if (type && typeOf(a) !== type) continue;
          if (terms.length) {
            if (searchText[i] === undefined) searchText[i] = ((firstSeq + i) + ' ' + typeOf(a) + ' ' + payloadText(a, 400)).toLowerCase();
            if (!terms.every((t) => searchText[i].includes(t))) continue;
          }
          filtered.push(i);
        }
        $('match-count').textContent = filtered.length === actions.length
          ? actions.length + ' action' + (actions.length === 1 ? '' : 's')
          : filtered.length + ' of ' + actions.length + ' actions';
        inner.style.height = filtered.length * ROW + 'px';
        windowKey = '';
        renderList();
      }

      function row(i) {
        const seq = firstSeq + i;
        const a = actions[i];
        const r = el('div', 'action-row');
        r.dataset.seq = String(seq);
        r.setAttribute('role', 'option');
        if (seq === stopped) r.classList.add('stopped');
        if (!isRecorded(a)) r.classList.add('unrecorded');
        if (seq === position) r.classList.add('selected');
        r.append(el('span', 'seq', String(seq)), el('span', 'time', formatTime(timeOf(a))),
          el('span', 'type ' + typeClass(typeOf(a)), typeOf(a)), el('span', 'payload', payloadText(a)));
        if (seq === stopped) r.title = 'The app stopped while running this action';
        return r;
      }

      function renderList() {
        const n = filtered.length;
        const all = n <= LIST_ALL;
        const top = list.scrollTop;
        const height = list.clientHeight || 800;
        const from = all ? 0 : Math.max(0, Math.floor(top / ROW) - 30);
        const to = all ? n : Math.min(n, Math.ceil((top + height) / ROW) + 30);
        const key = from + ':' + to;
        if (key === windowKey) return;
        windowKey = key;
        const fragment = document.createDocumentFragment();
        rendered = new Map();
        for (let k = from; k < to; k++) {
          const r = row(filtered[k]);
          r.style.top = k * ROW + 'px';
          rendered.set(firstSeq + filtered[k], r);
          fragment.append(r);
        }
        inner.replaceChildren(fragment);
      }

      function revealInList(p) {
        let low = 0;
        let high = filtered.length;
        while (low < high) {
          const mid = (low + high) >> 1;
          if (filtered[mid] < p - firstSeq) low = mid + 1; else high = mid;
        }
        if (filtered[low] !== p - firstSeq) return;
        const y = low * ROW;
        const far = y < list.scrollTop - 4 * ROW || y > list.scrollTop + list.clientHeight + 3 * ROW;
        if (far) list.scrollTop = y - (list.clientHeight - ROW) / 2;
        else if (y < list.scrollTop) list.scrollTop = y;
        else if (y + ROW > list.scrollTop + list.clientHeight) list.scrollTop = y + ROW - list.clientHeight;
        renderList();
      }

      // ---- Selected position ----
      function renderAction(p) {
        const detail = $('action-detail');
        detail.replaceChildren();
        if (p === firstPosition) {
          $('action-title').textContent = 'Position ' + p;
          detail.append(el('p', 'muted', 'The initial state, from the log\u2019s header: no action led here.'));
          return;
        }
        const a = actionAt(p);
        $('action-title').textContent = 'Action ' + p;
        const line = el('p', 'action-line');
        line.append(el('span', 'type ' + typeClass(typeOf(a)), typeOf(a)));
        if (timeOf(a) !== null) line.append(el('span', 'muted', ' at ' + formatTime(timeOf(a))));
        if (a.has('sanitized')) line.append(el('span', 'badge', 'sanitized'));
        if (a.has('migrated')) line.append(el('span', 'badge', 'migrated'));
        detail.append(line);
        panels.origins(a, detail);
        if (p === stopped && crash) detail.append(crashCard());
        else if (p === stopped) detail.append(el('p', 'note bad', 'The app stopped while running this action: the log ends here without an end record. Its state is not shown.'));
        if (!isRecorded(a)) detail.append(el('p', 'note warn', payloadText(a)));
        else detail.append(el('pre', 'payload-json mono', M.pretty(payloadOf(a))));
      }

      function renderDiff(p) {
        const diff = $('diff');
        diff.replaceChildren();
        const message = (text) => diff.append(el('li', 'muted', text));
        if (p === firstPosition) return message('The initial state: no action led here.');
        if (p === stopped) return message(crash ? 'No diff: the app\u2019s reducer crashed on this action.' : 'No diff: the app stopped while running this action.');
        const lines = states.diffLines(p);
        if (!lines) {
          if (!states.isRebuilt) return message('No diff: this page was exported without the app\u2019s reducer.');
          return message('No diff: the state at this position could not be rebuilt.');
        }
        if (lines.length === 0) return message('no changes');
        for (const line of lines) {
          const item = el('li', 'change ' + { '+': 'add', '-': 'remove', '~': 'replace' }[line.sign]);
          item.dataset.diffLine = '';
          const c = line.change;
          if (c.sign === '~') {
            item.append(el('span', 'path', c.path), ': ', el('span', 'old', M.shortJSON(c.old)), ' \u2192 ', el('span', 'new', M.shortJSON(c.value)));
          } else {
            item.append(el('span', 'sign', c.sign + ' '), el('span', 'path', c.path), ': ', el('span', 'value', M.shortJSON(c.value)));
          }
          diff.append(item);
        }
      }

      // ---- State tree, and the panels that answer "why" ----
      const tree = RewindTree.create({ onKeyClick: (tokens) => panels.showHistory(tokens) });
      const panels = RewindPanels.create({
        $, states, actions, firstPosition, lastPosition, tree, typeOf: (a) => typeOf(a),
        select: (p) => select(p), position: () => position, stoppedSeq: stopped,
        addressChanged: () => writeAddress(),
        filterType: (type) => { typeFilter.value = type; applyFilter(); writeAddress(); },
      });
      const noMarks = { changed: new Set(), ancestors: new Set() };

      function renderState(p) {
        const view = $('state');
        const note = $('state-note');
        let shown = p;
        note.hidden = true;
        if (p === stopped) {
          shown = p - 1;
          note.textContent = (crash ? 'The app\u2019s reducer crashed on action ' + p + ': there is no state after it.' : 'The app stopped while running action ' + p + ': its state is not shown.') + ' This is the state it was applied to.';
          note.hidden = false;
        }
        const state = states.at(shown);
        $('state-title').textContent = shown === p ? 'State at position ' + p : 'State before action ' + p;
        if (state !== undefined) return tree.render(view, state, shown === p ? tree.marksFor(states.patchInto(p)) : noMarks);
        view.replaceChildren();
        note.textContent = states.isRebuilt
          ? 'The state at position ' + p + ' could not be rebuilt.'
          : 'No state at position ' + p + ': without the app\u2019s reducer, states are known only at the header and the recorded checkpoints.';
        note.hidden = false;
        const known = states.full.map((entry) => entry[0]).filter((k) => states.has(k));
        for (const k of [known.filter((k) => k < p).pop(), known.find((k) => k > p)]) {
          if (k === undefined) continue;
          const go = el('button', 'jump', 'go to position ' + k);
          go.type = 'button';
          go.addEventListener('click', () => select(k));
          view.append(go);
        }
      }


      // ---- Selection, keyboard, address ----
      function select(p, options = {}) {
        p = Math.max(firstPosition, Math.min(lastPosition, Math.round(p)));
        const previous = rendered.get(position);
        if (previous) previous.classList.remove('selected');
        position = p;
        const current = rendered.get(p);
        if (current) current.classList.add('selected');
        $('initial-row').classList.toggle('selected', p === firstPosition);
        $('slider').value = String(p);
        $('position-label').textContent = 'position ' + p + ' / ' + lastPosition;
        document.documentElement.dataset.position = String(p);
        renderAction(p);
        renderDiff(p);
        renderState(p);
        panels.showMatches();
        if (options.reveal !== false) revealInList(p);
        writeAddress();
      }

      /** The address's fragment: `#position=N&type=NAME&search=TEXT` (or just `#N`). */
      const readAddress = () => {
        const fragment = location.hash.replace(/^#/, '');
        const params = new URLSearchParams(/^-?\d+$/.test(fragment) ? 'position=' + fragment : fragment);
        const p = params.get('position');
        return { position: p !== null && /^-?\d+$/.test(p) ? Number(p) : null, type: params.get('type'), search: params.get('search') };
      };

      function writeAddress() {
        const params = new URLSearchParams();
        params.set('position', String(position));
        if (typeFilter.value) params.set('type', typeFilter.value);
        if (search.value) params.set('search', search.value);
        panels.writeAddress(params);
        try { history.replaceState(null, '', '#' + params.toString()); } catch (ignored) { /* an opaque origin may refuse */ }
      }

      function applyAddress() {
        const address = readAddress();
        const type = address.type !== null && Array.from(typeFilter.options).some((o) => o.value === address.type) ? address.type : '';
        const query = address.search || '';
        if (type !== typeFilter.value || query !== search.value) {
          typeFilter.value = type;
          search.value = query;
          applyFilter();
        }
        return address.position;
      }

      function setUpControls() {
        const slider = $('slider');
        slider.min = String(firstPosition);
        slider.max = String(lastPosition);
        slider.disabled = lastPosition === firstPosition;
        let pending = false;
        slider.addEventListener('input', () => {
          if (pending) return;
          pending = true;
          requestAnimationFrame(() => { pending = false; select(Number(slider.value)); });
        });
        $('go-first').addEventListener('click', () => select(firstPosition));
        $('go-prev').addEventListener('click', () => select(position - 1));
        $('go-next').addEventListener('click', () => select(position + 1));
        $('go-last').addEventListener('click', () => select(lastPosition));
        $('page').style.setProperty('--seq-width', Math.max(3, String(lastPosition).length) + 'ch');
        const initial = $('initial-row');
        initial.dataset.position = String(firstPosition);
        initial.append(el('span', 'seq', String(firstPosition)), el('span', 'payload muted', 'initial state (header)'));
        initial.addEventListener('click', () => select(firstPosition));
        inner.addEventListener('click', (event) => {
          const target = event.target.closest('.action-row');
          if (target && target.dataset.seq) select(Number(target.dataset.seq), { reveal: false });
        });
        list.addEventListener('scroll', () => requestAnimationFrame(renderList), { passive: true });
        let timer = 0;
        const filterChanged = () => { applyFilter(); writeAddress(); };
        search.addEventListener('input', () => { clearTimeout(timer); timer = setTimeout(filterChanged, actions.length > 20000 ? 150 : 0); });
        typeFilter.addEventListener('change', filterChanged);
        document.addEventListener('keydown', (event) => {
          const target = event.target;
          if (event.key === '/' && target !== search) { event.preventDefault(); search.focus(); return; }
          if (target instanceof HTMLInputElement || target instanceof HTMLSelectElement || target instanceof HTMLTextAreaElement) return;
          if (event.altKey || event.ctrlKey || event.metaKey) return;
          const step = event.shiftKey ? 10 : 1;
          if (event.key === 'ArrowLeft') select(position - step);
          else if (event.key === 'ArrowRight') select(position + step);
          else if (event.key === 'Home') select(firstPosition);
          else if (event.key === 'End') select(lastPosition);
          else return;
          event.preventDefault();
        });
        window.addEventListener('hashchange', () => {
          const p = applyAddress();
          if (p !== null && p !== position) select(p);
        });
      }

      renderHeader();
      renderNotes();
      setUpFilters();
      setUpControls();
      panels.setUp();
      panels.showCosts(data.get('costs'));
      $('page').hidden = false;
      applyFilter();
      const requested = applyAddress();
      select(requested === null ? lastPosition : requested);
      panels.applyAddress();
      const root = document.documentElement.dataset;
      root.startMs = String(Math.round(started));
      root.parseMs = String(Math.round(parsed - started));
      root.renderMs = String(Math.round(performance.now() - started));
      root.ready = 'true';
    })();

    """#
}
