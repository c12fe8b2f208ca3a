#!/usr/bin/env python3
"""Checks, on Linux, that the Swift sources use no Apple API newer than the deployment targets
Package.swift declares, unless the use is guarded.

There is no Mac in CI, so this is the check that stands in for compiling for every Apple
platform: for each module listed in Scripts/availability.json, every use of an API in the
table's `apis` must be available on each platform the module supports, at the deployment target,
or be inside `@available(...)` / `if #available(...)` / `guard #available(...)` for a version
that has it, or inside an `#if` that leaves the platform out (`#if os(Linux)`,
`#if !(os(tvOS) || os(watchOS))`, `#if canImport(Glibc)`, ...). It also checks that
Package.swift's `platforms:` are exactly the table's deployment targets.

It reads Swift, not types: an API is recognised by a pattern in the table, so an API missing
from the table is not checked (docs/apple.md says what is and what is not verified).

Usage: Scripts/check-availability.py [--root DIR] [--table FILE]
Exit status: 0 when clean, 1 with one line per violation (file:line: what, where, how to fix),
2 when the table or Package.swift cannot be read.
"""

import json
import os
import re
import sys

PLATFORMS = ["macOS", "macCatalyst", "iOS", "tvOS", "watchOS", "visionOS"]
PACKAGE_NAMES = {
    "macOS": "macOS", "macCatalyst": "macCatalyst", "iOS": "iOS", "tvOS": "tvOS",
    "watchOS": "watchOS", "visionOS": "visionOS",
}


def version(text):
    """'16.0' -> (16, 0, 0): three parts, so that 14 and 14.0 compare equal."""
    parts = [int(part) for part in text.split(".")][:3]
    return tuple(parts + [0] * (3 - len(parts)))


def show(v):
    """(16, 0, 0) -> '16.0'; (16, 4, 1) -> '16.4.1'."""
    parts = list(v)
    while len(parts) > 2 and parts[-1] == 0:
        parts.pop()
    return ".".join(str(part) for part in parts)


# MARK: Stripping comments and strings

def strip(source, keep_strings=False):
    """The source with comments and (unless `keep_strings`) the contents of string literals
    replaced by spaces, so that patterns and braces are only seen in code. Line breaks are kept,
    so line numbers hold. With `keep_strings`, for the patterns that look at literals (a `/proc`
    path), string contents stay."""
    out = []
    i, n = 0, len(source)
    depth = 0  # nesting of /* */
    while i < n:
        c = source[i]
        if depth:
            if source.startswith("/*", i):
                depth += 1
                out.append("  ")
                i += 2
            elif source.startswith("*/", i):
                depth -= 1
                out.append("  ")
                i += 2
            else:
                out.append("\n" if c == "\n" else " ")
                i += 1
        elif source.startswith("//", i):
            while i < n and source[i] != "\n":
                out.append(" ")
                i += 1
        elif source.startswith("/*", i):
            depth = 1
            out.append("  ")
            i += 2
        elif c == '"' or (c == "#" and re.match(r'#+"', source[i:])):
            hashes = len(re.match(r'#*', source[i:]).group(0))
            i += hashes
            triple = source.startswith('"""', i)
            quote = '"""' if triple else '"'
            close = quote + "#" * hashes
            out.append(" " * hashes + quote)
            i += len(quote)
            while i < n and not source.startswith(close, i):
                if source[i] == "\\" and hashes == 0 and i + 1 < n and source[i + 1] != "\n":
                    out.append(source[i:i + 2] if keep_strings else "  ")
                    i += 2
                    continue
                if not triple and source[i] == "\n":
                    break  # unterminated: do not swallow the file
                kept = source[i] if keep_strings else " "
                out.append("\n" if source[i] == "\n" else kept)
                i += 1
            out.append(close)
            i += len(close)
        else:
            out.append(c)
            i += 1
    return "".join(out)


# MARK: #if conditions

