extension HTMLExportScript {
  /// The state tree: objects and arrays fold and unfold on a click, keep their folding from one
  /// position to the next (by JSON Pointer), and open along the paths the selected action
  /// changed, which are highlighted. Closed containers show a one-line preview; arrays and
  /// objects show their first 200 children and a button for more.
  ///
  /// Each row carries its JSON Pointer in `data-path`, and a scalar's text is in its `.v`
  /// element (`<div class="row" data-path="/nextID">… <span class="v num">36</span></div>`).
  static let tree = #"""
    const RewindTree = (() => {
      const M = RewindModel;
      const CHUNK = 200;
      const el = (tag, className, text) => {
        const e = document.createElement(tag);
        e.className = className;
        if (text !== undefined) e.textContent = text;
        return e;
      };

      function create(options = {}) {
        const opened = new Map();
        let shown = null;
        let found = null;
        const shownCount = new Map();
        let marks = { changed: new Set(), ancestors: new Set() };

        /** The pointers a patch changed (a removal marks its container) and their ancestors. */
        function marksFor(patch) {
          const changed = new Set();
          const ancestors = new Set();
          for (const operation of patch || []) {
            const tokens = M.tokensOf(operation.get('path'));
            const target = operation.get('op') === 'remove' ? tokens.slice(0, -1) : tokens;
            changed.add(M.pointerOf(target));
            for (let k = 0; k < target.length; k++) ancestors.add(M.pointerOf(target.slice(0, k)));
          }
          return { changed, ancestors };
        }

        const isOpen = (pointer, depth, value) => {
          if (opened.has(pointer)) return opened.get(pointer);
          return depth === 0 || marks.ancestors.has(pointer) || (depth === 1 && M.size(value) <= 50);
        };

        function node(label, isIndex, value, tokens) {
          const pointer = M.pointerOf(tokens);
          const item = el('div', 'node');
          const line = el('div', 'row');
          line.dataset.path = pointer;
          line.setAttribute('role', 'treeitem');
          if (marks.changed.has(pointer)) line.classList.add('changed');
          if (pointer === found) line.classList.add('found');
          const container = M.isContainer(value) && M.size(value) > 0;
          const open = container && isOpen(pointer, tokens.length, value);
          line.append(el('span', 'toggle', container ? (open ? '\u25be' : '\u25b8') : ''));
          if (label !== null) {
            const key = isIndex || /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(label) ? label : M.quote(label);
            const name = el('span', isIndex ? 'index' : 'key', key);
            if (options.onKeyClick) {
              name.title = 'Show the history of this value';
              name.addEventListener('click', (event) => { event.stopPropagation(); options.onKeyClick(tokens); });
            }
            line.append(name, el('span', 'colon', ': '));
          }
          if (!M.isContainer(value)) {
            const kind = value === null ? 'null' : typeof value === 'string' ? 'str' : typeof value === 'boolean' ? 'bool' : 'num';
            line.append(el('span', 'v ' + kind, M.compact(value)));
          } else if (open) {
            line.append(el('span', 'summary', Array.isArray(value) ? '[' + value.length + ']' : '{' + value.size + '}'));
          } else {
            line.append(el('span', 'preview', M.shortJSON(value, 100)));
          }
          if (container) {
            line.classList.add('folding');
            line.setAttribute('aria-expanded', String(open));
            line.addEventListener('click', () => {
              opened.set(pointer, !open);
              item.replaceWith(node(label, isIndex, value, tokens));
            });
          }
          item.append(line);
          if (open) item.append(children(value, tokens, pointer));
          return item;
        }

        function children(value, tokens, pointer) {
          const list = el('div', 'children');
          const entries = Array.isArray(value) ? value.map((v, k) => [String(k), v]) : Array.from(value);
          let limit = shownCount.get(pointer) || CHUNK;
          for (const mark of [...marks.changed, ...marks.ancestors]) {
            if (!mark.startsWith(pointer + '/')) continue;
            const token = M.tokensOf(mark.slice(pointer.length))[0];
            const index = Array.isArray(value) ? Number(token) : entries.findIndex((entry) => entry[0] === token);
            if (index >= limit) limit = index + 1;
          }
          for (const [key, child] of entries.slice(0, limit)) list.append(node(key, Array.isArray(value), child, tokens.concat([key])));
          if (entries.length > limit) {
            const more = el('button', 'more', 'show ' + Math.min(CHUNK, entries.length - limit) + ' more of ' + entries.length);
            more.type = 'button';
            more.addEventListener('click', () => {
              shownCount.set(pointer, limit + CHUNK);
              list.replaceWith(children(value, tokens, pointer));
            });
            list.append(more);
          }
          return list;
        }

        /** Shows `state` in `container`, highlighting and opening along `newMarks`. */
        function render(container, state, newMarks) {
          marks = newMarks;
          shown = { container, state };
          container.replaceChildren(node(null, false, state, []));
        }

        /** Opens the containers down to `pointer`, marks its row and scrolls to it. */
        function reveal(pointer, how = {}) {
          if (!shown) return;
          const tokens = M.tokensOf(pointer);
          for (let k = 0; k < tokens.length; k++) opened.set(M.pointerOf(tokens.slice(0, k)), true);
          found = pointer;
          shown.container.replaceChildren(node(null, false, shown.state, []));
          const row = Array.from(shown.container.querySelectorAll('.row')).find((r) => r.dataset.path === pointer);
          if (row && how.scroll !== false) row.scrollIntoView({ block: 'nearest' });
        }

        return { render, marksFor, reveal };
      }

      return { create };
    })();

    """#
}
