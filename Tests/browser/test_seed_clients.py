#!/usr/bin/env python3
"""The seeds' own client code against Gatehouse, with the settings docs/seeds.md's table gives:

- seed 000's Next.js app: its `fetch` calls to `/auth/google` from a page on another origin, in headless
  Chromium (GATEHOUSE_CORS_ORIGINS), then its protected call with the ID token as the bearer, as the
  seeds' iOS apps send `getIdToken()` (GATEHOUSE_ACCEPT_ID_TOKENS); the same page on an origin not listed
  is blocked by the browser;
- seed 004's API Gateway HTTP API JWT authorizer: the checks AWS documents for it (the issuer's discovery
  document and JWKS, RSA only, kid, iss, aud or client_id against the configured audience, exp, nbf, iat,
  scopes), written here from that documentation and run on Gatehouse's access and ID tokens, and on
  forged ones.

Seeds 000/001's request and response shapes and the Apple callback in the seeds' forwarding mode are
checked in Swift (SocialController and AppleWebFlow tests); seed 003 by the Seed003 suites; the Amplify
paths (002, 004, the email half of 000/001) by the Cognito API and hosted-UI suites.

    python3 Tests/browser/test_seed_clients.py
"""
import base64
import json
import os
import sys
import threading
import time
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import jwt
from selenium.webdriver.support.ui import WebDriverWait

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from hosted_ui_harness import GOOGLE_CLIENT, FakeGoogle, browser, check  # noqa: E402
from web_harness import Server  # noqa: E402

# Seed 000's auth-context.tsx, as written there (apiUrl, the body, the stored fields), then the protected
# call its iOS and web apps make with the ID token.
NEXT_JS_PAGE = """<!doctype html><meta charset="utf-8"><title>seed 000</title><body><script>
const apiUrl = %(api)s;
async function handleSignInWithGoogleNative(idToken, email, name) {
  const response = await fetch(`${apiUrl}/auth/google`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ id_token: idToken, email, full_name: name }),
  });
  const tokens = await response.json();
  const nativeTokensData = {
    idToken: tokens.id_token, accessToken: tokens.access_token, refreshToken: tokens.refresh_token,
    expiresAt: Date.now() + (tokens.expires_in * 1000),
  };
  localStorage.setItem("native_auth_tokens", JSON.stringify(nativeTokensData));
  const me = await fetch(`${apiUrl}/me`, { headers: { Authorization: `Bearer ${nativeTokensData.idToken}` } });
  return { status: me.status, profile: await me.json(), requestIdReadable: response.headers.get("X-Request-Id") !== null };
}
handleSignInWithGoogleNative(%(token)s, "gina@gmail.com", "Gina Google")
  .then(r => { document.body.dataset.result = JSON.stringify(r); })
  .catch(e => { document.body.dataset.result = JSON.stringify({ blocked: String(e) }); });
</script></body>"""


class WebOrigin:
    """A page server standing in for the Next.js app's origin."""

    def __init__(self):
        self.page = b""
        origin = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_GET(self):
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(origin.page)))
                self.end_headers()
                self.wfile.write(origin.page)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


def run_page(driver, url):
    driver.get(url)
    WebDriverWait(driver, 15).until(lambda d: d.execute_script("return document.body.dataset.result"))
    return json.loads(driver.execute_script("return document.body.dataset.result"))


def next_js_from_another_origin(server, google, web):
    driver = browser(javascript=True)
    try:
        web.page = (NEXT_JS_PAGE % {"api": json.dumps(server.url), "token": json.dumps(google.id_token(None))}).encode()
        result = run_page(driver, f"http://127.0.0.1:{web.port}/")
        check(result.get("status") == 200 and result["profile"]["email"] == "gina@gmail.com", f"seed 000 from its origin: {result}")
        check(result["requestIdReadable"], "exposed headers are readable cross-origin")
        # The same page on an origin that is not listed: the browser blocks the answer.
        web.page = (NEXT_JS_PAGE % {"api": json.dumps(server.url), "token": json.dumps(google.id_token(None))}).encode()
        blocked = run_page(driver, f"http://localhost:{web.port}/")
        check("blocked" in blocked, f"an origin not listed is blocked: {blocked}")
    finally:
        driver.quit()
    print("seed 000 Next.js across origins, ID token as bearer: OK")


