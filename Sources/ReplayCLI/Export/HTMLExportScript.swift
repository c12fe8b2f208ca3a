/// The exported page's JavaScript: ``reader`` parses the embedded data, ``model`` rebuilds
/// states and diffs from it, ``tree`` shows a state, and ``view`` builds and updates the page
/// (each in its `HTMLExportScript+….swift` file).
///
/// The script never parses data as markup: it builds elements with `createElement` and sets
/// their text with `textContent`. It keeps JSON exact: objects are `Map`s (member order and any
/// key, `__proto__` too, kept) and a number whose JavaScript form would differ from its literal
/// (`1.0`, 2^63 − 1) keeps its literal text.
enum HTMLExportScript {
  /// The whole script, as the page's one inline `<script>` element holds it.
  static let source = reader + model + tree + panels + view

  /// Rebuilding states from full states and RFC 6902 patches, and writing values and diffs as
  /// `replay` does: ``JSONDiff/render(_:maxValueWidth:)``'s lines, values cut to 80 characters.
  static let model = #"""
    const RewindModel = (() => {
      const { JNumber, LazyList, parseJSON } = RewindJSONReader;

      const isObject = (v) => v instanceof Map;
      const isContainer = (v) => v instanceof Map || Array.isArray(v);
      const size = (v) => (v instanceof Map ? v.size : v.length);

      const ESCAPES = { '"': '\\"', '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f' };
      /** A string as a JSON literal, escaped as replay's diff writes it. */
      function quote(s) {
        return '"' + s.replace(/["\\\u0000-\u001f]/g, (c) =>
          ESCAPES[c] || '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0')) + '"';
      }

      /** Compact JSON text of v; stops soon after `budget` UTF-16 units. */
      function compact(v, budget = Infinity) {
        const parts = [];
        let length = 0;
        const put = (t) => { parts.push(t); length += t.length; };
        const walk = (x) => {
          if (length > budget) return;
          if (x === null) put('null');
          else if (x === true) put('true');
          else if (x === false) put('false');
          else if (typeof x === 'number') put(String(x));
          else if (x instanceof JNumber) put(x.text);
          else if (typeof x === 'string') put(quote(x));
          else if (Array.isArray(x)) {
            put('[');
            for (let k = 0; k < x.length && length <= budget; k++) { if (k) put(','); walk(x[k]); }
            put(']');
          } else {
            put('{');
            let first = true;
            for (const [key, member] of x) {
              if (length > budget) break;
              if (!first) put(',');
              first = false;
              put(quote(key));
              put(':');
              walk(member);
            }
            put('}');
          }
        };
        walk(v);
        return parts.join('');
      }

      const segmenter = typeof Intl === 'object' && Intl.Segmenter ? new Intl.Segmenter() : null;
      const characters = (t) => (segmenter ? Array.from(segmenter.segment(t), (s) => s.segment) : Array.from(t));

      /** Compact JSON cut to `width` characters ending in …, as replay's diff does. */
      function shortJSON(v, width = 80) {
        const limit = width * 4;
        const text = compact(v, limit * 2);
        const scalars = Array.from(text);
        const isCut = scalars.length > limit;
        const kept = isCut ? scalars.slice(0, limit).join('') : text;
        const chars = characters(kept);
        if (!isCut && chars.length <= width) return kept;
        return chars.slice(0, width - 1).join('') + '\u2026';
      }

      /** Indented JSON, two spaces per level, as `replay state` prints it. */
      function pretty(v, depth = 0) {
        if (!isContainer(v) || size(v) === 0) return compact(v);
        const pad = '  '.repeat(depth + 1);
        const lines = Array.isArray(v)
          ? v.map((x) => pad + pretty(x, depth + 1))
          : Array.from(v, ([k, x]) => pad + quote(k) + ': ' + pretty(x, depth + 1));
        const [open, close] = Array.isArray(v) ? ['[', ']'] : ['{', '}'];
        return open + '\n' + lines.join(',\n') + '\n' + '  '.repeat(depth) + close;
      }

      const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
      /** The RFC 6901 pointer's tokens, unescaped. */
      const tokensOf = (pointer) =>
        pointer === '' ? [] : pointer.slice(1).split('/').map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
      /** The pointer of `tokens`. */
      const pointerOf = (tokens) => tokens.map((t) => '/' + String(t).replace(/~/g, '~0').replace(/\//g, '~1')).join('');

      /** The human path of `tokens` in `doc`: todos[2].title, ["by id"], (root). */
      function humanPath(doc, tokens) {
        if (tokens.length === 0) return '(root)';
        let text = '';
        let node = doc;
        for (const t of tokens) {
          if (Array.isArray(node)) { text += '[' + t + ']'; node = node[Number(t)]; continue; }
          text += IDENTIFIER.test(t) ? (text ? '.' : '') + t : '[' + quote(t) + ']';
          node = isObject(node) ? node.get(t) : undefined;
        }
        return text;
      }

      function arrayIndex(token, count, allowsEnd) {
        if (token === '-' && allowsEnd) return count;
        if (!/^(0|[1-9][0-9]*)$/.test(token)) throw new Error('bad array index ' + token);
        const index = Number(token);
        if (index > count || (index === count && !allowsEnd)) throw new Error('array index out of range: ' + token);
        return index;
      }

      function valueAt(doc, tokens) {
        let node = doc;
        for (const t of tokens) {
          if (Array.isArray(node)) node = node[arrayIndex(t, node.length, false)];
          else if (isObject(node) && node.has(t)) node = node.get(t);
          else throw new Error('the patch does not fit the state at ' + t);
        }
        return node;
      }

      /** A copy of `node` with the container at tokens[..last] replaced by change(container, last). */
      function edit(node, tokens, depth, change) {
        if (depth === tokens.length - 1) return change(node, tokens[depth]);
        const t = tokens[depth];
        if (Array.isArray(node)) {
          const k = arrayIndex(t, node.length, false);
          const copy = node.slice();
          copy[k] = edit(node[k], tokens, depth + 1, change);
          return copy;
        }
        if (isObject(node) && node.has(t)) {
          const copy = new Map(node);
          copy.set(t, edit(node.get(t), tokens, depth + 1, change));
          return copy;
        }
        throw new Error('the patch does not fit the state at ' + t);
      }

      /**
       * Applies one RFC 6902 operation (add, remove, replace) without changing `doc`; when
       * `changes` is given, appends the change it makes: {sign, path, old, value}.
       */
      function applyOperation(doc, operation, changes) {
        const op = operation.get('op');
        const tokens = tokensOf(operation.get('path'));
        const value = operation.get('value');
        if (changes) {
          const path = humanPath(doc, tokens);
          if (op === 'add') changes.push({ sign: '+', path, value });
          else if (op === 'remove') changes.push({ sign: '-', path, value: valueAt(doc, tokens) });
          else changes.push({ sign: '~', path, old: valueAt(doc, tokens), value });
        }
        if (tokens.length === 0) {
          if (op === 'remove') throw new Error('cannot remove the root');
          return value;
        }
        return edit(doc, tokens, 0, (container, t) => {
          if (Array.isArray(container)) {
            const copy = container.slice();
            if (op === 'add') copy.splice(arrayIndex(t, container.length, true), 0, value);
            else if (op === 'remove') copy.splice(arrayIndex(t, container.length, false), 1);
            else if (op === 'replace') copy[arrayIndex(t, container.length, false)] = value;
            else throw new Error('unsupported operation ' + op);
            return copy;
          }
          if (isObject(container)) {
            if (op !== 'add' && !container.has(t)) throw new Error('no member ' + t);
            const copy = new Map(container);
            if (op === 'remove') copy.delete(t);
            else if (op === 'add' || op === 'replace') copy.set(t, value);
            else throw new Error('unsupported operation ' + op);
            return copy;
          }
          throw new Error('not a container at ' + t);
        });
      }

      /** The line replay's diff prints for one recorded change. */
      function changeLine(change) {
        if (change.sign === '~') return change.path + ': ' + shortJSON(change.old) + ' \u2192 ' + shortJSON(change.value);
        return change.sign + ' ' + change.path + ': ' + shortJSON(change.value);
      }

      /** The log's states: full states every `interval` positions, patches in between. */
      class States {
        constructor(data) {
          this.isRebuilt = data.get('rebuilt');
          this.first = data.get('first');
          this.last = data.get('last');
          this.full = data.get('full');
          this.patches = data.get('patches'); // a LazyList or an array
          this.orders = new Map(data.get('orders').map((entry) => [entry[0], entry[1]]));
          this.stoppedSeq = data.get('stoppedSeq');
          this.crash = data.get('crash');
          this.failure = data.get('failure');
          this.cursor = null;
        }

        /** Whether a state is known at `p`. */
        has(p) {
          if (this.last === null || p < this.first || p > this.last) return false;
          return this.isRebuilt || this.nearestFull(p)[0] === p;
        }

        /** The full state entry [position, state] at or before `p`. */
        nearestFull(p) {
          let low = 0;
          let high = this.full.length;
          while (low < high) {
            const mid = (low + high) >> 1;
            if (this.full[mid][0] <= p) low = mid + 1; else high = mid;
          }
          return this.full[Math.max(0, low - 1)];
        }

        /** The state at `p`, or undefined when it is not known. */
        at(p) {
          if (!this.has(p)) return undefined;
          let [position, state] = this.nearestFull(p);
          if (this.cursor && this.cursor.position <= p && this.cursor.position > position) {
            ({ position, state } = this.cursor);
          }
          for (; position < p; position++) {
            for (const operation of this.patch(position - this.first)) state = applyOperation(state, operation);
          }
          this.cursor = { position: p, state };
          return state;
        }

        /** The patch `k`, from position first + k to the next. */
        patch(k) {
          return this.patches instanceof LazyList ? this.patches.at(k) : this.patches[k];
        }

        /** The patch that leads to `p`, or undefined. */
        patchInto(p) {
          return this.isRebuilt && this.has(p) && p > this.first ? this.patch(p - 1 - this.first) : undefined;
        }

        /** The diff lines of the action at `p` in replay's order, or undefined when unknown. */
        diffLines(p) {
          const patch = this.patchInto(p);
          if (!patch) return undefined;
          let state = this.at(p - 1);
          const changes = [];
          for (const operation of patch) state = applyOperation(state, operation, changes);
          const order = this.orders.get(p - 1 - this.first);
          return (order ? order.map((k) => changes[k]) : changes).map((c) => ({ sign: c.sign, path: c.path, text: changeLine(c), change: c }));
        }
      }

      return { JNumber, LazyList, parseJSON, applyOperation, quote, compact, shortJSON, pretty, humanPath, tokensOf, pointerOf, isObject, isContainer, size, States };
    })();

    """#
}
