#!/usr/bin/env python3
"""Does forgot-password (or resend) take longer for a registered address than for an unknown one?

Signs up COUNT accounts, then sends COUNT interleaved pairs of POST /auth/password/forgot (or
/auth/resend-code): one for a registered address, one for an unknown address, each address used
once (so the per-address cool-down never answers instead). Each request comes from its own
X-Forwarded-For address, so the server must trust 127.0.0.1 as a proxy (GATEHOUSE_TRUSTED_PROXIES).
Prints the median and quartiles of both, in milliseconds, whether the quartile ranges overlap, and
a two-sided Mann-Whitney U test's p-value (a p far below 0.01 means the two are told apart).

Each request is followed by a pause (GAP seconds, default 0.1): the server delivers a queued mail
shortly after answering, and without the pause that work would land on the next request measured
instead of the one that caused it.

    enumeration_timing.py http://127.0.0.1:18555 [COUNT] [forgot|resend]
"""
import math
import os
import http.client
import json
import statistics
import sys
import time
import urllib.parse

base = urllib.parse.urlparse(sys.argv[1])
count = int(sys.argv[2]) if len(sys.argv) > 2 else 100
kind = sys.argv[3] if len(sys.argv) > 3 else "forgot"
path = "/auth/password/forgot" if kind == "forgot" else "/auth/resend-code"
run = str(int(time.time()))
gap = float(os.environ.get("GAP", "0.1"))
connection = http.client.HTTPConnection(base.hostname, base.port, timeout=60)


def post(path, body, client):
    payload = json.dumps(body)
    headers = {"Content-Type": "application/json", "X-Forwarded-For": client}
    start = time.perf_counter()
    connection.request("POST", path, payload, headers)
    response = connection.getresponse()
    response.read()
    return response.status, (time.perf_counter() - start) * 1000


def client_address(index):
    return f"10.{(index >> 16) & 255}.{(index >> 8) & 255}.{index & 255}"


signups = []
for index in range(count):
    status, ms = post("/auth/signup", {"email": f"known-{run}-{index}@example.com", "password": "timing pass 123"}, client_address(index))
    if status != 201:
        sys.exit(f"sign-up {index} answered {status}")
    signups.append(ms)

# The sign-up mail used each address's one-a-minute allowance (the benchmark server runs with
# GATEHOUSE_MAIL_COOLDOWN=1): let it pass.
time.sleep(1.2)

known, unknown = [], []
for index in range(count):
    # Alternate which goes first, so neither side always follows the other.
    pair = [("known", f"known-{run}-{index}@example.com"), ("unknown", f"nobody-{run}-{index}@example.com")]
    if index % 2:
        pair.reverse()
    for label, email in pair:
        status, ms = post(path, {"email": email}, client_address(100_000 + 2 * index + (label == "unknown")))
        if status != 200:
            sys.exit(f"{path} for a {label} address answered {status}")
        (known if label == "known" else unknown).append(ms)
        time.sleep(gap)


def summary(values):
    q1, median, q3 = statistics.quantiles(values, n=4)
    return q1, median, q3


def mann_whitney_p(a, b):
    """Two-sided p-value of the Mann-Whitney U test, normal approximation with tie correction."""
    ranked = sorted([(v, 0) for v in a] + [(v, 1) for v in b])
    ranks = [0.0] * len(ranked)
    i, ties = 0, 0.0
    while i < len(ranked):
        j = i
        while j + 1 < len(ranked) and ranked[j + 1][0] == ranked[i][0]:
            j += 1
        for k in range(i, j + 1):
            ranks[k] = (i + j) / 2 + 1
        t = j - i + 1
        ties += t**3 - t
        i = j + 1
    n1, n2 = len(a), len(b)
    r1 = sum(r for r, (_, side) in zip(ranks, ranked) if side == 0)
    u = r1 - n1 * (n1 + 1) / 2
    n = n1 + n2
    sigma = math.sqrt(n1 * n2 / 12 * ((n + 1) - ties / (n * (n - 1))))
    z = (u - n1 * n2 / 2) / sigma if sigma else 0.0
    return math.erfc(abs(z) / math.sqrt(2))


kq1, kmed, kq3 = summary(known)
uq1, umed, uq3 = summary(unknown)
overlap = kq1 <= uq3 and uq1 <= kq3
print(f"{kind} registered: median {kmed:.2f} ms (quartiles {kq1:.2f}–{kq3:.2f}); unknown: median {umed:.2f} ms (quartiles {uq1:.2f}–{uq3:.2f}); "
      f"registered ÷ unknown median {kmed / umed:.2f}; quartiles {'overlap' if overlap else 'DO NOT overlap'}; "
      f"Mann-Whitney p = {mann_whitney_p(known, unknown):.3g} ({count} pairs)")
if "--signups" in sys.argv:
    q = statistics.quantiles(signups, n=10)
    print(f"sign-up: median {statistics.median(signups):.2f} ms, p90 {q[8]:.2f} ms, max {max(signups):.2f} ms ({count} sign-ups)")
