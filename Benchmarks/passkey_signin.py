#!/usr/bin/env python3
"""Server CPU per passkey sign-in (options + assertion), beside a password sign-in and a refresh, from
one running Gatehouse (Benchmarks/passkeys.sh). The authenticator is the tests' software one
(Tests/GatehouseServerTests/Scripts/passkeys_authenticator.py, ES256); its signing is client work and
not counted: the server's CPU time is read from /proc around each series. The assertion is then set
against its cryptographic floor (Benchmarks/crypto_floors.py, before and after): one ECDSA P-256
verify, and with the two RSA-2048 signatures of the tokens it issues.

    passkey_signin.py PID BASE ORIGIN EMAIL PASSWORD [N_PASSWORD N_FAST]
"""
import os
import sys

import requests

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from server_cpu import measure  # noqa: E402
from crypto_floors import floors, print_floor_rows  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "GatehouseServerTests", "Scripts"))
from passkeys_authenticator import Authenticator  # noqa: E402


def main():
    pid, base, origin, email, password = sys.argv[1:6]
    n_password = int(sys.argv[6]) if len(sys.argv) > 6 else 15
    n_fast = int(sys.argv[7]) if len(sys.argv) > 7 else 300
    http = requests.Session()
    token = http.post(base + "/auth/signin", json={"email": email, "password": password}).json()["access_token"]
    authenticator = Authenticator(-7)
    options = http.post(base + "/me/passkeys/options", json={}, headers={"Authorization": "Bearer " + token}).json()
    assert http.post(base + "/me/passkeys", json=authenticator.create(options, origin), headers={"Authorization": "Bearer " + token}).status_code == 201

    def password_sign_in(_):
        answer = http.post(base + "/auth/signin", json={"email": email, "password": password})
        assert answer.status_code == 200, answer.text
        return answer.json()["refresh_token"]

    # The assertions are made first (client work), then sent: only the server's share is measured.
    def options_only(_):
        return http.post(base + "/auth/passkey/options", json={}).json()

    def sign_in(assertion):
        answer = http.post(base + "/auth/passkey/signin", json=assertion)
        assert answer.status_code == 200, answer.text
        return answer.json()["refresh_token"]

    def refresh(token):
        answer = http.post(base + "/auth/refresh", json={"refresh_token": token})
        assert answer.status_code == 200, answer.text
        return answer.json()

    floor_seconds = float(os.environ.get("FLOOR_SECONDS", "1"))
    before = floors(floor_seconds)
    rows = [("POST /auth/signin (scrypt; baseline)", *measure(pid, range(n_password), password_sign_in)[:2])]
    cpu, wall, all_options = measure(pid, range(n_fast), options_only)
    rows.append(("POST /auth/passkey/options", cpu, wall))
    assertions = [authenticator.get(o, origin) for o in all_options]
    cpu, wall, tokens = measure(pid, assertions, sign_in)
    rows.append(("POST /auth/passkey/signin (ES256 verify, counter, session)", cpu, wall))
    cpu, wall, _ = measure(pid, tokens, refresh)
    rows.append(("POST /auth/refresh (baseline)", cpu, wall))
    print(f"{'step':<58} {'server CPU ms':>14} {'median wall ms':>15}")
    for name, cpu, wall in rows:
        print(f"{name:<58} {cpu:>14.3f} {wall:>15.2f}")
    passkey = rows[1][1] + rows[2][1]
    print(f"passkey sign-in (options + assertion) ÷ refresh, server CPU: {passkey / rows[3][1]:.2f}")
    print(f"passkey sign-in ÷ password sign-in, server CPU: 1/{rows[0][1] / passkey:.0f}")
    after = floors(floor_seconds)
    print_floor_rows([
        ("passkey assertion (POST /auth/passkey/signin)", rows[2][1], {"ecdsap256_verify": 1}, "the signature check"),
        ("passkey assertion, with its tokens", rows[2][1], {"ecdsap256_verify": 1, "rsa2048_sign": 2}, "+ ID and access token"),
    ], before, after)


if __name__ == "__main__":
    main()
