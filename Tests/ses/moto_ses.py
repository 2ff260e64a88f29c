#!/usr/bin/env python3
"""A local Amazon SES for Gatehouse's tests: moto's SES (v1 and v2 APIs share one backend), in
process, on an ephemeral loopback port, plus one read-only hook moto's server lacks.

    python3 Tests/ses/moto_ses.py        # prints one JSON line {"endpoint", "region"}, serves until stdin closes

  - GET /_ses/sent: every message moto accepted, [{"source", "destinations", "raw_data"}], oldest first
    (moto keeps them in its backend's sent_messages; its /moto-api/data.json does not list them).
Everything else goes to moto unchanged; requests are routed by the SigV4 credential scope (service
"ses", paths under /v2/ reach the v2 API).
"""
import json
import os
import sys
import threading

os.environ.setdefault("AWS_ACCESS_KEY_ID", "testing")
os.environ.setdefault("AWS_SECRET_ACCESS_KEY", "testing")
os.environ.setdefault("AWS_DEFAULT_REGION", "us-east-1")

from moto.ses.models import ses_backends  # noqa: E402
from moto.moto_server.werkzeug_app import DomainDispatcherApplication, create_backend_app  # noqa: E402
from werkzeug.serving import make_server  # noqa: E402

REGION = "us-east-1"
ACCOUNT = "123456789012"
moto_app = DomainDispatcherApplication(create_backend_app)


def app(environ, start_response):
    if environ.get("PATH_INFO") == "/_ses/sent":
        backend = ses_backends[ACCOUNT][REGION]
        sent = [
            {"source": m.source, "destinations": list(m.destinations), "raw_data": m.raw_data}
            for m in backend.sent_messages
            if hasattr(m, "raw_data")
        ]
        body = json.dumps(sent).encode()
        start_response("200 OK", [("Content-Type", "application/json"), ("Content-Length", str(len(body)))])
        return [body]
    return moto_app(environ, start_response)


def main():
    server = make_server("127.0.0.1", 0, app, threaded=True)
    print(json.dumps({"endpoint": f"http://127.0.0.1:{server.server_port}", "region": REGION}), flush=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    sys.stdin.read()  # serve until the test closes our stdin (or exits)
    os._exit(0)


if __name__ == "__main__":
    main()
