#!/usr/bin/env python3
"""Reads wrk's output (with --latency) on stdin; prints "req/s p50 p90 p99 non-2xx cpu-us" (latencies in
ms; cpu-us is the server's CPU time per request in microseconds, when the server's CPU seconds spent
during the run are given as the first argument, else "-")."""
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
requests = int(re.search(r"(\d+) requests in", text).group(1))
cpu = f"{float(sys.argv[1]) / requests * 1e6:.0f}" if len(sys.argv) > 1 and requests else "-"
print(f"{rps:.0f} {ms('50'):.3f} {ms('90'):.3f} {ms('99'):.3f} {bad.group(1) if bad else 0} {cpu}")
