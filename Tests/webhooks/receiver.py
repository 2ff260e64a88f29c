"""A webhook receiver for the tests: verifies each delivery with the Standard Webhooks reference
library (`standardwebhooks`, PyPI) and records what it got.

It prints {"url": "http://127.0.0.1:<port>", "dir": "<a fresh folder>"} on its first line and serves
until its standard input closes. The test writes the endpoint's secret to <dir>/secret; every delivery
is appended to <dir>/log.jsonl (path, webhook-id, timestamp, signature, body, verified, error). Paths (the part after the first segment is free):
  /ok/...         answers 200
  /fail-once/...  answers 500 to the first delivery of each webhook-id, 200 after
  /redirect/...   answers 302 to /ok/redirected (a sender must not follow it)
  /hang/...       never answers (sleeps 60 s)
  /refuse/...     answers 503 while the file <dir>/refuse exists, then as /ok/ (a receiver that is down for a while)
Each log line also has the status answered ("status"; null for /hang/, which answers late).
"""
import json
import os
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from standardwebhooks.webhooks import Webhook

LOCK = threading.Lock()
STATE = {"dir": tempfile.mkdtemp(prefix="gh-webhooks-"), "seen": set()}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def answer(self, status, body=b"", headers=None):
        self.send_response(status)
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(length)
        headers = {k.lower(): v for k, v in self.headers.items()}
        record = {
            "path": self.path,
            "id": headers.get("webhook-id"),
            "timestamp": headers.get("webhook-timestamp"),
            "signature": headers.get("webhook-signature"),
            "content_type": headers.get("content-type"),
            "body": body.decode("utf-8", "replace"),
            "verified": False,
            "error": None,
        }
        try:
            with open(os.path.join(STATE["dir"], "secret")) as file:
                secret = file.read().strip()
            payload = Webhook(secret).verify(body, headers)
            record["verified"] = isinstance(payload, dict)
        except Exception as error:  # the test reads why
            record["error"] = f"{type(error).__name__}: {error}"
        with LOCK:
            first = record["id"] not in STATE["seen"]
            STATE["seen"].add(record["id"])
            if self.path.startswith("/hang"):
                status = None
            elif self.path.startswith("/redirect"):
                status = 302
            elif self.path.startswith("/fail-once") and first:
                status = 500
            elif self.path.startswith("/refuse") and os.path.exists(os.path.join(STATE["dir"], "refuse")):
                status = 503
            else:
                status = 200 if record["verified"] else 400
            record["status"] = status
            with open(os.path.join(STATE["dir"], "log.jsonl"), "a") as file:
                file.write(json.dumps(record) + "\n")
        if status is None:
            time.sleep(60)
            return self.answer(200)
        if status == 302:
            return self.answer(302, b"", {"Location": "/ok/redirected"})
        self.answer(status, b"ok" if status < 300 else b"try again")


def main():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    print(json.dumps({"url": f"http://127.0.0.1:{server.server_address[1]}", "dir": STATE["dir"]}), flush=True)
    sys.stdin.read()


if __name__ == "__main__":
    main()