def b64(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


class JWTAuthorizer:
    """An API Gateway HTTP API JWT authorizer, from AWS's documentation ("Controlling access to HTTP APIs
    with JWT authorizers"): the issuer's discovery document names jwks_uri; only RSA algorithms; the kid
    must be in the JWKS; iss must equal the configured issuer; aud or client_id must match one configured
    audience; exp after now, nbf and iat before now; a route's authorization scopes need one of them in
    the token's scope (or scp) claim."""

    def __init__(self, issuer, audiences, discovery_base):
        self.issuer = issuer
        self.audiences = set(audiences)
        with urllib.request.urlopen(discovery_base + "/.well-known/openid-configuration", timeout=10) as answer:
            document = json.load(answer)
        check(document["issuer"] == issuer, "the discovery document names the issuer")
        jwks_uri = document["jwks_uri"].replace(issuer, discovery_base)  # the test server is not at its issuer's host
        self.keys = jwt.PyJWKClient(jwks_uri)

    def authorize(self, token, scopes=()):
        header = jwt.get_unverified_header(token)
        if not header.get("alg", "").startswith("RS"):
            return "unauthorized: not an RSA token"
        try:
            key = self.keys.get_signing_key(header.get("kid", "")).key
            claims = jwt.decode(token, key, algorithms=[header["alg"]], issuer=self.issuer,
                                options={"verify_aud": False, "require": ["exp", "iss"]}, leeway=0)
        except Exception as error:  # noqa: BLE001 - the authorizer answers 401 for every failure
            return f"unauthorized: {type(error).__name__}"
        if claims.get("aud") not in self.audiences and claims.get("client_id") not in self.audiences:
            return "unauthorized: audience"
        now = time.time()
        if claims.get("nbf", 0) > now or claims.get("iat", 0) > now + 1:
            return "unauthorized: not yet valid"
        if scopes and not set(scopes) & set((claims.get("scope") or claims.get("scp") or "").split()):
            return "forbidden: scope"
        return "allowed"


def api_gateway_authorizer(server, client_id):
    status, _ = server.post("/auth/signup", {"email": "apigw@example.com", "password": "correct horse 9"})
    check(status == 201, status)
    server.post("/auth/confirm", {"email": "apigw@example.com", "code": server.code("confirm_signup", "apigw@example.com")})
    status, tokens = server.post("/auth/signin", {"email": "apigw@example.com", "password": "correct horse 9"})
    check(status == 200, tokens)
    authorizer = JWTAuthorizer(server.issuer, [client_id], server.url)
    check(authorizer.authorize(tokens["access_token"]) == "allowed", "the access token passes (client_id)")
    check(authorizer.authorize(tokens["id_token"]) == "allowed", "the ID token passes (aud)")
    check(authorizer.authorize(tokens["access_token"], scopes=["openid"]) == "allowed", "the access token's scope claim")
    check(authorizer.authorize(tokens["id_token"], scopes=["openid"]) == "forbidden: scope", "ID tokens carry no scope")
    other = JWTAuthorizer(server.issuer, ["another-client"], server.url)
    check(other.authorize(tokens["access_token"]).startswith("unauthorized"), "another audience")
    header, payload, signature = tokens["access_token"].split(".")
    claims = json.loads(base64.urlsafe_b64decode(payload + "=="))
    claims["sub"] = "someone-else"
    check(authorizer.authorize(f"{header}.{b64(json.dumps(claims).encode())}.{signature}").startswith("unauthorized"), "altered claims")
    unsigned = f"{b64(json.dumps({'alg': 'none', 'typ': 'JWT'}).encode())}.{payload}."
    check(authorizer.authorize(unsigned).startswith("unauthorized"), "alg none")
    print("seed 004 API Gateway JWT authorizer on Gatehouse's tokens: OK")


def main():
    google = FakeGoogle()
    web = WebOrigin()
    server = Server({
        "GATEHOUSE_CORS_ORIGINS": f"http://127.0.0.1:{web.port}", "GATEHOUSE_ACCEPT_ID_TOKENS": "true",
        "GATEHOUSE_GOOGLE_CLIENT_IDS": GOOGLE_CLIENT, "GATEHOUSE_GOOGLE_JWKS_URL": google.url + "/jwks",
        "GATEHOUSE_CLIENT_ID": "seed-app", "GATEHOUSE_ISSUER": "https://auth.example.com",
    })
    server.issuer = "https://auth.example.com"
    try:
        next_js_from_another_origin(server, google, web)
        api_gateway_authorizer(server, "seed-app")
    except BaseException:
        server.log.seek(0)
        print(server.log.read()[-4000:], file=sys.stderr)
        raise
    finally:
        server.stop()
        google.stop()
        web.server.shutdown()
    print("seed clients: ALL OK")


if __name__ == "__main__":
    main()
