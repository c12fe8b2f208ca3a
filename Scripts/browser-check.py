#!/usr/bin/env python3
"""Checks the DOM that headless Chromium rendered from a page of `replay export --html`.

Used by Scripts/browser-test.sh. Reads the dump of `chromium --dump-dom`, finds what the page's
script built, and compares it with what `replay` itself says. Prints one `ok:` or `FAIL:` line
per check and exits 1 when any check failed.

    browser-check.py DOM --position N [--actions N] [--state PATH=TEXT ...]
                         [--diff-file FILE] [--stopped SEQ] [--state-title TEXT]
"""

import argparse
import sys
from html.parser import HTMLParser

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}


class Element:
    """One element of the dumped DOM: tag, attributes, children (elements and text)."""

    def __init__(self, tag, attributes, parent):
        self.tag = tag
        self.attributes = dict(attributes)
        self.parent = parent
        self.children = []

    def text(self):
        return "".join(c if isinstance(c, str) else c.text() for c in self.children)

    def classes(self):
        return (self.attributes.get("class") or "").split()

    def walk(self):
        for child in self.children:
            if isinstance(child, Element):
                yield child
                yield from child.walk()

    def find_all(self, predicate):
        return [e for e in self.walk() if predicate(e)]


class TreeBuilder(HTMLParser):
    """Builds Elements from the dump (which Chromium serializes well-formed)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = Element("#document", [], None)
        self.current = self.root

    def handle_starttag(self, tag, attrs):
        element = Element(tag, attrs, self.current)
        self.current.children.append(element)
        if tag not in VOID:
            self.current = element

    def handle_endtag(self, tag):
        node = self.current
        while node is not None and node.tag != tag:
            node = node.parent
        if node is not None and node.parent is not None:
            self.current = node.parent

    def handle_data(self, data):
        self.current.children.append(data)


class Checker:
    def __init__(self):
        self.failures = 0

    def expect(self, condition, what, detail=""):
        if condition:
            print(f"ok: {what}")
        else:
            self.failures += 1
            print(f"FAIL: {what}" + (f"\n      {detail}" if detail else ""))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dom")
    parser.add_argument("--position", type=int, required=True)
    parser.add_argument("--actions", type=int)
    parser.add_argument("--state", action="append", default=[], metavar="PATH=TEXT",
                        help="the tree row at this JSON Pointer shows this value text")
    parser.add_argument("--diff-file", help="the expected diff lines, as `replay` prints them")
    parser.add_argument("--stopped", type=int, help="the seq the app stopped in (cut-off log)")
    parser.add_argument("--state-title", help="the state card's title")
    parser.add_argument("--crash-message",
                        help="the runtime's message the crash card must show (the reducer crashed)")
    parser.add_argument("--crash-file",
                        help="the source file of the reducer's frame the crash card must name")
    parser.add_argument("--history", help="the seqs the history panel lists, comma-separated "
                        "(as `replay history LOG PATH --json` gives them)")
    parser.add_argument("--state-matches", help="the paths the state search lists, "
                        "comma-separated (as `search TEXT` gives them)")
    parser.add_argument("--site", help="the selected action's call site")
    parser.add_argument("--cost-types", help="the action types the cost chart lists, "
                        "comma-separated, in any order (as `replay profile --json` gives them)")
    parser.add_argument("--caused-by", type=int, help="the selected action's cause")
    options = parser.parse_args()

    with open(options.dom, encoding="utf-8") as file:
        builder = TreeBuilder()
        builder.feed(file.read())
    root = builder.root
    check = Checker()
    html = next((e for e in root.walk() if e.tag == "html"), None)
    check.expect(html is not None and html.attributes.get("data-ready") == "true",
                 "the page's script ran to the end (data-ready)")
    if html is None:
        return 1
    selected = html.attributes.get("data-position")
    check.expect(selected == str(options.position),
                 f"#position={options.position} selected position {options.position}",
                 f"data-position is {selected!r}")
    print(f"   (read the data in {html.attributes.get('data-parse-ms')} ms, "
          f"ready in {html.attributes.get('data-render-ms')} ms)")
    errors = [e for e in root.walk() if e.attributes.get("id") == "load-error"]
    check.expect(errors and "hidden" in errors[0].attributes, "no load error is shown",
                 errors[0].text() if errors else "no load-error element")

    rows = root.find_all(lambda e: "data-seq" in e.attributes)
    if options.actions is not None:
        check.expect(len(rows) == options.actions, f"{options.actions} actions are listed",
                     f"found {len(rows)} elements with data-seq")
        seqs = [int(r.attributes["data-seq"]) for r in rows]
        check.expect(seqs == sorted(seqs) and len(set(seqs)) == len(seqs),
                     "the actions are listed once each, in seq order")
    chosen = [r for r in rows if "selected" in r.classes()]
    check.expect([r.attributes["data-seq"] for r in chosen] == [str(options.position)],
                 f"the row of action {options.position} is the selected one",
                 f"selected rows: {[r.attributes['data-seq'] for r in chosen]}")

    for item in options.state:
        pointer, _, expected = item.partition("=")
        matches = root.find_all(lambda e: e.attributes.get("data-path") == pointer)
        values = [v.text() for m in matches for v in m.find_all(lambda e: "v" in e.classes())]
        check.expect(values == [expected], f"the state shows {pointer} = {expected}",
                     f"found {values}")

    if options.state_title is not None:
        titles = [e.text() for e in root.walk() if e.attributes.get("id") == "state-title"]
        check.expect(titles == [options.state_title],
                     f"the state card is titled {options.state_title!r}", f"found {titles}")

    diff = next((e for e in root.walk() if e.attributes.get("id") == "diff"), None)
    if options.diff_file:
        with open(options.diff_file, encoding="utf-8") as file:
            expected = file.read().rstrip("\n").split("\n")
        if expected == ["no changes"]:
            shown = [diff.text()] if diff is not None else []
        else:
            shown = [e.text() for e in root.find_all(lambda e: "data-diff-line" in e.attributes)]
        check.expect(shown == expected,
                     f"the diff of action {options.position} reads as replay prints it "
                     f"({len(expected)} line{'s' if len(expected) != 1 else ''})",
                     "expected:\n        " + "\n        ".join(expected)
                     + "\n      shown:\n        " + "\n        ".join(shown))

    if options.stopped is not None:
        stopped = [r.attributes["data-seq"] for r in rows if "stopped" in r.classes()]
        check.expect(stopped == [str(options.stopped)],
                     f"action {options.stopped} is marked as the one the app stopped in",
                     f"marked: {stopped}")
        notes = " ".join(e.text() for e in root.walk() if "note" in e.classes())
        if options.crash_message is None:
            check.expect(f"stopped while running action {options.stopped}" in notes,
                         "a note says the app stopped while running it", notes)
        else:
            check.expect(f"crashed on action {options.stopped}" in notes,
                         "a note says the reducer crashed on it", notes)
            cards = [e for e in root.walk() if "crash-card" in e.classes()]
            card = " ".join(e.text() for e in cards)
            check.expect(len(cards) == 1, "the action's card is a crash card", notes)
            check.expect(options.crash_message in card,
                         f"the crash card shows the runtime's message ({options.crash_message})",
                         card)
            if options.crash_file:
                check.expect(options.crash_file + ":" in card,
                             f"the crash card names the reducer's line in {options.crash_file}",
                             card)

    if options.history is not None:
        listed = [e.attributes["data-history-seq"]
                  for e in root.find_all(lambda e: "data-history-seq" in e.attributes)]
        expected = [s for s in options.history.split(",") if s]
        check.expect(listed == expected, f"the history panel lists actions {expected}",
                     f"listed: {listed}")

    if options.state_matches is not None:
        panel = next((e for e in root.walk() if e.attributes.get("id") == "state-matches"), None)
        shown = [b.text() for b in panel.find_all(lambda e: "link" in e.classes())] if panel else []
        expected = [s for s in options.state_matches.split(",") if s]
        check.expect(shown == expected, f"the state search lists {expected}", f"listed: {shown}")

    if options.site is not None or options.caused_by is not None:
        origins = " ".join(e.text() for e in root.walk() if "origins" in e.classes())
        if options.site is not None:
            check.expect(f"dispatched at{options.site}" in origins.replace(" ", "")
                         or options.site in origins,
                         f"the action card says it was dispatched at {options.site}", origins)
        if options.caused_by is not None:
            check.expect(f"action {options.caused_by} " in origins,
                         f"the action card links its cause, action {options.caused_by}", origins)

    if options.cost_types is not None:
        rows = [e.attributes.get("data-type") for e in root.find_all(lambda e: "cost-row" in e.classes())]
        expected = sorted(s for s in options.cost_types.split(",") if s)
        check.expect(sorted(rows) == expected, f"the cost chart has a bar for each type {expected}",
                     f"bars: {rows}")

    return 1 if check.failures else 0


if __name__ == "__main__":
    sys.exit(main())
