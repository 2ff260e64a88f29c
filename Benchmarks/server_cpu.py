"""The server's share of a series of requests: its CPU time (utime + stime from /proc/PID/stat) around
the series, so the client's own work is not counted, and the median wall time per request."""
import os
import statistics
import time


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def measure(pid, items, one):
    """Runs `one(item)` for each item; returns (server CPU ms per call, median wall ms, results)."""
    walls, results = [], []
    before = cpu_seconds(pid)
    for item in items:
        start = time.perf_counter()
        results.append(one(item))
        walls.append(time.perf_counter() - start)
    return (cpu_seconds(pid) - before) / len(items) * 1000, statistics.median(walls) * 1000, results
