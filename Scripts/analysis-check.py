#!/usr/bin/env python3
"""Runs every query of docs/analysis.md and checks that it prints what the page shows.

The queries and their outputs are read from the page itself, so the page cannot drift:

  ```sql            a statement or query both engines run
  ```sql duckdb     one only DuckDB runs       (the two tagged blocks of one step stand
  ```sql spark      one only Spark runs         next to each other: a dialect's variant)
  ```text           right after a query: the rows it prints (Scripts/analysis-check.py's table)

A query's rows are printed as a plain table (the header, a rule, one line a row; NULL for a null),
the same for both engines, and compared with the page's text block.

Usage:
  Scripts/analysis-check.py                      DuckDB over Fixtures/analysis (the default)
  Scripts/analysis-check.py --engine spark       the same queries with pyspark in local mode
  Scripts/analysis-check.py --engine both        both, and each query's rows compared
  Scripts/analysis-check.py --logs DIR [--records FILE] --time
                                                 the queries over another folder (a benchmark:
                                                 the time of each, outputs printed, not compared)
  Scripts/analysis-check.py --update-doc         write DuckDB's outputs into the page's text blocks
                                                 (after re-creating the fixtures)
  Scripts/analysis-check.py --make-bench-logs DIR [--count N] [--bin DIR]
                                                 a folder of N logs (10,000) to time the queries on
  Scripts/analysis-check.py --make-fixtures [--bin DIR]
                                                 re-create Fixtures/analysis with the package's
                                                 own binaries (Scripts/analysis_fixtures.py)

Installs duckdb (and pyspark) with pip when missing, and for Spark a headless JRE with apt-get
when java is missing and CI=true. When an engine cannot be had, prints "SKIPPED: …" and exits 0 —
except when CI=true, where that is a failure. Exits 1 when a query fails or prints other rows.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOC = os.path.join(ROOT, "docs", "analysis.md")
FIXTURE_LOGS = "Fixtures/analysis/logs"
FIXTURE_RECORDS = "Fixtures/analysis/records"
IN_CI = os.environ.get("CI") == "true"


class Step:
    """One step of the page: a statement or query per engine, and the output shown (or None)."""

    def __init__(self, line, sql, expected, expected_lines):
        self.line = line  # the page's line of the step's first block
        self.sql = sql  # engine -> text
        self.expected = expected  # the text block's body, or None
        self.expected_lines = expected_lines  # its body's first line and the closing fence's (0-based)


def read_steps(path):
    """The page's steps, in order (see the module's doc comment for the blocks)."""
    blocks = []  # (info, body, line)
    lines = open(path, encoding="utf-8").read().split("\n")
    index = 0
    while index < len(lines):
        line = lines[index]
        if line.startswith("```") and len(line) > 3:
            info, start, body = line[3:].strip(), index + 1, []
            index += 1
            while index < len(lines) and lines[index] != "```":
                body.append(lines[index])
                index += 1
            blocks.append((info, "\n".join(body) + "\n" if body else "", start, index))
        index += 1
    steps, position = [], 0
    while position < len(blocks):
        info, body, line, _ = blocks[position]
        words = info.split()
        if not words or words[0] != "sql":
            position += 1
            continue
        # An untagged block is a step of its own; a tagged one pairs with the next block when
        # that one is tagged for the other engine.
        sql = {}
        while position < len(blocks) and blocks[position][0].split()[:1] == ["sql"]:
            tags = blocks[position][0].split()[1:]
            for engine in tags:
                if engine not in ("duckdb", "spark"):
                    sys.exit(f"{path}:{blocks[position][2]}: unknown engine tag {engine!r} (duckdb or spark)")
            if sql and (not tags or any(engine in sql for engine in tags)):
                break
            for engine in tags or ["duckdb", "spark"]:
                sql[engine] = blocks[position][1]
            position += 1
            if not tags:
                break
        expected, expected_lines = None, None
        if position < len(blocks) and blocks[position][0] == "text":
            expected, expected_lines = blocks[position][1], blocks[position][2:4]
            position += 1
        steps.append(Step(line, sql, expected, expected_lines))
    return steps


def statements(text):
    """The statements of a block: split after each `;` that ends a line; `--` comments dropped."""
    kept = [line for line in text.split("\n") if not line.strip().startswith("--")]
    parts = re.split(r";[ \t]*\n", "\n".join(kept) + "\n")
    return [part.strip().rstrip(";").strip() for part in parts if part.strip()]


def cell(value):
    """A value as the table shows it: NULL, integers as digits, floats as Python prints them."""
    if value is None:
        return "NULL"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(value)
    if type(value).__name__ == "Decimal":
        return format(value, "f")
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(cell(item) for item in value) + "]"
    return str(value)


def table(columns, rows):
    """The rows as a plain table: columns two spaces apart, a rule under the header."""
    texts = [[cell(value) for value in row] for row in rows]
    widths = [len(name) for name in columns]
    for row in texts:
        widths = [max(width, len(text)) for width, text in zip(widths, row)]

    def line(values):
        return "  ".join(text.ljust(width) for text, width in zip(values, widths)).rstrip()

    out = [line(columns), line(["-" * width for width in widths])]
    out += [line(row) for row in texts]
    return "\n".join(out) + "\n"


def localized(sql, logs, records):
    """The statement with the fixture folders replaced by the ones asked for."""
    if logs:
        sql = sql.replace(FIXTURE_LOGS, logs.rstrip("/"))
    if records:
        sql = sql.replace(FIXTURE_RECORDS, records.rstrip("/"))
    return sql


def skip_or_fail(message):
    if IN_CI:
        print(f"analysis-check: {message} (required when CI=true)", file=sys.stderr)
        sys.exit(1)
    print(f"SKIPPED: analysis-check: {message}")
    sys.exit(0)


def pip_install(module, package):
    try:
        __import__(module)
        return
    except ImportError:
        pass
    print(f"== installing {package} (pip)")
    result = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", package],
        capture_output=True, text=True)
    try:
        __import__(module)
    except ImportError:
        skip_or_fail(f"{package} is not installed and pip could not install it: "
                     f"{(result.stderr or result.stdout).strip()[-300:]}")


def java_major():
    """The major version of the java on PATH (or JAVA_HOME), or None."""
    java = shutil.which("java")
    if os.environ.get("JAVA_HOME"):
        java = os.path.join(os.environ["JAVA_HOME"], "bin", "java")
    if not java or not os.path.exists(java):
        return None
    result = subprocess.run([java, "-version"], capture_output=True, text=True)
    match = re.search(r'version "(\d+)(?:\.(\d+))?', result.stderr)
    if not match:
        return None
    major = int(match.group(1))
    return int(match.group(2) or 0) if major == 1 else major


def ensure_java():
    if (java_major() or 0) >= 17:
        return
    if IN_CI and os.geteuid() == 0 and shutil.which("apt-get"):
        print("== installing a headless JRE (apt-get install default-jre-headless)")
        log = "/tmp/rewind-analysis-apt.log"
        with open(log, "w") as out:
            subprocess.run(["apt-get", "update", "-qq"], stdout=out, stderr=out)
            subprocess.run(["apt-get", "install", "-y", "-qq", "default-jre-headless"],
                           stdout=out, stderr=out,
                           env=dict(os.environ, DEBIAN_FRONTEND="noninteractive"))
    major = java_major()
    if (major or 0) < 17:
        skip_or_fail(f"Spark needs Java 17 or later; found {major or 'none'} "
                     "(try: apt-get install default-jre-headless)")


class DuckDB:
    name = "duckdb"

    def __init__(self):
        pip_install("duckdb", "duckdb")
        import duckdb
        self.version = duckdb.__version__
        self.connection = duckdb.connect()

    def run(self, sql):
        result = self.connection.execute(sql)
        if result.description is None:
            return None
        return [column[0] for column in result.description], result.fetchall()


class Spark:
    name = "spark"

    def __init__(self):
        pip_install("pyspark", "pyspark")
        ensure_java()
        from pyspark.sql import SparkSession
        import pyspark
        self.version = pyspark.__version__
        self.session = (
            SparkSession.builder.master("local[*]").appName("rewind-analysis-check")
            .config("spark.ui.enabled", "false")
            .config("spark.ui.showConsoleProgress", "false")
            .config("spark.sql.session.timeZone", "UTC")
            .config("spark.sql.shuffle.partitions", "4")
            .getOrCreate())
        self.session.sparkContext.setLogLevel("ERROR")

    def run(self, sql):
        frame = self.session.sql(sql)
        if not frame.columns or re.match(r"(?is)\s*(create|drop|set)\b", sql):
            return None
        return frame.columns, [tuple(row) for row in frame.collect()]


def run_engine(engine, steps, options):
    """Runs every step on `engine`; returns (failures, outputs by step, seconds by step)."""
    failures, outputs, seconds = [], {}, {}
    for number, step in enumerate(steps):
        sql = step.sql.get(engine.name)
        if sql is None:
            continue
        text = localized(sql, options.logs, options.records)
        if getattr(options, "load", False) and engine.name == "duckdb":
            text = text.replace("CREATE VIEW log_lines AS", "CREATE TABLE log_lines AS")
        started = time.perf_counter()
        result = None
        try:
            for statement in statements(text):
                result = engine.run(statement)
        except Exception as error:  # an engine's error, reported with the page's line
            failures.append(f"docs/analysis.md:{step.line}: {engine.name} failed: {error}")
            continue
        seconds[number] = time.perf_counter() - started
        if step.expected is None:
            continue
        if result is None:
            failures.append(f"docs/analysis.md:{step.line}: {engine.name}: the query returned no rows "
                            "to compare with the page")
            continue
        printed = table(*result)
        outputs[number] = (printed, result[1])
        if options.compare and printed != step.expected:
            failures.append(
                f"docs/analysis.md:{step.line}: {engine.name} prints other rows than the page shows\n"
                f"--- the page\n{step.expected}--- {engine.name}\n{printed}"
                "(fix the query, or the page's text block after re-creating the fixtures)")
    return failures, outputs, seconds


def records_are_current(bin_folder):
    """Triages the fixture logs again with the built rewind-testbed, when there is one, and
    compares its records with Fixtures/analysis/records: the page's records are what triage
    writes today. Returns the failures."""
    sys.path.insert(0, os.path.join(ROOT, "Scripts"))
    import analysis_fixtures
    import tempfile
    if bin_folder is None:
        found = subprocess.run(["swift", "build", "--show-bin-path"], cwd=ROOT,
                               capture_output=True, text=True)
        bin_folder = found.stdout.strip()
    testbed = os.path.join(bin_folder, "rewind-testbed")
    if not bin_folder or not os.path.exists(testbed):
        print("analysis-check: records not compared with replay triage: no rewind-testbed built "
              "(swift build --product rewind-testbed)")
        return []
    with tempfile.TemporaryDirectory() as scratch:
        try:
            fresh = analysis_fixtures.triage_shards(ROOT, testbed, scratch)
        except SystemExit as error:
            return [f"replay triage over Fixtures/analysis/logs failed: {error}"]
        failures = []
        for path in fresh:
            committed = os.path.join(ROOT, FIXTURE_RECORDS, os.path.basename(path))
            old = open(committed, encoding="utf-8").read() if os.path.exists(committed) else ""
            new = open(path, encoding="utf-8").read()
            if old != new:
                failures.append(
                    f"{FIXTURE_RECORDS}/{os.path.basename(path)} is not what `replay triage --records` "
                    f"writes today:\n--- committed\n{old}--- today\n{new}"
                    "(write them again with Scripts/analysis-check.py --make-records, then "
                    "--update-doc, and check the page's prose)")
        if not failures:
            print(f"analysis-check: {FIXTURE_RECORDS} is what replay triage --records writes today")
        return failures


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--engine", choices=["duckdb", "spark", "both"], default="duckdb")
    parser.add_argument("--logs", help=f"a folder of logs instead of {FIXTURE_LOGS}")
    parser.add_argument("--records", help=f"a folder of triage records instead of {FIXTURE_RECORDS}")
    parser.add_argument("--time", action="store_true", help="print the time of each query")
    parser.add_argument("--load", action="store_true",
                        help="DuckDB: load the files into a table once (CREATE TABLE log_lines) "
                             "instead of a view each query reads them through")
    parser.add_argument("--print", action="store_true", help="print each query's output")
    parser.add_argument("--update-doc", action="store_true",
                        help="write DuckDB's outputs into the page's text blocks")
    parser.add_argument("--make-records", action="store_true",
                        help="write Fixtures/analysis/records again with rewind-testbed's replay triage")
    parser.add_argument("--make-fixtures", action="store_true",
                        help="re-create Fixtures/analysis with the package's binaries")
    parser.add_argument("--make-bench-logs", metavar="DIR",
                        help="write a folder of --count logs for timing the queries (--logs DIR/ --time)")
    parser.add_argument("--count", type=int, default=10000)
    parser.add_argument("--bin", help="the folder of rewind-testbed and replay (default: swift build's)")
    options = parser.parse_args()
    os.chdir(ROOT)
    if options.make_bench_logs:
        sys.path.insert(0, os.path.join(ROOT, "Scripts"))
        import analysis_fixtures
        analysis_fixtures.make_bench(ROOT, options.make_bench_logs, options.count, options.bin)
        return 0
    if options.make_records:
        sys.path.insert(0, os.path.join(ROOT, "Scripts"))
        import analysis_fixtures
        analysis_fixtures.make_records(ROOT, options.bin)
        return 0
    if options.make_fixtures:
        sys.path.insert(0, os.path.join(ROOT, "Scripts"))
        import analysis_fixtures
        analysis_fixtures.make(ROOT, options.bin)
        return 0
    options.compare = not (options.logs or options.records)
    steps = read_steps(DOC)
    queries = sum(1 for step in steps if step.expected is not None)
    if queries == 0:
        print("analysis-check: docs/analysis.md shows no query", file=sys.stderr)
        return 1
    if options.update_doc:
        options.compare = False
        _, outputs, _ = run_engine(DuckDB(), steps, options)
        lines = open(DOC, encoding="utf-8").read().split("\n")
        for number in sorted(outputs, reverse=True):
            first, fence = steps[number].expected_lines
            lines[first:fence] = outputs[number][0].rstrip("\n").split("\n")
        open(DOC, "w", encoding="utf-8").write("\n".join(lines))
        print(f"analysis-check: wrote {len(outputs)} outputs into docs/analysis.md")
        return 0
    engines = {"duckdb": [DuckDB], "spark": [Spark], "both": [DuckDB, Spark]}[options.engine]
    failures, results = [], {}
    for make in engines:
        started = time.perf_counter()
        engine = make()
        ready = time.perf_counter() - started
        engine_failures, outputs, seconds = run_engine(engine, steps, options)
        failures += engine_failures
        results[engine.name] = outputs
        total = sum(seconds.values())
        for number, step in enumerate(steps):
            if options.print and number in outputs:
                print(f"-- docs/analysis.md:{step.line} ({engine.name})\n{outputs[number][0]}")
            if options.time and number in seconds:
                print(f"{engine.name}  docs/analysis.md:{step.line}  {seconds[number]:.3f} s")
        verdict = "the outputs are the page's" if options.compare else "outputs not compared"
        if engine_failures:
            verdict = f"{len(engine_failures)} failed"
        print(f"analysis-check: {engine.name} {engine.version}: {queries} queries, {verdict} "
              f"({total:.2f} s of queries, {ready:.1f} s to start)")
    if len(results) == 2:
        for number, step in enumerate(steps):
            duck, spark = results["duckdb"].get(number), results["spark"].get(number)
            if duck and spark and duck[1] != spark[1]:
                failures.append(f"docs/analysis.md:{step.line}: DuckDB and Spark give other rows\n"
                                f"--- duckdb\n{duck[0]}--- spark\n{spark[0]}")
    if options.compare:
        failures += records_are_current(options.bin)
    for failure in failures:
        print("FAIL " + failure, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
