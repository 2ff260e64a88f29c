"""What the hosted-UI checks share (see test_hosted_ui.py): the server binary with the hosted UI on, on a
port chosen up front so its issuer is the address the browser and the fake Google use; a fake Google that
implements the authorization and token endpoints and serves its keys, checked like the real ones; PKCE;
and headless Chromium with JavaScript on or off.
"""
import base64
import hashlib
import html
import json
import os
import secrets
import socket
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import jwt
from cryptography.hazmat.primitives.asymmetric import rsa
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service

from web_harness import Server

CLIENT_ID = "hosted-app"
CALLBACK = "http://127.0.0.1:9/callback"     # nothing listens: the browser stops there and we read the URL
APP_CALLBACK = "myapp://callback"
SIGNOUT = "http://127.0.0.1:9/signed-out"
GOOGLE_CLIENT = "hosted-web.apps.googleusercontent.com"
GOOGLE_SECRET = "google-web-secret"
APPLE_SERVICES_ID = "com.example.hosted.web"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def pkce():
    verifier = secrets.token_urlsafe(48)
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
    return verifier, challenge


class FakeGoogle:
    """Google's `/o/oauth2/v2/auth`, `/token` and keys. The authorization endpoint signs in `self.user`
    at once and redirects back with a code; the token endpoint checks the client secret, the code, and
    the redirect URI as Google does, and answers an ID token carrying the nonce of the authorization."""

    def __init__(self):
        self.key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        self.kid = "fake-google-1"
        self.codes = {}
        self.user = {"sub": "google-sub-1", "email": "gina@gmail.com", "email_verified": True, "name": "Gina Google"}
        self.requests = []
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def answer(self, status, body=b"", headers=()):
                self.send_response(status)
                for name, value in headers:
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_GET(self):
                url = urllib.parse.urlsplit(self.path)
                query = dict(urllib.parse.parse_qsl(url.query))
                if url.path == "/jwks":
                    return self.answer(200, json.dumps(fake.jwks()).encode(), [("Content-Type", "application/json")])
                if url.path == "/o/oauth2/v2/auth":
                    fake.requests.append(query)
                    if query.get("client_id") != GOOGLE_CLIENT or query.get("response_type") != "code":
                        return self.answer(400, b"bad client or response type")
                    code = secrets.token_urlsafe(16)
                    fake.codes[code] = (query["redirect_uri"], query.get("nonce"))
                    target = query["redirect_uri"] + "?" + urllib.parse.urlencode({"code": code, "state": query["state"]})
                    return self.answer(302, headers=[("Location", target)])
                self.answer(404)

            def do_POST(self):
                length = int(self.headers.get("Content-Length", "0"))
                form = dict(urllib.parse.parse_qsl(self.rfile.read(length).decode()))
                if self.path != "/token":
                    return self.answer(404)
                if form.get("client_id") != GOOGLE_CLIENT or form.get("client_secret") != GOOGLE_SECRET:
                    return self.answer(401, b'{"error":"invalid_client"}', [("Content-Type", "application/json")])
                entry = fake.codes.pop(form.get("code"), None)
                if entry is None or entry[0] != form.get("redirect_uri") or form.get("grant_type") != "authorization_code":
                    return self.answer(400, b'{"error":"invalid_grant"}', [("Content-Type", "application/json")])
                body = {"access_token": "ya29.fake", "expires_in": 3599, "token_type": "Bearer", "id_token": fake.id_token(entry[1])}
                self.answer(200, json.dumps(body).encode(), [("Content-Type", "application/json")])

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def jwks(self):
        key = json.loads(jwt.algorithms.RSAAlgorithm.to_jwk(self.key.public_key()))
        key.update({"kid": self.kid, "alg": "RS256", "use": "sig"})
        return {"keys": [key]}

    def id_token(self, nonce):
        now = int(time.time())
        claims = dict(self.user, iss="https://accounts.google.com", aud=GOOGLE_CLIENT, azp=GOOGLE_CLIENT, iat=now, exp=now + 3600)
        if nonce:
            claims["nonce"] = nonce
        return jwt.encode(claims, self.key, algorithm="RS256", headers={"kid": self.kid})

    def stop(self):
        self.server.shutdown()


