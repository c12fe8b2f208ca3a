extension HTMLExportScript {
  /// Reading the embedded JSON exactly: objects become `Map`s (member order and any key kept,
  /// `__proto__` too), a number whose JavaScript form would differ from its literal (`1.0`,
  /// 2^63 − 1) becomes a `JNumber` holding the literal, and the arrays of members named in
  /// `options.lazy` (the patches) are only skimmed at load and parsed element by element when
  /// asked for, which halves the loading time of a large log and keeps memory small.
  static let reader = #"""

    'use strict';
    const RewindJSONReader = (() => {
      /** A number whose literal text is not what JavaScript would write for its value. */
      class JNumber { constructor(text) { this.text = text; } }

      /** An array whose elements are parsed when asked for: `at(k)`. */
      class LazyList {
        constructor(text, offsets) { this.text = text; this.offsets = offsets; this.length = offsets.length; }
        at(k) { return parseJSON(this.text, { from: this.offsets[k] }); }
      }

      /**
       * Parses JSON text; objects become Maps and inexact numbers JNumbers. An array that is the
       * value of a member named in `options.lazy` becomes a LazyList, only skimmed now. With
       * `options.from`, parses the one value that starts there.
       */
      function parseJSON(text, options = {}) {
        const lazy = options.lazy || new Set();
        let i = options.from || 0;
        const fail = () => { throw new Error('the embedded data is not valid JSON (at ' + i + ')'); };
        const skip = () => {
          let c = text.charCodeAt(i);
          while (c === 32 || c === 10 || c === 13 || c === 9) c = text.charCodeAt(++i);
        };
        let nextEscape = -1;
        const string = () => {
          const start = ++i;
          const end = text.indexOf('"', start);
          if (nextEscape < start) nextEscape = text.indexOf('\\', start);
          if (nextEscape === -1) nextEscape = text.length;
          if (end !== -1 && end < nextEscape) { i = end + 1; return text.slice(start, end); }
          let out = '';
          let from = start;
          for (;;) {
            const c = text.charCodeAt(i);
            if (c === 34) { out += text.slice(from, i); i++; return out; }
            if (c === 92) {
              out += text.slice(from, i);
              const e = text.charAt(i + 1);
              i += 2;
              if (e === 'u') { out += String.fromCharCode(parseInt(text.slice(i, i + 4), 16)); i += 4; }
              else if (e === 'n') out += '\n';
              else if (e === 't') out += '\t';
              else if (e === 'r') out += '\r';
              else if (e === 'b') out += '\b';
              else if (e === 'f') out += '\f';
              else out += e;
              from = i;
              continue;
            }
            if (i >= text.length) fail();
            i++;
          }
        };
        const number = () => {
          const start = i;
          let c = text.charCodeAt(i);
          while ((c >= 48 && c <= 57) || c === 45 || c === 43 || c === 46 || c === 101 || c === 69) {
            c = text.charCodeAt(++i);
          }
          const literal = text.slice(start, i);
          const value = Number(literal);
          if (literal === '' || Number.isNaN(value)) fail();
          return String(value) === literal ? value : new JNumber(literal);
        };
        const skipString = () => {
          let j = i + 1;
          for (;;) {
            const end = text.indexOf('"', j);
            if (end === -1) fail();
            let k = end - 1;
            while (text.charCodeAt(k) === 92) k--;
            if ((end - 1 - k) % 2 === 0) { i = end + 1; return; }
            j = end + 1;
          }
        };
        const skipValue = () => {
          let depth = 0;
          for (;;) {
            const c = text.charCodeAt(i);
            if (c === 34) { skipString(); continue; }
            if (c === 123 || c === 91) depth++;
            else if (c === 125 || c === 93) {
              if (depth === 0) return;
              if (--depth === 0) { i++; return; }
            } else if (c === 44 && depth === 0) return;
            else if (Number.isNaN(c)) fail();
            i++;
          }
        };
        const lazyList = () => {
          i++;
          const offsets = [];
          skip();
          if (text.charCodeAt(i) === 93) { i++; return new LazyList(text, offsets); }
          for (;;) {
            skip();
            offsets.push(i);
            skipValue();
            skip();
            const d = text.charCodeAt(i++);
            if (d === 93) return new LazyList(text, offsets);
            if (d !== 44) fail();
          }
        };
        const value = () => {
          skip();
          const c = text.charCodeAt(i);
          if (c === 123) {
            i++;
            const map = new Map();
            skip();
            if (text.charCodeAt(i) === 125) { i++; return map; }
            for (;;) {
              skip();
              if (text.charCodeAt(i) !== 34) fail();
              const key = string();
              skip();
              if (text.charCodeAt(i++) !== 58) fail();
              skip();
              map.set(key, lazy.has(key) && text.charCodeAt(i) === 91 ? lazyList() : value());
              skip();
              const d = text.charCodeAt(i++);
              if (d === 125) return map;
              if (d !== 44) fail();
            }
          }
          if (c === 91) {
            i++;
            const list = [];
            skip();
            if (text.charCodeAt(i) === 93) { i++; return list; }
            for (;;) {
              list.push(value());
              skip();
              const d = text.charCodeAt(i++);
              if (d === 93) return list;
              if (d !== 44) fail();
            }
          }
          if (c === 34) return string();
          if (text.startsWith('true', i)) { i += 4; return true; }
          if (text.startsWith('false', i)) { i += 5; return false; }
          if (text.startsWith('null', i)) { i += 4; return null; }
          return number();
        };
        const result = value();
        if (options.from !== undefined) return result;
        skip();
        if (i !== text.length) fail();
        return result;
      }

      return { JNumber, LazyList, parseJSON };
    })();

    """#
}
