#!/usr/bin/env python3
"""A local Amazon SNS for Gatehouse's tests: moto's SNS, in process, on an ephemeral loopback port, plus
one read-only hook moto's server lacks.

    python3 Tests/sns/moto_sns.py        # prints one JSON line {"endpoint", "region"}, serves until stdin closes

  - GET /_sns/sms: every SMS moto accepted, oldest first, as
    [{"message_id", "phone_number", "message", "attributes", "authorization"}]: moto keeps the number and
    the text in its backend's sms_messages but drops the message attributes, so this hook also records each
    Publish request's form fields (MessageAttributes.entry.N.*) and its Authorization header as they arrived.
Everything else goes to moto unchanged; requests are routed by the SigV4 credential scope (service "sns").
"""
import io
import json
import os
import sys
import threading
import urllib.parse

os.environ.setdefault("AWS_ACCESS_KEY_ID", "testing")
os.environ.setdefault("AWS_SECRET_ACCESS_KEY", "testing")
os.environ.setdefault("AWS_DEFAULT_REGION", "us-east-1")

from moto.sns.models import sns_backends  # noqa: E402
from moto.moto_server.werkzeug_app import DomainDispatcherApplication, create_backend_app  # noqa: E402
from werkzeug.serving import make_server  # noqa: E402

REGION = "us-east-1"
ACCOUNT = "123456789012"
moto_app = DomainDispatcherApplication(create_backend_app)
lock = threading.Lock()
publishes = []  # (phone number, message, attributes, authorization) per Publish request, in arrival order


def attributes_of(form):
    """MessageAttributes.entry.N.{Name, Value.DataType, Value.StringValue} as {name: [type, value]}."""
    found = {}
    index = 1
    while f"MessageAttributes.entry.{index}.Name" in form:
        prefix = f"MessageAttributes.entry.{index}."
        found[form[prefix + "Name"]] = [form.get(prefix + "Value.DataType", ""), form.get(prefix + "Value.StringValue", "")]
        index += 1
    return found


def app(environ, start_response):
    if environ.get("PATH_INFO") == "/_sns/sms":
        backend = sns_backends[ACCOUNT][REGION]
        with lock:
            recorded = list(publishes)
        sms = []
        for message_id, (number, message) in backend.sms_messages.items():
            match = next((p for p in recorded if p[0] == number and p[1] == message), None)
            sms.append({
                "message_id": message_id, "phone_number": number, "message": message,
                "attributes": match[2] if match else {}, "authorization": match[3] if match else "",
            })
        body = json.dumps(sms).encode()
        start_response("200 OK", [("Content-Type", "application/json"), ("Content-Length", str(len(body)))])
        return [body]
    if environ.get("REQUEST_METHOD") == "POST":
        length = int(environ.get("CONTENT_LENGTH") or 0)
        raw = environ["wsgi.input"].read(length) if length else b""
        environ["wsgi.input"] = io.BytesIO(raw)
        form = dict(urllib.parse.parse_qsl(raw.decode("utf-8", "replace"), keep_blank_values=True))
        if form.get("Action") == "Publish" and "PhoneNumber" in form:
            with lock:
                publishes.append((form["PhoneNumber"], form.get("Message", ""), attributes_of(form), environ.get("HTTP_AUTHORIZATION", "")))
    return moto_app(environ, start_response)


def main():
    server = make_server("127.0.0.1", 0, app, threaded=True)
    print(json.dumps({"endpoint": f"http://127.0.0.1:{server.server_port}", "region": REGION}), flush=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    sys.stdin.read()  # serve until the test closes our stdin (or exits)
    os._exit(0)


if __name__ == "__main__":
    main()
