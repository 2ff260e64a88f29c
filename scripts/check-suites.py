#!/usr/bin/env python3
"""Checks that every test suite declared in a package's tests ran and passed.

Reads every `@Suite("name", …)` under the test directories given and requires the line
`Suite "name" passed` in the swift test log: a suite that failed, did not run, or was skipped (a
`GATEHOUSE_SKIP_TAGS` tag, a missing tool) is named. A suite added to the code is required the moment it
exists: there is no list to forget. A suite without a display name is an error (the log names it by
its display name only).

    check-suites.py LOG TESTDIR [TESTDIR …]
"""
import pathlib
import re
import sys

SUITE = re.compile(r'@Suite(\s*\(\s*"((?:[^"\\]|\\.)*)")?')


def declared(directories):
    names, unnamed = [], []
    for directory in directories:
        for path in sorted(pathlib.Path(directory).rglob("*.swift")):
            text = path.read_text(encoding="utf-8")
            for match in re.finditer(r"^\s*@Suite\b", text, re.M):
                named = SUITE.match(text, match.end() - len("@Suite"))
                if named and named.group(2) is not None:
                    names.append(named.group(2).encode().decode("unicode_escape"))
                else:
                    unnamed.append(f"{path}:{text.count(chr(10), 0, match.start()) + 1}")
    return names, unnamed


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    log = pathlib.Path(sys.argv[1]).read_text(encoding="utf-8", errors="replace")
    names, unnamed = declared(sys.argv[2:])
    problems = [f"{where}: @Suite without a display name (give it one: the log and this check use it)" for where in unnamed]
    if len(set(names)) != len(names):
        problems += [f'two suites are named "{name}"' for name in sorted({n for n in names if names.count(n) > 1})]
    for name in names:
        if f'Suite "{name}" passed' in log:
            continue
        # A suite turned off by a condition (a GATEHOUSE_SKIP_TAGS tag, a missing tool) says so in the log.
        skipped = re.search(rf'Suite "{re.escape(name)}" skipped', log)
        problems.append(f'Suite "{name}" was skipped' if skipped else f'Suite "{name}" did not run and pass')
    for problem in problems:
        print(problem)
    if problems:
        sys.exit(1)
    print(f"{len(names)} suites declared in {', '.join(sys.argv[2:])}: every one ran and passed.")


if __name__ == "__main__":
    main()
