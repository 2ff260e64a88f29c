#!/usr/bin/env python3
"""Server CPU per TOTP verification (POST /auth/mfa/verify), from one running Gatehouse (Benchmarks/totp.sh).

Each of N accounts is signed up, enrolled in TOTP and signed in with its password up to the
mfa_required answer (set-up, not measured); then the N second steps are sent and the server's CPU
time is read from /proc around them. The floor (Benchmarks/crypto_floors.py, before and after):
three HMAC-SHA1 — Core/MFA/TOTP computes the code of each step of the ±1 window, all three, to
compare in constant time — and the two RSA-2048 signatures of the tokens the step issues. Opening the
sealed TOTP secret (AES-GCM) and spending the step are not counted in the floor.

    totp_signin.py PID BASE OUTBOX N
"""
import email
import email.policy
import os
import re
import sys
import time

import pyotp
import requests

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from server_cpu import measure  # noqa: E402
from crypto_floors import floors, print_floor_rows  # noqa: E402

PASSWORD = "bench pass 123"


def mailed_code(outbox, address, timeout=10):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for name in sorted(os.listdir(outbox)) if os.path.isdir(outbox) else []:
            if not name.endswith("confirm_signup.eml"):
                continue
            with open(os.path.join(outbox, name), "rb") as handle:
                message = email.message_from_binary_file(handle, policy=email.policy.default)
            if address in str(message["To"]):
                text = message.get_body(("plain",)).get_content()
                return re.search(r"\b(\d{6})\b", text).group(1)
        time.sleep(0.05)
    raise SystemExit(f"no confirmation code for {address}")


def next_code(totp, used):
    """A code of a step after `used` within the server's ±1 window, waiting only if both are spent."""
    while True:
        now = int(time.time()) // 30
        step = max(used + 1, now)
        if step <= now + 1:
            return totp.at(step * 30), step
        time.sleep(1)


def main():
    pid, base, outbox, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    accounts = []
    for index in range(n):
        address = f"totp{index}@example.com"
        # One client address per account (totp.sh trusts loopback as a proxy): the per-client mail
        # allowance (30 an hour) would otherwise stop the set-up.
        http = requests.Session()
        http.headers["X-Forwarded-For"] = f"10.{index // 250}.{index % 250}.1"
        signed_up = http.post(base + "/auth/signup", json={"email": address, "password": PASSWORD})
        assert signed_up.status_code == 201, (index, signed_up.status_code, signed_up.text)
        assert http.post(base + "/auth/confirm", json={"email": address, "code": mailed_code(outbox, address)}).status_code == 200
        token = http.post(base + "/auth/signin", json={"email": address, "password": PASSWORD}).json()["access_token"]
        bearer = {"Authorization": "Bearer " + token}
        totp = pyotp.TOTP(http.post(base + "/me/mfa/totp", json={}, headers=bearer).json()["secret"])
        code, step = next_code(totp, 0)
        assert http.post(base + "/me/mfa/totp/verify", json={"code": code}, headers=bearer).status_code == 200
        accounts.append((http, address, totp, step))
    challenges = []
    for http, address, totp, step in accounts:
        answer = http.post(base + "/auth/signin", json={"email": address, "password": PASSWORD})
        assert answer.status_code == 403 and answer.json()["error"]["code"] == "mfa_required", answer.text
        challenges.append((http, answer.json()["error"]["mfa_token"], totp, step))

    floor_seconds = float(os.environ.get("FLOOR_SECONDS", "1"))
    before = floors(floor_seconds)
    # The codes are computed just before the series (client work, outside it); the series takes well under a step.
    requests_to_send = [(http, token, next_code(totp, step)[0]) for http, token, totp, step in challenges]

    def verify(request):
        http, token, code = request
        answer = http.post(base + "/auth/mfa/verify", json={"mfa_token": token, "code": code})
        assert answer.status_code == 200, answer.text
        return http, answer.json()["refresh_token"]

    cpu, wall, refresh_tokens = measure(pid, requests_to_send, verify)

    def refresh(pair):
        http, token = pair
        answer = http.post(base + "/auth/refresh", json={"refresh_token": token})
        assert answer.status_code == 200, answer.text

    refresh_cpu, refresh_wall, _ = measure(pid, refresh_tokens, refresh)
    print(f"{'step':<48} {'server CPU ms':>14} {'median wall ms':>15}")
    print(f"{'POST /auth/mfa/verify (TOTP)':<48} {cpu:>14.3f} {wall:>15.2f}")
    print(f"{'POST /auth/refresh (baseline)':<48} {refresh_cpu:>14.3f} {refresh_wall:>15.2f}")
    after = floors(floor_seconds)
    print_floor_rows([
        ("TOTP verification (POST /auth/mfa/verify)", cpu, {"hmac_sha1": 3, "rsa2048_sign": 2}, "the window's 3 codes + ID and access token"),
    ], before, after)


if __name__ == "__main__":
    main()
