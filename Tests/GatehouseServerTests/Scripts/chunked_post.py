#!/usr/bin/env python3
"""POSTs a body with Transfer-Encoding: chunked (no Content-Length) to a local server and prints the
reply as one JSON line: {"status", "content_type", "body"} (or {"error"} if no reply came).

usage: chunked_post.py <port> <path> <content-type> <body-file>
"""
import http.client
import json
import sys

port, path, content_type, body_file = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
with open(body_file, "rb") as f:
    body = f.read()


def chunks():
    for start in range(0, len(body), 512):
        yield body[start:start + 512]


connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
try:
    connection.putrequest("POST", path)
    connection.putheader("Content-Type", content_type)
    connection.putheader("Transfer-Encoding", "chunked")
    connection.endheaders()
    try:
        for chunk in chunks():
            connection.send(b"%x\r\n%s\r\n" % (len(chunk), chunk))
        connection.send(b"0\r\n\r\n")
    except OSError:
        pass  # the server may answer and close before it has read everything: read its answer
    response = connection.getresponse()
    print(json.dumps({
        "status": response.status,
        "content_type": response.getheader("Content-Type") or "",
        "body": response.read().decode("utf-8", "replace"),
    }))
except Exception as error:  # noqa: BLE001 - reported to the test
    print(json.dumps({"error": repr(error)}))
