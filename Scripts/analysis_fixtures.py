#!/usr/bin/env python3
"""Re-creates Fixtures/analysis: the folder of logs docs/analysis.md queries, and its triage records.

Every log is written by the package's own binaries — crashes by child processes that really die:

  logs/todo-crash.jsonl         rewind-testbed crash: the todo example's move bug kills it
  logs/counter-clean.jsonl      rewind-testbed record … process 120: closed cleanly
  logs/counter-killed.jsonl     rewind-testbed record … process 100000, SIGKILL after action 50
  logs/counter-torn.jsonl       rewind-testbed record … process 60, its last line then cut in half
                                (what a crash mid-write leaves, as Fixtures/todo-torn.jsonl)
  logs/phone-1.4.2/             recordings folders (rotating every 2 KiB, fatal signals recorded)
  logs/phone-1.5.0/               of rewind-testbed installed as builds 1.4.2 (87) and 1.5.0 (90)
                                  (an Info.plist beside the binary: Bundle.main's version, as an
                                  app's); sessions that die of the move bug, are killed, or close
  logs/traps-*.jsonl            rewind-testbed signal … trap|segv|abort (build 1.5.0): three other
                                  deaths of the traps app, with their signal records
  logs/not-a-log.jsonl          JSON lines that are not a Rewind log (hand-written, as found
  logs/empty.jsonl                beside logs in the wild) and an empty file

records/shard-1.jsonl and records/shard-2.jsonl are `rewind-testbed replay triage --records`
over two shards of those files (a shard: a list of files, a session's rotated files together).

Run it through `Scripts/analysis-check.py --make-fixtures [--bin DIR]`; then update the outputs
docs/analysis.md shows (`Scripts/analysis-check.py --print`).
"""
import glob
import os
import plistlib
import shutil
import signal
import subprocess
import sys
import tempfile

BUILDS = {"1.4.2": "87", "1.5.0": "90"}


def run(arguments, expect_death=False, **keywords):
    result = subprocess.run(arguments, capture_output=True, text=True, **keywords)
    died = result.returncode < 0
    if died != expect_death or (not died and result.returncode != 0):
        sys.exit(f"analysis-fixtures: {' '.join(arguments)} "
                 f"{'exited with ' + str(result.returncode) if not died else 'died'}: {result.stderr[-500:]}")
    return result


def installed(testbed, version, scratch):
    """A copy of rewind-testbed with an Info.plist beside it: Bundle.main says build `version`."""
    folder = os.path.join(scratch, "build-" + version)
    os.makedirs(folder, exist_ok=True)
    copy = os.path.join(folder, "rewind-testbed")
    shutil.copy2(testbed, copy)
    with open(os.path.join(folder, "Info.plist"), "wb") as out:
        plistlib.dump({"CFBundleShortVersionString": version, "CFBundleVersion": BUILDS[version]}, out)
    return copy


def killed_after(testbed, log, acknowledged):
    """Records counter actions until the child has acknowledged `acknowledged`, then kills it."""
    child = subprocess.Popen([testbed, "record", log, "process", "100000"],
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    for line in child.stdout:
        if line.strip() == str(acknowledged):
            child.send_signal(signal.SIGKILL)
            break
    child.wait()
    if child.returncode != -signal.SIGKILL:
        sys.exit(f"analysis-fixtures: the recording child was not killed ({child.returncode})")


def torn(log):
    """Cuts the last line of `log` in half, without its newline."""
    data = open(log, "rb").read().rstrip(b"\n").split(b"\n")
    last = data.pop()
    with open(log, "wb") as out:
        out.write(b"\n".join(data) + b"\n" + last[: len(last) // 2])


def make(root, bin_folder=None):
    if bin_folder is None:
        subprocess.run(["swift", "build", "--product", "rewind-testbed"], cwd=root, check=True)
        bin_folder = subprocess.run(["swift", "build", "--show-bin-path"], cwd=root, check=True,
                                    capture_output=True, text=True).stdout.strip()
    testbed = os.path.join(bin_folder, "rewind-testbed")
    base = os.path.join(root, "Fixtures", "analysis")
    logs, records = os.path.join(base, "logs"), os.path.join(base, "records")
    shutil.rmtree(base, ignore_errors=True)
    os.makedirs(logs)
    os.makedirs(records)
    with tempfile.TemporaryDirectory() as scratch:
        run([testbed, "crash", os.path.join(logs, "todo-crash.jsonl")], expect_death=True)
        run([testbed, "record", os.path.join(logs, "counter-clean.jsonl"), "process", "120"])
        killed_after(testbed, os.path.join(logs, "counter-killed.jsonl"), 50)
        run([testbed, "record", os.path.join(logs, "counter-torn.jsonl"), "process", "60"])
        torn(os.path.join(logs, "counter-torn.jsonl"))
        old = installed(testbed, "1.4.2", scratch)
        new = installed(testbed, "1.5.0", scratch)
        phone = os.path.join(logs, "phone-1.4.2")
        for count, how in [(40, "trap"), (41, "trap"), (25, "kill"), (30, "close"), (44, "trap")]:
            run([old, "folder", phone, str(count), how], expect_death=how != "close")
        phone = os.path.join(logs, "phone-1.5.0")
        for count, how in [(40, "trap"), (30, "close"), (35, "close")]:
            run([new, "folder", phone, str(count), how], expect_death=how != "close")
        for how in ["trap", "segv", "abort"]:
            run([new, "signal", os.path.join(logs, f"traps-{how}.jsonl"), how], expect_death=True)
    with open(os.path.join(logs, "not-a-log.jsonl"), "w") as out:
        out.write('{"event":"login","user":"ana"}\n{"event":"logout","user":"ana"}\n')
    open(os.path.join(logs, "empty.jsonl"), "w").close()
    relative = os.path.relpath(logs, root)
    shards = [
        sorted(glob.glob(os.path.join(relative, "*.jsonl")))
        + sorted(glob.glob(os.path.join(relative, "phone-1.4.2", "*.jsonl"))),
        sorted(glob.glob(os.path.join(relative, "phone-1.5.0", "*.jsonl"))),
    ]
    for number, files in enumerate(shards, start=1):
        output = os.path.join(os.path.relpath(records, root), f"shard-{number}.jsonl")
        run([testbed, "replay", "triage", "--records", output] + files, cwd=root)
    print(f"analysis-fixtures: wrote {relative} and its records")


if __name__ == "__main__":
    make(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
         sys.argv[1] if len(sys.argv) > 1 else None)
