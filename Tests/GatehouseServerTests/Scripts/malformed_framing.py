#!/usr/bin/env python3
"""Sends requests whose HTTP framing is broken to a local server, each on its own connection, and
prints one JSON line per case: {"case", "status", "body"}, with status null when the server closed
the connection without an answer.

Cases: a chunk size that is not hex, a chunk longer than its declared size, Transfer-Encoding gzip,
a client that closes its side half-way through a declared body, and one that disconnects outright
half-way through.

usage: malformed_framing.py <port> <path> <content-type>
"""
import json
import socket
import sys
import time

port, path, content_type = int(sys.argv[1]), sys.argv[2], sys.argv[3]
head = f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: {content_type}\r\n".encode()
body = b'{"email":"frame@example.com","password":"correct horse 9"}'

CASES = {
    "bad_chunk_size": head + b"Transfer-Encoding: chunked\r\n\r\nZZ\r\n" + body + b"\r\n0\r\n\r\n",
    "chunk_longer_than_size": head + b"Transfer-Encoding: chunked\r\n\r\n5\r\n" + body + b"\r\n0\r\n\r\n",
    "transfer_encoding_gzip": head + b"Transfer-Encoding: gzip\r\n\r\n" + body,
    "half_closed_mid_body": head + b"Content-Length: %d\r\n\r\n" % (len(body) + 100) + body,
    "reset_mid_body": head + b"Content-Length: %d\r\n\r\n" % (len(body) + 100) + body,
}


def read_reply(sock):
    data = b""
    sock.settimeout(10)
    try:
        while True:
            chunk = sock.recv(65536)
            if not chunk:
                break
            data += chunk
            if b"\r\n\r\n" in data:
                header, _, rest = data.partition(b"\r\n\r\n")
                length = next((int(line.split(b":", 1)[1]) for line in header.split(b"\r\n")
                               if line.lower().startswith(b"content-length:")), None)
                if length is not None and len(rest) >= length:
                    break
    except (socket.timeout, ConnectionResetError):
        pass
    if not data:
        return None, ""
    header, _, rest = data.partition(b"\r\n\r\n")
    return int(header.split(b" ")[1]), rest.decode("utf-8", "replace")


for name, payload in CASES.items():
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    try:
        sock.sendall(payload)
        if name == "half_closed_mid_body":
            sock.shutdown(socket.SHUT_WR)
        elif name == "reset_mid_body":
            time.sleep(0.2)
            sock.close()
            print(json.dumps({"case": name, "status": None, "body": ""}))
            continue
        status, text = read_reply(sock)
        print(json.dumps({"case": name, "status": status, "body": text[:300]}))
    except OSError as error:
        print(json.dumps({"case": name, "status": None, "body": repr(error)}))
    finally:
        try:
            sock.close()
        except OSError:
            pass
