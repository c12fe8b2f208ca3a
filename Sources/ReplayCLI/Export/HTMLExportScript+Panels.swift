extension HTMLExportScript {
  /// The page's answers to "why": where the selected action came from (its call site, its cause
  /// and what it caused, each a link), the history of a value (a click on a key in the state
  /// tree: every action that changed it, following an array element by its `id` as
  /// `todos[id=3].title` does), and a search inside the state (the matches at the selected
  /// position, and the previous or next position where the state starts or stops matching).
  ///
  /// And what each action type cost the reducer: a bar per type (its total), with the count,
  /// median and longest, the recorder's own times beside when the log has them, and the
  /// slowest actions as links; a click on a type keeps only its actions in the list.
  ///
  /// Each reads the same data as the rest of the page — the actions in their one JSON form and
  /// the states rebuilt by `replay` — and answers as the session's `action N`, `history PATH`
  /// and `search [-n|-b]` do.
  static let panels = #"""
    const RewindPanels = (() => {
      const M = RewindModel;
      const el = (tag, className, text) => {
        const e = document.createElement(tag);
        if (className) e.className = className;
        if (text !== undefined) e.textContent = text;
        return e;
      };
      const MAX_CHANGES = 500;
      const MAX_MATCHES = 200;

      function create(page) {
        const { $, states, actions, firstPosition, lastPosition, select, tree, typeOf } = page;
        const seqOf = (a) => a.get('seq');
        // The address as the page opened, before the selection rewrites it.
        const openedWith = new URLSearchParams(location.hash.replace(/^#/, ''));
        let historyPointer = null;
        // What each action caused, from the actions' `cause`.
        const effects = new Map();
        for (const a of actions) {
          const cause = a.get('cause');
          if (typeof cause !== 'number') continue;
          if (!effects.has(cause)) effects.set(cause, []);
          effects.get(cause).push(seqOf(a));
        }
        const actionAt = (seq) => actions[seq - firstPosition - 1];
        const link = (seq) => {
          const a = actionAt(seq);
          const button = el('button', 'link', 'action ' + seq + (a ? ' ' + typeOf(a) : ''));
          button.type = 'button';
          button.dataset.goto = String(seq);
          button.addEventListener('click', () => select(seq));
          return button;
        };

        /** Where action `a` came from, appended to `detail`. */
        function origins(a, detail) {
          const site = a.get('site');
          const cause = a.get('cause');
          const caused = effects.get(seqOf(a)) || [];
          if (typeof site !== 'string' && typeof cause !== 'number' && caused.length === 0) return;
          const list = el('dl', 'origins');
          const row = (name, ...content) => { list.append(el('dt', '', name)); const d = el('dd'); d.append(...content); list.append(d); };
          if (typeof site === 'string') row('dispatched at', el('code', 'site', site));
          if (typeof cause === 'number') row('caused by', link(cause));
          if (caused.length) {
            const shown = caused.slice(0, 20).flatMap((seq, k) => (k ? [', ', link(seq)] : [link(seq)]));
            if (caused.length > 20) shown.push(', and ' + (caused.length - 20) + ' more');
            row('caused', ...shown);
          }
          detail.append(list);
        }

        // ---- History of a value ----
        /** The steps of `tokens` in `state`: a key, an index, or an array element by its `id`. */
        function stepsOf(state, tokens) {
          const steps = [];
          let node = state;
          for (const t of tokens) {
            if (Array.isArray(node)) {
              const element = node[Number(t)];
              if (M.isObject(element) && element.has('id') && !M.isContainer(element.get('id'))) {
                steps.push({ id: element.get('id'), idText: M.compact(element.get('id')) });
              } else {
                steps.push({ index: Number(t) });
              }
              node = element;
            } else {
              steps.push({ key: t });
              node = M.isObject(node) ? node.get(t) : undefined;
            }
          }
          return steps;
        }
        const stepText = (steps) => steps.map((s, k) => ('key' in s ? (k ? '.' : '') + s.key : 'id' in s ? '[id=' + s.idText + ']' : '[' + s.index + ']')).join('') || '(root)';
        /** The value at `steps` in `state`, or undefined. */
        function resolve(state, steps) {
          let node = state;
          for (const s of steps) {
            if (node === undefined) return undefined;
            if ('key' in s) node = M.isObject(node) ? node.get(s.key) : undefined;
            else if ('index' in s) node = Array.isArray(node) ? node[s.index] : undefined;
            else node = Array.isArray(node) ? node.find((e) => M.isObject(e) && e.has('id') && M.compact(e.get('id')) === s.idText) : undefined;
          }
          return node;
        }
        /** Whether a patch operation at `tokens` can change the value at `steps`. */
        function touches(tokens, steps) {
          const n = Math.min(tokens.length, steps.length);
          for (let k = 0; k < n; k++) {
            const s = steps[k];
            if ('key' in s && tokens[k] !== s.key) return false;
            if ('index' in s && tokens[k] !== String(s.index)) return false;
            // An element by id may be at any index: it matches every token.
          }
          return true;
        }

        function showHistory(tokens, how = {}) {
          const card = $('history-card');
          const list = $('history');
          card.hidden = false;
          list.replaceChildren();
          historyPointer = M.pointerOf(tokens);
          page.addressChanged();
          const steps = stepsOf(states.at(page.position()), tokens);
          const name = stepText(steps);
          $('history-title').textContent = 'History of ' + name;
          if (!states.isRebuilt) {
            list.append(el('li', 'muted', 'No history: this page was exported without the app\u2019s reducer.'));
            if (how.scroll !== false) card.scrollIntoView({ block: 'nearest' });
            return;
          }
          const textOf = (v) => (v === undefined ? 'nowhere' : M.compact(v));
          let last = firstPosition;
          while (last < lastPosition && states.has(last + 1)) last++;
          let before = resolve(states.at(firstPosition), steps);
          let beforeText = textOf(before);
          let count = 0;
          for (let p = firstPosition + 1; p <= last; p++) {
            const patch = states.patchInto(p);
            if (!patch || !patch.some((op) => touches(M.tokensOf(op.get('path')), steps) || (op.has('from') && touches(M.tokensOf(op.get('from')), steps)))) continue;
            const after = resolve(states.at(p), steps);
            const afterText = textOf(after);
            if (afterText === beforeText) continue;
            count++;
            if (count <= MAX_CHANGES) {
              const item = el('li', 'history-change');
              item.dataset.historySeq = String(p);
              item.append(link(p), ': ', el('span', 'old', before === undefined ? 'nowhere' : M.shortJSON(before)), ' \u2192 ', el('span', 'new', after === undefined ? 'nowhere' : M.shortJSON(after)));
              list.append(item);
            }
            before = after;
            beforeText = afterText;
          }
          states.at(page.position());
          const summary = count === 0 ? 'No action changed ' + name + ' in positions ' + firstPosition + '\u2026' + last + '.' : count + (count === 1 ? ' change' : ' changes') + (count > MAX_CHANGES ? ' (the first ' + MAX_CHANGES + ' shown)' : '') + ', oldest first; as \u201creplay history LOG ' + name + '\u201d.';
          list.prepend(el('li', 'muted', summary));
          if (how.scroll !== false) card.scrollIntoView({ block: 'nearest' });
        }

        // ---- Search inside the state ----
        /** `TEXT` (in a key or a value, ASCII case ignored) or `NAME=VALUE`, as `search` reads it. */
        function parseQuery(text) {
          const equals = text.indexOf('=');
          if (equals > 0 && /^[^\s=]+$/.test(text.slice(0, equals))) {
            const raw = text.slice(equals + 1);
            let valueText;
            try { valueText = M.compact(M.parseJSON(raw)); } catch (ignored) { valueText = M.quote(raw); }
            return { name: text.slice(0, equals), valueText, label: text };
          }
          return { text: text.toLowerCase(), label: text };
        }
        /** The matches of `query` in `state`, in document order: [tokens, value]; `limit` at most. */
        function matches(state, query, limit) {
          const found = [];
          const walk = (node, tokens) => {
            if (found.length >= limit) return;
            if (Array.isArray(node)) { node.forEach((child, k) => walk(child, tokens.concat([String(k)]))); return; }
            if (M.isObject(node)) {
              for (const [key, child] of node) {
                if (found.length >= limit) return;
                const path = tokens.concat([key]);
                if (query.name !== undefined) {
                  if (key === query.name && M.compact(child) === query.valueText) found.push([path, child]);
                } else if (key.toLowerCase().includes(query.text)) {
                  found.push([path, child]);
                  continue;
                }
                walk(child, path);
              }
              return;
            }
            if (query.text !== undefined && (typeof node === 'string' ? node : M.compact(node)).toLowerCase().includes(query.text)) found.push([tokens, node]);
          };
          if (state !== undefined) walk(state, []);
          return found;
        }

        let query = null;
        function showMatches() {
          const list = $('state-matches');
          list.replaceChildren();
          if (!query) return;
          const p = page.position();
          const state = states.at(p === page.stoppedSeq ? p - 1 : p);
          const found = matches(state, query, MAX_MATCHES + 1);
          $('state-match-count').textContent = found.length === 0 ? 'no match at position ' + p : (found.length > MAX_MATCHES ? 'the first ' + MAX_MATCHES + ' matches' : found.length + (found.length === 1 ? ' match' : ' matches')) + ' at position ' + p;
          for (const [tokens, value] of found.slice(0, MAX_MATCHES)) {
            const item = el('li', 'match');
            const button = el('button', 'link', M.humanPath(state, tokens));
            button.type = 'button';
            button.addEventListener('click', () => tree.reveal(M.pointerOf(tokens)));
            item.append(button, ': ', el('span', 'value', M.shortJSON(value)));
            list.append(item);
          }
          if (found.length) tree.reveal(M.pointerOf(found[0][0]), { scroll: false });
        }
        /** Moves to the next (or previous) position where having a match changes. */
        function seek(direction) {
          if (!query || !states.isRebuilt) return;
          const has = (p) => matches(states.at(p), query, 1).length > 0;
          const start = page.position();
          const here = has(start);
          for (let p = start + direction; p >= firstPosition && p <= lastPosition && states.has(p); p += direction) {
            if (has(p) === here) continue;
            // Forward, where it appears (or goes); backward, the last position with it (or without).
            select(p);
            return;
          }
          $('state-match-count').textContent = here
            ? 'every state ' + (direction > 0 ? 'after' : 'before') + ' position ' + start + ' has a match, as the one at ' + start + ' does'
            : 'no state ' + (direction > 0 ? 'after' : 'before') + ' position ' + start + ' has a match';
          states.at(page.position());
        }

        function setUp() {
          const input = $('state-search');
          const run = () => { query = input.value.trim() ? parseQuery(input.value.trim()) : null; $('state-match-count').textContent = ''; showMatches(); page.addressChanged(); };
          input.addEventListener('keydown', (event) => {
            if (event.key === 'Enter') { event.preventDefault(); run(); }
            else if (event.key === 'Escape') { input.value = ''; run(); }
          });
          input.addEventListener('search', run);
          $('state-prev').addEventListener('click', () => seek(-1));
          $('state-next').addEventListener('click', () => seek(1));
          $('history-close').addEventListener('click', () => { $('history-card').hidden = true; historyPointer = null; page.addressChanged(); });
        }

        // ---- What each action type cost ----
        /** Nanoseconds as replay prints them: 81 ns, 1.89 µs, 4.30 ms, 1.20 s. */
        function duration(ns) {
          const three = (v) => (v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2));
          if (ns < 1000) return ns + ' ns';
          if (ns < 1e6) return three(ns / 1e3) + ' \u00b5s';
          if (ns < 1e9) return three(ns / 1e6) + ' ms';
          return three(ns / 1e9) + ' s';
        }
        function showCosts(costs) {
          if (!M.isObject(costs)) return;
          const types = costs.get('types') || [];
          if (types.length === 0) return;
          $('costs-card').hidden = false;
          const passes = costs.get('passes');
          const hasRecorded = types.some((t) => M.isObject(t.get('recorded')));
          $('costs-note').textContent = 'The reducer\u2019s time for each action, replayed ' + (passes === 1 ? 'once' : passes + ' times') + ' by replay export (the reducer\u2019s call only); bars show each type\u2019s total. replay profile LOG times it again, several passes' + (hasRecorded ? '. Recorded: as the app\u2019s recorder measured it.' : '.');
          const list = $('costs');
          list.replaceChildren();
          const largest = Math.max(1, ...types.map((t) => t.get('replayed').get('total')));
          for (const t of types) {
            const r = t.get('replayed');
            const row = el('div', 'cost-row');
            row.dataset.type = t.get('type');
            const name = el('button', 'link cost-type', t.get('type'));
            name.type = 'button';
            name.title = 'Show only these actions';
            name.addEventListener('click', () => page.filterType(t.get('type')));
            const bar = el('div', 'cost-bar');
            const fill = el('div', 'cost-fill');
            fill.style.width = Math.max(0.5, (100 * r.get('total')) / largest).toFixed(1) + '%';
            bar.append(fill);
            let figures = r.get('count') + ' \u00d7, total ' + duration(r.get('total')) + ', p50 ' + duration(r.get('p50')) + ', max ' + duration(r.get('max'));
            const recorded = t.get('recorded');
            if (M.isObject(recorded)) figures += '; recorded p50 ' + duration(recorded.get('p50')) + ', max ' + duration(recorded.get('max'));
            row.append(name, bar, el('span', 'cost-figures mono', figures));
            list.append(row);
          }
          const slowest = costs.get('slowest') || [];
          const box = $('costs-slowest');
          box.replaceChildren();
          if (slowest.length) {
            box.append(el('span', 'muted', 'slowest: '));
            slowest.slice(0, 10).forEach((s, k) => {
              if (k) box.append(', ');
              box.append(link(s.get('seq')), ' ' + duration(s.get('nanoseconds')));
            });
          }
        }

        /** `&history=POINTER` and `&find=TEXT` in the page's address open those panels. */
        function applyAddress() {
          const params = openedWith;
          const find = params.get('find');
          if (find) { $('state-search').value = find; query = parseQuery(find); showMatches(); }
          const pointer = params.get('history');
          if (pointer !== null && (pointer === '' || pointer.startsWith('/'))) showHistory(M.tokensOf(pointer), { scroll: false });
        }

        /** What the panels add to the page's address: `find` and `history`. */
        function writeAddress(params) {
          if (query) params.set('find', query.label);
          if (historyPointer !== null) params.set('history', historyPointer);
        }

        return { origins, showHistory, showMatches, showCosts, setUp, applyAddress, writeAddress };
      }

      return { create };
    })();

    """#
}
