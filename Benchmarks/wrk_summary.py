#!/usr/bin/env python3
"""Reads wrk's output (with --latency) on stdin; prints "req/s p50 p90 p99 non-2xx" (latencies in ms)."""
import re
import sys

text = sys.stdin.read()


def ms(label):
    m = re.search(r"^\s*%s%%\s+([\d.]+)(us|ms|s)\s*$" % label, text, re.M)
    if not m:
        return float("nan")
    v = float(m.group(1))
    return v / 1000 if m.group(2) == "us" else v * 1000 if m.group(2) == "s" else v


rps = float(re.search(r"Requests/sec:\s+([\d.]+)", text).group(1))
bad = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", text)
print(f"{rps:.0f} {ms('50'):.3f} {ms('90'):.3f} {ms('99'):.3f} {bad.group(1) if bad else 0}")
