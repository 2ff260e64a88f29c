#!/usr/bin/env python3
"""Checks the house rules that a compiler does not: file sizes, no documents or assets inside Swift
files, and documentation of the public surface of the core and the SDK.

    python3 scripts/check-house-style.py            # prints a report, exits 1 on a violation
    python3 scripts/check-house-style.py --verbose  # also lists every undocumented declaration

Rules (see ARCHITECTURE.md, "House style"):
  * no source file over 400 lines (Sources, Tests, Benchmarks, Clients);
  * no Swift file holding a document or an asset (a multi-line string literal over 40 lines, or a
    run of 200+ base64 characters);
  * at least 90% of the public declarations (`public`, `open` and `package`) of GatehouseCore and the
    GatehouseClient SDK carry a `///` comment, and a documented function or initialiser names its parameters
    (`- Parameter(s):`), what it returns (`- Returns:`) and what it throws (`- Throws:`).
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MAX_LINES = 400
MIN_DOC_COVERAGE = 0.90
SOURCE_DIRS = ["Sources", "Tests", "Benchmarks", "Clients/GatehouseClient/Sources", "Clients/GatehouseClient/Tests"]
DOCUMENTED_MODULES = ["Sources/GatehouseCore", "Clients/GatehouseClient/Sources/Gatehouse"]

DECL = re.compile(
    r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:nonisolated|final|override|static|class|mutating|convenience|required|indirect)\s+)*"
    r"(public|open|package)\s+(?:(?:nonisolated|final|override|static|class|mutating|convenience|required|indirect)\s+)*"
    r"(func|init|var|let|struct|enum|class|protocol|typealias|actor|subscript|extension)\b"
)
BASE64_RUN = re.compile(r"[A-Za-z0-9+/=]{200,}")


def swift_files(directory):
    base = os.path.join(ROOT, directory)
    for dirpath, dirnames, filenames in os.walk(base):
        dirnames[:] = [d for d in dirnames if not d.startswith(".")]
        for name in filenames:
            if name.endswith((".swift", ".py", ".sh", ".lua")):
                yield os.path.join(dirpath, name)


def check_sizes_and_assets():
    problems = []
    for directory in SOURCE_DIRS:
        for path in swift_files(directory):
            with open(path, encoding="utf-8") as handle:
                lines = handle.read().split("\n")
            rel = os.path.relpath(path, ROOT)
            count = len(lines) - (1 if lines and lines[-1] == "" else 0)
            if count > MAX_LINES:
                problems.append(f"{rel}: {count} lines (the limit is {MAX_LINES})")
            if not path.endswith(".swift"):
                continue
            start = None
            for number, line in enumerate(lines, 1):
                if line.count('"""') % 2 == 1:
                    if start is None:
                        start = number
                    else:
                        if number - start > 40:
                            problems.append(f"{rel}:{start}: a {number - start}-line string literal (keep documents and assets in resource files)")
                        start = None
                if BASE64_RUN.search(line):
                    problems.append(f"{rel}:{number}: a long base64 run (keep assets in resource files)")
    return problems


def signature(lines, index):
    """The declaration from `index` up to its body or the end of its signature."""
    text = ""
    for line in lines[index:index + 12]:
        text += " " + line.strip()
        if "{" in line or (text.count("(") == text.count(")") and not line.rstrip().endswith((",", "(", "->"))):
            break
    return text.split("{")[0]


def doc_block(lines, index):
    """The `///` lines above the declaration at `index`, skipping attributes."""
    block = []
    i = index - 1
    while i >= 0 and lines[i].strip().startswith("@") and not lines[i].strip().startswith("///"):
        i -= 1
    while i >= 0 and lines[i].strip().startswith("///"):
        block.insert(0, lines[i].strip())
        i -= 1
    return block


def after_parameters(sig):
    """What follows the parameter list at depth 0 (effects and return type), not closure types inside it."""
    start = sig.find("(")
    if start < 0:
        return sig
    depth = 0
    for end in range(start, len(sig)):
        if sig[end] == "(":
            depth += 1
        elif sig[end] == ")":
            depth -= 1
            if depth == 0:
                return sig[end + 1:]
    return ""


def parameters(sig):
    """Parameter names of a func/init/subscript signature (external label `_` counts as a parameter)."""
    start = sig.find("(")
    if start < 0:
        return []
    depth, end = 0, start
    for end in range(start, len(sig)):
        if sig[end] == "(":
            depth += 1
        elif sig[end] == ")":
            depth -= 1
            if depth == 0:
                break
    inner = sig[start + 1:end]
    params, depth, current = [], 0, ""
    for char in inner:
        if char in "([<":
            depth += 1
        elif char in ")]>":
            depth -= 1
        if char == "," and depth == 0:
            params.append(current)
            current = ""
        else:
            current += char
    if current.strip():
        params.append(current)
    return [p for p in params if ":" in p]


def check_docs(verbose):
    problems, report = [], []
    for module in DOCUMENTED_MODULES:
        if not os.path.isdir(os.path.join(ROOT, module)):
            problems.append(f"{module}: documented module not found (renamed? update DOCUMENTED_MODULES)")
            continue
        total = documented = 0
        missing = []
        for path in swift_files(module):
            if not path.endswith(".swift"):
                continue
            with open(path, encoding="utf-8") as handle:
                lines = handle.read().split("\n")
            for index, line in enumerate(lines):
                match = DECL.match(line)
                if not match or match.group(2) == "extension":
                    continue
                total += 1
                block = doc_block(lines, index)
                sig = signature(lines, index)
                ok = bool(block)
                reasons = [] if block else ["no ///"]
                if ok and match.group(2) in ("func", "init", "subscript"):
                    text = "\n".join(block)
                    head = sig.split("->")[0]
                    if parameters(head) and "- Parameter" not in text:
                        reasons.append("no - Parameter(s)")
                    tail = after_parameters(sig)
                    if re.match(r"\s*(?:async\s+)?(?:throws|rethrows)\b", tail) and "- Throws" not in text:
                        reasons.append("no - Throws")
                    returns = tail.split("->", 1)[1].strip() if "->" in tail else ""
                    if returns and returns not in ("Void", "()") and "- Returns" not in text and match.group(2) != "init":
                        reasons.append("no - Returns")
                    ok = not reasons
                if ok:
                    documented += 1
                else:
                    missing.append(f"{os.path.relpath(path, ROOT)}:{index + 1}: {line.strip()[:90]}  ({', '.join(reasons)})")
        coverage = documented / total if total else 1.0
        report.append(f"{module}: {documented}/{total} public declarations documented ({coverage:.0%})")
        if verbose:
            report.extend("  " + m for m in missing)
        if coverage < MIN_DOC_COVERAGE:
            problems.append(f"{module}: {coverage:.0%} of public declarations documented (at least {MIN_DOC_COVERAGE:.0%} required)")
    return problems, report


def main():
    verbose = "--verbose" in sys.argv
    problems = check_sizes_and_assets()
    doc_problems, report = check_docs(verbose)
    problems += doc_problems
    print("\n".join(report))
    if problems:
        print("\nHouse-style violations:")
        print("\n".join("  " + p for p in problems))
        return 1
    print("House style: files within limits, no embedded documents, public API documented.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