class FakeApple:
    """Apple's `/auth/authorize` and keys. The authorization page is what Apple's is to a browser: a form
    that posts (`form_post`) the identity token, the state and, the first time, the user's name to the
    redirect URI; `answer()` gives the same fields to a client without a browser."""

    def __init__(self):
        self.key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        self.kid = "fake-apple-1"
        self.user = {"sub": "001234.apple.sub", "email": "ann@privaterelay.appleid.com", "email_verified": "true", "is_private_email": "true"}
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_GET(self):
                url = urllib.parse.urlsplit(self.path)
                if url.path == "/auth/keys":
                    body = json.dumps(fake.jwks()).encode()
                elif url.path == "/auth/authorize":
                    fields = fake.answer(dict(urllib.parse.parse_qsl(url.query)))
                    inputs = "".join(f'<input type="hidden" name="{k}" value="{html.escape(v)}">' for k, v in fields.items() if k != "_to")
                    body = (f'<!doctype html><form method="post" action="{html.escape(fields["_to"])}">{inputs}'
                            '<button id="apple-continue" type="submit">Continue</button></form>').encode()
                else:
                    self.send_response(404)
                    self.end_headers()
                    return
                self.send_response(200)
                self.send_header("Content-Type", "application/json" if url.path == "/auth/keys" else "text/html")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def jwks(self):
        key = json.loads(jwt.algorithms.RSAAlgorithm.to_jwk(self.key.public_key()))
        key.update({"kid": self.kid, "alg": "RS256", "use": "sig"})
        return {"keys": [key]}

    def answer(self, query, name=("Ann", "Apple")):
        """The form Apple posts for an authorization request's query (`_to` is where it goes)."""
        check(query.get("client_id") == APPLE_SERVICES_ID and query.get("response_mode") == "form_post", query)
        now = int(time.time())
        claims = dict(self.user, iss="https://appleid.apple.com", aud=APPLE_SERVICES_ID, iat=now, exp=now + 600, nonce=query["nonce"])
        token = jwt.encode(claims, self.key, algorithm="RS256", headers={"kid": self.kid})
        user = json.dumps({"name": {"firstName": name[0], "lastName": name[1]}, "email": self.user["email"]})
        return {"_to": query["redirect_uri"], "state": query["state"], "id_token": token, "user": user}

    def stop(self):
        self.server.shutdown()


def hosted_server(google, apple):
    port = free_port()
    return Server({
        "GATEHOUSE_HTTP_PORT": str(port), "GATEHOUSE_ISSUER": f"http://127.0.0.1:{port}",
        "GATEHOUSE_HOSTED_UI": "true", "GATEHOUSE_CLIENT_ID": CLIENT_ID,
        "GATEHOUSE_CALLBACK_URLS": f"{CALLBACK},{APP_CALLBACK}", "GATEHOUSE_SIGNOUT_URLS": SIGNOUT,
        "GATEHOUSE_GOOGLE_WEB_CLIENT_ID": GOOGLE_CLIENT, "GATEHOUSE_GOOGLE_WEB_CLIENT_SECRET": GOOGLE_SECRET,
        "GATEHOUSE_GOOGLE_AUTHORIZATION_URL": google.url + "/o/oauth2/v2/auth", "GATEHOUSE_GOOGLE_TOKEN_URL": google.url + "/token",
        "GATEHOUSE_GOOGLE_JWKS_URL": google.url + "/jwks",
        "GATEHOUSE_APPLE_SERVICES_ID": APPLE_SERVICES_ID, "GATEHOUSE_APPLE_API_URL": apple.url, "GATEHOUSE_APPLE_JWKS_URL": apple.url + "/auth/keys",
    })


def browser(javascript=True):
    options = Options()
    options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    for arg in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1000,900", "--disable-gpu"]:
        options.add_argument(arg)
    if not javascript:
        options.add_experimental_option("prefs", {"profile.managed_default_content_settings.javascript": 2})
    service = Service(executable_path=os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver"))
    return webdriver.Chrome(service=service, options=options)


def query_of(url):
    return dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(url).query))


def check(condition, message):
    if not condition:
        raise AssertionError(message)
