#!/usr/bin/env python3
"""Server CPU per step of the hosted UI's code flow, from one running Gatehouse (Benchmarks/hosted_ui.sh).

Reads the server's CPU time (utime + stime from /proc/PID/stat) around N sequential requests of each
kind, so the client's own work is not counted. Baselines in the same run: a password sign-in
(POST /auth/signin, scrypt) and a refresh (POST /auth/refresh). The code exchange is then set against its
cryptographic floor (Benchmarks/crypto_floors.py, before and after): two signatures, ID and access
token — RSA-2048 for RS256, ECDSA P-256 when the server runs with GATEHOUSE_TOKEN_ALG=ES256 (TOKEN_ALG).

    hosted_ui_flow.py PID BASE CLIENT_ID CALLBACK EMAIL PASSWORD [N_PASSWORD N_FAST]
"""
import base64
import hashlib
import os
import re
import secrets
import sys
import urllib.parse

import requests

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from server_cpu import measure  # noqa: E402
from crypto_floors import floors, print_floor_rows  # noqa: E402


def pkce():
    verifier = secrets.token_urlsafe(48)
    return verifier, base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()


def main():
    pid, base, client_id, callback, email, password = sys.argv[1:7]
    n_password = int(sys.argv[7]) if len(sys.argv) > 7 else 20
    n_fast = int(sys.argv[8]) if len(sys.argv) > 8 else 300
    http = requests.Session()

    def authorize_query(challenge):
        return {"response_type": "code", "client_id": client_id, "redirect_uri": callback, "scope": "openid email profile",
                "code_challenge": challenge, "code_challenge_method": "S256", "state": secrets.token_urlsafe(8)}

    def api_sign_in(_):
        answer = http.post(base + "/auth/signin", json={"email": email, "password": password})
        assert answer.status_code == 200, answer.text
        return answer.json()["refresh_token"]

    def form_sign_in(_):
        browser = requests.Session()
        verifier, challenge = pkce()
        page = browser.get(base + "/login", params=authorize_query(challenge))
        fields = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', page.text))
        done = browser.post(base + "/login", data=dict(fields, email=email, password=password), allow_redirects=False)
        assert done.status_code == 302, done.text
        return browser

    # A browser with a hosted session: each authorize answers a code at once (single sign-on).
    browser = form_sign_in(None)

    def sso_authorize(_):
        verifier, challenge = pkce()
        answer = browser.get(base + "/oauth2/authorize", params=authorize_query(challenge), allow_redirects=False)
        code = urllib.parse.parse_qs(urllib.parse.urlsplit(answer.headers["Location"]).query)["code"][0]
        return code, verifier

    def exchange(pair):
        code, verifier = pair
        answer = http.post(base + "/oauth2/token", data={"grant_type": "authorization_code", "client_id": client_id, "code": code,
                                                         "redirect_uri": callback, "code_verifier": verifier})
        assert answer.status_code == 200, answer.text
        return answer.json()["refresh_token"]

    def refresh(token):
        answer = http.post(base + "/auth/refresh", json={"refresh_token": token})
        assert answer.status_code == 200, answer.text
        return answer.json()

    algorithm = os.environ.get("TOKEN_ALG", "RS256")
    floor_seconds = float(os.environ.get("FLOOR_SECONDS", "1"))
    before = floors(floor_seconds)
    rows = []
    cpu, wall, _ = measure(pid, range(n_password), api_sign_in)
    rows.append(("POST /auth/signin (scrypt; baseline)", cpu, wall))
    cpu, wall, _ = measure(pid, range(n_password), form_sign_in)
    rows.append(("GET + POST /login (the form; scrypt)", cpu, wall))
    cpu, wall, pairs = measure(pid, range(n_fast), sso_authorize)
    rows.append(("GET /oauth2/authorize with a hosted session", cpu, wall))
    cpu, wall, refresh_tokens = measure(pid, pairs, exchange)
    rows.append(("POST /oauth2/token authorization_code", cpu, wall))
    cpu, wall, _ = measure(pid, refresh_tokens, refresh)
    rows.append(("POST /auth/refresh (baseline)", cpu, wall))
    print(f"{'step':<48} {'server CPU ms':>14} {'median wall ms':>15}")
    for name, cpu, wall in rows:
        print(f"{name:<48} {cpu:>14.3f} {wall:>15.2f}")
    sso = rows[2][1] + rows[3][1]
    if not all(row[1] for row in rows):
        raise SystemExit("a series used less CPU than one clock tick: raise N_FAST")
    print(f"single-sign-on app sign-in (authorize + exchange) ÷ refresh, server CPU: {sso / rows[4][1]:.2f}")
    print(f"single-sign-on app sign-in ÷ password sign-in, server CPU: 1/{rows[0][1] / sso:.0f}")
    after = floors(floor_seconds)
    signature = "ecdsap256_sign" if algorithm == "ES256" else "rsa2048_sign"
    print_floor_rows([
        (f"OAuth code exchange, {algorithm} (POST /oauth2/token)", rows[3][1], {signature: 2}, "ID and access token"),
    ], before, after)


if __name__ == "__main__":
    main()
