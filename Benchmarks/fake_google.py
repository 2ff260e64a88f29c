#!/usr/bin/env python3
"""A stand-in for Google's key endpoint for the benchmark: serves a JWKS on 127.0.0.1:PORT and
writes one valid Google-shaped ID token (RS256, aud=AUDIENCE, 2 h lifetime) to TOKEN_FILE.

Usage: fake_google.py PORT AUDIENCE TOKEN_FILE
"""
import base64
import http.server
import json
import sys
import time

import jwt
from cryptography.hazmat.primitives.asymmetric import rsa

port, audience, token_file = int(sys.argv[1]), sys.argv[2], sys.argv[3]
key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
numbers = key.public_key().public_numbers()


def b64(n):
    raw = n.to_bytes((n.bit_length() + 7) // 8, "big")
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


jwks = json.dumps({"keys": [{"kty": "RSA", "kid": "bench-1", "alg": "RS256", "use": "sig", "n": b64(numbers.n), "e": b64(numbers.e)}]}).encode()
now = int(time.time())
token = jwt.encode({"iss": "https://accounts.google.com", "aud": audience, "azp": audience, "sub": "bench-user-1",
                    "email": "bench@gmail.com", "email_verified": True, "iat": now, "exp": now + 7200},
                   key, algorithm="RS256", headers={"kid": "bench-1"})
with open(token_file, "w") as f:
    f.write(token)


class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Cache-Control", "public, max-age=3600")
        self.send_header("Content-Length", str(len(jwks)))
        self.end_headers()
        self.wfile.write(jwks)

    def log_message(self, *args):
        pass


http.server.HTTPServer(("127.0.0.1", port), Handler).serve_forever()