class Condition:
    """Evaluates an `#if` condition to the set of Apple platforms where it holds."""

    TOKEN = re.compile(r"\s*(\|\||&&|!|\(|\)|[A-Za-z_][A-Za-z0-9_]*\s*\([^()]*\)|[A-Za-z_][A-Za-z0-9_.]*)")

    def __init__(self, text):
        self.tokens = []
        pos = 0
        text = text.strip()
        while pos < len(text):
            match = self.TOKEN.match(text, pos)
            if not match:
                break
            self.tokens.append(match.group(1).strip())
            pos = match.end()
        self.pos = 0

    def evaluate(self):
        if not self.tokens:
            return set(PLATFORMS)
        result = self.disjunction()
        return result

    def peek(self):
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def take(self):
        token = self.peek()
        self.pos += 1
        return token

    def disjunction(self):
        result = self.conjunction()
        while self.peek() == "||":
            self.take()
            result = result | self.conjunction()
        return result

    def conjunction(self):
        result = self.unary()
        while self.peek() == "&&":
            self.take()
            result = result & self.unary()
        return result

    def unary(self):
        token = self.take()
        if token == "!":
            return set(PLATFORMS) - self.unary()
        if token == "(":
            result = self.disjunction()
            if self.peek() == ")":
                self.take()
            return result
        return self.atom(token or "")

    @staticmethod
    def atom(token):
        match = re.match(r"(\w+)\s*\(\s*([^()]*?)\s*\)$", token)
        if not match:
            return set(PLATFORMS)  # a flag such as DEBUG: may be on anywhere
        function, argument = match.group(1), match.group(2)
        if function == "os":
            return {
                "macOS": {"macOS"}, "iOS": {"iOS", "macCatalyst"}, "tvOS": {"tvOS"},
                "watchOS": {"watchOS"}, "visionOS": {"visionOS"},
            }.get(argument, set())
        if function == "targetEnvironment":
            return {"macCatalyst"} if argument == "macCatalyst" else set(PLATFORMS)
        if function == "canImport":
            module = argument.split(",")[0].strip()
            return {
                "Darwin": set(PLATFORMS), "Foundation": set(PLATFORMS),
                "Combine": set(PLATFORMS), "Observation": set(PLATFORMS),
                "UIKit": {"iOS", "macCatalyst", "tvOS", "visionOS", "watchOS"},
                "AppKit": {"macOS", "macCatalyst"}, "WatchKit": {"watchOS"},
                "Glibc": set(), "Musl": set(), "WinSDK": set(), "Android": set(),
            }.get(module, set(PLATFORMS))
        return set(PLATFORMS)  # arch(), compiler(), swift(), hasFeature(): any platform


# MARK: Availability attributes

AVAILABLE = re.compile(r"(@available|#available)\s*\(([^()]*)\)")


def parse_versions(arguments):
    """`macOS 14, iOS 17.0, *` -> {platform: version}; {} for `*, unavailable` and the like."""
    versions = {}
    for part in arguments.split(","):
        match = re.match(r"\s*(macOS|iOS|tvOS|watchOS|visionOS|macCatalyst)(ApplicationExtension)?\s+(\d+(\.\d+)*)\s*$", part)
        if match:
            versions[match.group(1)] = version(match.group(3))
    # Swift applies an iOS version to Mac Catalyst and visionOS when they are not named.
    if "iOS" in versions:
        versions.setdefault("macCatalyst", versions["iOS"])
        versions.setdefault("visionOS", (max(1, versions["iOS"][0] - 16), 0, 0))
    return versions


# MARK: Checking one file

class Scope:
    def __init__(self, depth, versions):
        self.depth = depth
        self.versions = versions


def check_file(path, display, platforms, table, targets):
    with open(path, encoding="utf-8") as handle:
        source = handle.read()
    text = strip(source)
    # The same lines with their string literals, for the patterns that match inside them.
    literal_lines = strip(source, keep_strings=True).split("\n")
    violations = []
    conditions = []  # stack of [active set, set of platforms taken by earlier branches]
    scopes = []
    depth = 0
    pending = None  # versions of an @available/#available waiting for its `{`
    for number, line in enumerate(text.split("\n"), start=1):
        stripped = line.strip()
        directive = re.match(r"#(if|elseif|else|endif)\b(.*)", stripped)
        if directive:
            kind, rest = directive.group(1), directive.group(2)
            if kind == "if":
                active = Condition(rest).evaluate()
                conditions.append([active, set(active)])
            elif kind == "elseif" and conditions:
                taken = conditions[-1][1]
                active = Condition(rest).evaluate() - taken
                conditions[-1] = [active, taken | active]
            elif kind == "else" and conditions:
                taken = conditions[-1][1]
                conditions[-1] = [set(PLATFORMS) - taken, set(PLATFORMS)]
            elif kind == "endif" and conditions:
                conditions.pop()
            continue
        compiled = set(platforms)
        for active, _ in conditions:
            compiled &= active

        for match in AVAILABLE.finditer(line):
            versions = parse_versions(match.group(2))
            if not versions:
                continue
            before = line[:match.start()]
            if match.group(1) == "#available" and re.search(r"\bguard\s*$|\bguard\b[^{]*$", before):
                # guard #available: the rest of the enclosing scope
                if scopes and scopes[-1].depth == depth:
                    merge(scopes[-1].versions, versions)
                else:
                    scopes.append(Scope(depth, versions))
            else:
                pending = versions

        # Uses on this line: checked against the scopes open at its start, and the pending
        # attribute (a declaration's own line is inside its availability).
        guard = {}
        for scope in scopes:
            merge(guard, scope.versions)
        if pending:
            merge(guard, pending)
        for api in table["apis"]:
            searched = literal_lines[number - 1] if api.get("inStrings") else line
            for match in re.finditer(api["pattern"], searched):
                problem = judge(api, compiled, guard, targets)
                if problem:
                    column = match.start() + 1
                    fix = api.get("fix", "guard it with @available or #available, or raise the "
                                         "deployment target in Package.swift and Scripts/availability.json")
                    violations.append(
                        f"{display}:{number}:{column}: {api['name']}: {problem}. To fix, {fix}.")

        # Braces: open a scope for the pending attribute at the first `{`.
        for character in line:
            if character == "{":
                depth += 1
                if pending is not None:
                    scopes.append(Scope(depth, pending))
                    pending = None
            elif character == "}":
                while scopes and scopes[-1].depth >= depth:
                    scopes.pop()
                depth -= 1
        # An attribute on a declaration without a body (a stored property, a typealias) covers
        # that line only.
        if pending is not None and re.search(r"\b(let|var|typealias|case)\b", stripped) \
                and not stripped.startswith("@"):
            pending = None
    return violations


