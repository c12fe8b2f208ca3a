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
over two shards of those logs (a shard: a list of files and folders; a recordings folder given as
a folder, so that triage joins each session's rotated files).

Run it through `Scripts/analysis-check.py --make-fixtures [--bin DIR]`; then update the outputs
docs/analysis.md shows (`Scripts/analysis-check.py --print`).
"""
import glob
import os
import plistlib
import re
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


def binaries(root, bin_folder):
    """The folder of rewind-testbed: `bin_folder`, or the debug build's (built first)."""
    if bin_folder is None:
        subprocess.run(["swift", "build", "--product", "rewind-testbed"], cwd=root, check=True)
        bin_folder = subprocess.run(["swift", "build", "--show-bin-path"], cwd=root, check=True,
                                    capture_output=True, text=True).stdout.strip()
    return bin_folder


def make(root, bin_folder=None):
    """Records Fixtures/analysis/logs again, then its records."""
    testbed = os.path.join(binaries(root, bin_folder), "rewind-testbed")
    logs = os.path.join(root, "Fixtures", "analysis", "logs")
    shutil.rmtree(logs, ignore_errors=True)
    os.makedirs(logs)
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
    print(f"analysis-fixtures: wrote {os.path.relpath(logs, root)}")
    make_records(root, bin_folder)


def triage_shards(root, testbed, folder):
    """Runs `rewind-testbed replay triage --records` over the fixture logs' two shards (paths
    relative to `root`), writing folder/shard-1.jsonl and folder/shard-2.jsonl; returns the paths."""
    logs = os.path.join("Fixtures", "analysis", "logs")
    # A recordings folder is given as a folder: triage joins the rotated files of a session it
    # finds in a folder it searches (given one by one, each file would be a log of its own).
    shards = [
        sorted(glob.glob(os.path.join(root, logs, "*.jsonl")))
        + [os.path.join(root, logs, "phone-1.4.2")],
        [os.path.join(root, logs, "phone-1.5.0")],
    ]
    outputs = []
    for number, files in enumerate(shards, start=1):
        output = os.path.join(folder, f"shard-{number}.jsonl")
        arguments = [testbed, "replay", "triage", "--records", output]
        arguments += [os.path.relpath(file, root) for file in files]
        result = subprocess.run(arguments, cwd=root, capture_output=True, text=True)
        if result.returncode not in (0, 1):  # 1: it found crashes or unreadable logs
            sys.exit(f"analysis-fixtures: {' '.join(arguments)} exited with {result.returncode}: "
                     f"{result.stderr[-500:]}")
        outputs.append(output)
    return outputs


def make_records(root, bin_folder=None):
    """Writes Fixtures/analysis/records with rewind-testbed's replay (it knows the traps app)."""
    testbed = os.path.join(binaries(root, bin_folder), "rewind-testbed")
    records = os.path.join(root, "Fixtures", "analysis", "records")
    shutil.rmtree(records, ignore_errors=True)
    os.makedirs(records)
    triage_shards(root, testbed, records)
    print(f"analysis-fixtures: wrote {os.path.relpath(records, root)}")


def crc32c(data, table=[]):
    """CRC-32C (Castagnoli) of `data`, as docs/log-format.md defines the checksum `c`."""
    if not table:
        for byte in range(256):
            crc = byte
            for _ in range(8):
                crc = (crc >> 1) ^ (0x82F63B78 if crc & 1 else 0)
            table.append(crc)
    crc = 0xFFFFFFFF
    for byte in data:
        crc = table[(crc ^ byte) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def make_bench(root, folder, count, bin_folder=None):
    """A folder of `count` logs for the timing of the page's queries: a tenth recorded by real
    child processes — 60 % counter sessions of 1,000 actions closed, 20 % killed by their parent
    after about 1,000 actions, 20 % the todo example dying of its move bug — and each of those
    copied nine times under a new session id (the header's checksum computed again)."""
    import uuid
    if bin_folder is None:
        bin_folder = subprocess.run(["swift", "build", "--show-bin-path"], cwd=root, check=True,
                                    capture_output=True, text=True).stdout.strip()
    testbed = os.path.join(bin_folder, "rewind-testbed")
    os.makedirs(folder, exist_ok=True)
    originals = []
    for number in range(max(1, count // 10)):
        log = os.path.join(folder, f"log-{number:05d}-0.jsonl")
        kind = number % 10
        if kind < 6:
            run([testbed, "record", log, "process", "1000"])
        elif kind < 8:
            killed_after(testbed, log, 1000)
        else:
            run([testbed, "crash", log], expect_death=True)
        originals.append(log)
    for log in originals:
        lines = open(log, "rb").read().split(b"\n", 1)
        for copy in range(1, 10):
            session = str(uuid.uuid4()).encode()
            header = re.sub(rb'"session":"[^"]*"', b'"session":"' + session + b'"', lines[0])
            body = header[16:-1]
            header = b'{"c":"%08x",' % crc32c(body) + body + b"}"
            with open(log[:-len("-0.jsonl")] + f"-{copy}.jsonl", "wb") as out:
                out.write(header + b"\n" + lines[1])
    print(f"analysis-fixtures: wrote {len(originals) * 10} logs into {folder}")


if __name__ == "__main__":
    make(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
         sys.argv[1] if len(sys.argv) > 1 else None)
