#!/usr/bin/env python3
"""Runs the `tessera` command once and checks how it ends: the exit code,
what its output (stdout and stderr together) must and must not say, how wide
its lines are, and files it must not leave behind (removed first). CTest runs one of these
per case (tests/cli/CMakeLists.txt); exit 77 means skipped.

  expect.py --rc 2 --match "unknown command 'foo'" [--no-match RE] [--max-columns N]
            [--absent PATH] [--env K=V] [--needs-no-gpu] -- tessera foo
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

SKIP = 77


def gpu_present():
    # Independent of tessera itself, so that `tessera device` can be tested.
    smi = shutil.which("nvidia-smi")
    return smi is not None and subprocess.run([smi, "-L"], capture_output=True).returncode == 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rc", type=int, required=True)
    ap.add_argument("--match", action="append", default=[])
    ap.add_argument("--no-match", action="append", default=[])
    ap.add_argument("--max-columns", type=int)
    ap.add_argument("--absent", action="append", default=[])
    ap.add_argument("--env", action="append", default=[])
    ap.add_argument("--needs-no-gpu", action="store_true")
    ap.add_argument("command", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    command = a.command[1:] if a.command[:1] == ["--"] else a.command
    if a.needs_no_gpu and gpu_present():
        print("skipped: this case is about a machine without a GPU")
        return SKIP
    for path in a.absent:  # a file an earlier run left must not pass for this one's
        if os.path.exists(path):
            os.remove(path)
    env = dict(os.environ)
    env.pop("COLUMNS", None)
    env.update(kv.split("=", 1) for kv in a.env)
    done = subprocess.run(command, capture_output=True, text=True, env=env, stdin=subprocess.DEVNULL)
    out = done.stdout + done.stderr
    problems = []
    if done.returncode != a.rc:
        problems.append(f"exit code {done.returncode}, expected {a.rc}")
    problems += [f"output lacks /{m}/" for m in a.match if not re.search(m, out)]
    problems += [f"output has /{m}/" for m in a.no_match if re.search(m, out)]
    if a.max_columns is not None:
        wide = [line for line in out.splitlines() if len(line) > a.max_columns]
        if wide:
            problems.append(f"{len(wide)} lines wider than {a.max_columns} columns, e.g. {wide[0]!r}")
    problems += [f"{p} was left behind" for p in a.absent if os.path.exists(p)]
    if problems:
        print("$ " + " ".join(command))
        print(out)
        print("FAILED: " + "; ".join(problems))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