def merge(into, versions):
    for platform, v in versions.items():
        if platform not in into or into[platform] < v:
            into[platform] = v


def judge(api, compiled, guard, targets):
    """Why the use is wrong on some platform, or None."""
    unavailable = sorted(set(api.get("unavailable", [])) & compiled)
    if unavailable:
        return "not available on " + ", ".join(unavailable)
    short = []
    for platform in PLATFORMS:
        if platform not in compiled or platform not in api.get("introduced", {}):
            continue
        needed = version(api["introduced"][platform])
        have = max(targets[platform], guard.get(platform, (0, 0, 0)))
        if have < needed:
            short.append(f"{platform} {show(needed)} (the code runs from {platform} {show(have)})")
    if short:
        return "needs " + ", ".join(short)
    return None


# MARK: Package.swift

def declared_platforms(package_text):
    block = re.search(r"platforms:\s*\[(.*?)\]", package_text, re.S)
    if not block:
        return None
    found = {}
    for name, major, minor in re.findall(r"\.(\w+)\(\s*\.v(\d+)(?:_(\d+))?\s*\)", block.group(1)):
        found[name] = (int(major), int(minor or 0), 0)
    return found


def main(argv):
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    table_path = None
    args = list(argv)
    while args:
        option = args.pop(0)
        if option == "--root" and args:
            root = args.pop(0)
        elif option == "--table" and args:
            table_path = args.pop(0)
        else:
            print(f"usage: check-availability.py [--root DIR] [--table FILE] (unknown: {option})",
                  file=sys.stderr)
            return 2
    table_path = table_path or os.path.join(root, "Scripts", "availability.json")
    try:
        with open(table_path, encoding="utf-8") as handle:
            table = json.load(handle)
        with open(os.path.join(root, "Package.swift"), encoding="utf-8") as handle:
            package_text = handle.read()
    except (OSError, ValueError) as error:
        print(f"check-availability: cannot read {error}", file=sys.stderr)
        return 2
    targets = {p: version(v) for p, v in table["deploymentTargets"].items()}
    problems = []

    declared = declared_platforms(package_text)
    if declared is None:
        problems.append("Package.swift: no `platforms:` list; declare "
                        + ", ".join(f".{p}(.v{show(v).replace('.0', '')})" for p, v in targets.items()))
    else:
        for platform in PLATFORMS:
            want = targets.get(platform)
            have = declared.get(PACKAGE_NAMES[platform])
            if want != have:
                problems.append(
                    f"Package.swift: platforms declare {platform} "
                    f"{show(have) if have else 'nothing'}, the availability table "
                    f"{show(want) if want else 'nothing'}. To fix, make Package.swift and "
                    f"Scripts/availability.json agree.")

    checked = 0
    for module, platforms in sorted(table["modules"].items()):
        directory = os.path.join(root, module)
        if not os.path.isdir(directory):
            problems.append(f"{module}: listed in the availability table but not found")
            continue
        for folder, _, files in sorted(os.walk(directory)):
            for name in sorted(files):
                if not name.endswith(".swift"):
                    continue
                path = os.path.join(folder, name)
                display = os.path.relpath(path, root)
                problems.extend(check_file(path, display, platforms, table, targets))
                checked += 1

    for problem in problems:
        print(problem)
    if problems:
        print(f"check-availability: {len(problems)} problem(s) in {checked} files")
        return 1
    print(f"check-availability: {checked} files use no API newer than "
          + ", ".join(f"{p} {show(v)}" for p, v in targets.items()) + " unguarded")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
