#!/usr/bin/env python3
"""The custom-claims hook's cost (Benchmarks/claims_hook.sh).

    claims_hook_bench.py receive PORT SECRET
        A receiver: checks each request's Standard Webhooks signature (the specification's algorithm)
        and answers {"claims": {...}}; a bad signature gets 401, which the server turns into a 503.
    claims_hook_bench.py measure PID ENDPOINT LABEL N_SIGNIN N_REFRESH
        Server CPU (utime + stime from /proc/PID/stat) and median wall time per password sign-in and
        per refresh, sequentially; checks that the hook's claim is in the token when the hook is on.
"""
import base64
import hashlib
import hmac
import json
import os
import statistics
import sys
import time
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def receive(port, secret):
    key = base64.b64decode(secret.removeprefix("whsec_"))
    answer = json.dumps({"claims": {"role": "bench", "tenant": {"id": "t-1"}}}).encode()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            body = self.rfile.read(int(self.headers["content-length"]))
            signed = f"{self.headers['webhook-id']}.{self.headers['webhook-timestamp']}.".encode() + body
            expected = "v1," + base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode()
            ok = any(hmac.compare_digest(expected, s) for s in self.headers["webhook-signature"].split())
            self.send_response(200 if ok else 401)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(answer)))
            self.end_headers()
            self.wfile.write(answer)

        def log_message(self, *args):
            pass

    ThreadingHTTPServer(("127.0.0.1", port), Handler).serve_forever()


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def post(endpoint, path, body):
    request = urllib.request.Request(endpoint + path, method="POST", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as answer:
        return json.load(answer)


def measure(pid, runs, one):
    walls = []
    before = cpu_seconds(pid)
    for _ in range(runs):
        start = time.perf_counter()
        one()
        walls.append(time.perf_counter() - start)
    return (cpu_seconds(pid) - before) / runs * 1000, statistics.median(walls) * 1000


def main():
    if sys.argv[1] == "receive":
        receive(int(sys.argv[2]), sys.argv[3])
        return
    pid, endpoint, label, n_signin, n_refresh = sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]), int(sys.argv[6])
    credentials = {"email": "hook@example.com", "password": "bench pass 123"}
    first = post(endpoint, "/auth/signin", credentials)
    payload = first["access_token"].split(".")[1]
    claims = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    print(f"{label}: the access token's role claim: {claims.get('role')}")
    token = [first["refresh_token"]]

    def refresh():
        token[0] = post(endpoint, "/auth/refresh", {"refresh_token": token[0]})["refresh_token"]

    for name, runs, one in [("POST /auth/signin (scrypt)", n_signin, lambda: post(endpoint, "/auth/signin", credentials)),
                            ("POST /auth/refresh", n_refresh, refresh)]:
        cpu, wall = measure(pid, runs, one)
        print(f"{label:<18} {name:<28} server CPU {cpu:8.2f} ms   median wall {wall:7.2f} ms")


if __name__ == "__main__":
    main()
