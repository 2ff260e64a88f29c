#!/usr/bin/env python3
"""Passkeys end to end with a software authenticator (passkeys_authenticator.py: python-fido2's CBOR and
COSE, `cryptography`'s keys): registration with ES256, EdDSA and RS256, discoverable and named sign-in,
and every hostile case the issue lists. Prints ALL OK when every check passed.

    passkeys_clients.py --endpoint URL --origin ORIGIN --rp-id RP --outbox DIR
"""
import argparse
import base64
import json
import sys
import threading

import requests

from cognito_api_support import latest_code
from passkeys_authenticator import Authenticator, b64, unb64

FAILURES = []


def check(condition, what):
    print(("ok   " if condition else "FAIL ") + what)
    if not condition:
        FAILURES.append(what)


class Client:
    def __init__(self, endpoint):
        self.endpoint = endpoint

    def call(self, method, path, body=None, token=None, raw=None, content_type="application/json"):
        headers = {"Content-Type": content_type} if body is not None or raw is not None else {}
        if token:
            headers["Authorization"] = "Bearer " + token
        data = raw if raw is not None else (json.dumps(body) if body is not None else None)
        answer = requests.request(method, self.endpoint + path, data=data, headers=headers, timeout=20)
        try:
            return answer.status_code, answer.json()
        except ValueError:
            return answer.status_code, {}


def sign_up(api, outbox, email):
    status, _ = api.call("POST", "/auth/signup", {"email": email, "password": "correct horse 9"})
    assert status == 201, status
    code = latest_code(outbox, email, "confirm_signup")
    assert api.call("POST", "/auth/confirm", {"email": email, "code": code})[0] == 200
    status, tokens = api.call("POST", "/auth/signin", {"email": email, "password": "correct horse 9"})
    assert status == 200, tokens
    return tokens["access_token"]


def register(api, token, authenticator, origin, name=None, **knobs):
    status, options = api.call("POST", "/me/passkeys/options", {}, token=token)
    assert status == 200, options
    response = authenticator.create(options, origin, **knobs)
    if name:
        response["name"] = name
    return options, response, api.call("POST", "/me/passkeys", response, token=token)


def sign_in(api, authenticator, origin, email=None, **knobs):
    status, options = api.call("POST", "/auth/passkey/options", {"email": email} if email else {})
    assert status == 200, options
    assertion = authenticator.get(options, origin, **knobs)
    return options, assertion, api.call("POST", "/auth/passkey/signin", assertion)


def main():
    parser = argparse.ArgumentParser()
    for name in ("--endpoint", "--origin", "--rp-id", "--outbox"):
        parser.add_argument(name, required=True)
    args = parser.parse_args()
    api, origin = Client(args.endpoint), args.origin
    alice, bob = sign_up(api, args.outbox, "alice@example.com"), sign_up(api, args.outbox, "bob@example.com")

    # Registration: the options, then each algorithm.
    phone = Authenticator(-7)
    options, response, (status, body) = register(api, alice, phone, origin, name="Alice's phone")
    check(options["rp"]["id"] == args.rp_id and options["attestation"] == "none", "creation options name the RP, no attestation")
    check(options["authenticatorSelection"] == {"residentKey": "required", "requireResidentKey": True, "userVerification": "required"},
          "resident key and user verification required")
    check([p["alg"] for p in options["pubKeyCredParams"]] == [-7, -8, -257] and options["excludeCredentials"] == [], "ES256, EdDSA, RS256")
    check(status == 201 and body["name"] == "Alice's phone" and body["backed_up"] is True, f"ES256 passkey registered: {status} {body}")
    status, _ = api.call("POST", "/me/passkeys", response, token=alice)
    check(status == 401, f"a registration response replayed is refused: {status}")
    key, laptop = Authenticator(-8), Authenticator(-257)
    for authenticator, label in ((key, "EdDSA"), (laptop, "RS256")):
        options, _, (status, _) = register(api, alice, authenticator, origin)
        check(status == 201, f"{label} passkey registered")
    check(len(register(api, alice, Authenticator(-7), "https://evil.example")[0]["excludeCredentials"]) == 3,
          "excludeCredentials lists the user's passkeys")
    status, listed = api.call("GET", "/me/passkeys", token=alice)
    check(status == 200 and sorted(p["name"] for p in listed["passkeys"]) == ["Alice's phone", "Passkey", "Passkey"], f"listed: {listed}")

    # Registration refusals.
    for knobs, what in (({"uv": False}, "without user verification"), ({"rp_id": "evil.example"}, "for another RP id"),
                        ({"kind": "webauthn.get"}, "with the sign-in type")):
        check(register(api, alice, Authenticator(-7), origin, **knobs)[2][0] == 401, f"registration {what} is refused")
    check(register(api, alice, Authenticator(-7), "https://evil.example")[2][0] == 401, "registration from another origin is refused")
    bobs_options = api.call("POST", "/me/passkeys/options", {}, token=bob)[1]
    stolen = Authenticator(-7).create(bobs_options, origin)
    check(api.call("POST", "/me/passkeys", stolen, token=alice)[0] == 401, "a challenge issued to another user is refused")
    check(api.call("POST", "/me/passkeys", raw="{", token=alice)[0] == 400, "malformed JSON")
    check(api.call("POST", "/me/passkeys", raw="{}", content_type="text/plain", token=alice)[0] == 415, "not JSON")
    bad = dict(response, response=dict(response["response"], attestationObject=b64(b"\xff\x00")))
    check(api.call("POST", "/me/passkeys", bad, token=alice)[0] in (400, 401), "garbage attestation object")
    check(api.call("POST", "/me/passkeys", {"id": "x"}, token=alice)[0] == 400, "not a credential")

    # Sign-in: discoverable, each algorithm; named.
    for authenticator, label in ((phone, "ES256"), (key, "EdDSA"), (laptop, "RS256")):
        options, _, (status, tokens) = sign_in(api, authenticator, origin)
        check("allowCredentials" not in options and status == 200 and tokens.get("refresh_token"), f"{label} discoverable sign-in")
    check(api.call("GET", "/me", token=tokens["access_token"])[1].get("email") == "alice@example.com", "the tokens are Alice's")
    options, _, (status, _) = sign_in(api, phone, origin, email="alice@example.com")
    check(len(options["allowCredentials"]) == 3 and status == 200, "named sign-in lists the account's passkeys")
    unknown = api.call("POST", "/auth/passkey/options", {"email": "nobody@example.com"})[1]
    check(len(unknown["allowCredentials"]) == 1 and len(unb64(unknown["allowCredentials"][0]["id"])) == 32,
          "an unknown address gets a decoy, not a tell")

    # Sign-in refusals.
    options, assertion, (status, _) = sign_in(api, phone, origin)
    check(status == 200 and api.call("POST", "/auth/passkey/signin", assertion)[0] == 401, "a replayed assertion is refused")
    for knobs, what in (({"uv": False}, "without user verification"), ({"rp_id": "evil.example"}, "for another RP id"),
                        ({"kind": "webauthn.create"}, "with the registration type")):
        check(sign_in(api, phone, origin, **knobs)[2][0] == 401, f"an assertion {what} is refused")
    check(sign_in(api, phone, "https://evil.example")[2][0] == 401, "an assertion from another origin is refused")
    options = api.call("POST", "/auth/passkey/options", {})[1]
    assertion = phone.get(options, origin)
    signature = bytearray(unb64(assertion["response"]["signature"]))
    signature[-1] ^= 1
    check(api.call("POST", "/auth/passkey/signin", dict(assertion, response=dict(assertion["response"], signature=b64(bytes(signature)))))[0] == 401,
          "a tampered signature is refused")
    data = bytearray(unb64(assertion["response"]["authenticatorData"]))
    data[-1] ^= 1
    check(api.call("POST", "/auth/passkey/signin", dict(assertion, response=dict(assertion["response"], authenticatorData=b64(bytes(data)))))[0] == 401,
          "tampered authenticator data is refused")
    bob_key = Authenticator(-7)
    check(register(api, bob, bob_key, origin)[2][0] == 201, "Bob registers one")
    named = api.call("POST", "/auth/passkey/options", {"email": "alice@example.com"})[1]
    bobs = bob_key.get(dict(named, allowCredentials=[]), origin)
    check(api.call("POST", "/auth/passkey/signin", bobs)[0] == 401, "another user's credential under Alice's challenge is refused")
    forged_handle = dict(phone.get(api.call("POST", "/auth/passkey/options", {})[1], origin))
    forged_handle["response"] = dict(forged_handle["response"], userHandle=b64(b"someone-else"))
    check(api.call("POST", "/auth/passkey/signin", forged_handle)[0] == 401, "a user handle of someone else is refused")

    # Concurrent sign-ins with one assertion: exactly one wins.
    options = api.call("POST", "/auth/passkey/options", {})[1]
    assertion = key.get(options, origin)
    results = []
    threads = [threading.Thread(target=lambda: results.append(api.call("POST", "/auth/passkey/signin", assertion)[0])) for _ in range(6)]
    [t.start() for t in threads]
    [t.join() for t in threads]
    check(sorted(results).count(200) == 1, f"one assertion, six concurrent sign-ins, one success: {sorted(results)}")
    check(not any(p["flagged"] for p in api.call("GET", "/me/passkeys", token=alice)[1]["passkeys"]),
          "replays fail on the spent challenge and never flag the owner's passkey")

    # A counter that goes backwards flags the passkey; it is refused from then on.
    check(sign_in(api, laptop, origin, counter=1)[2][0] == 401, "a counter that went backwards is refused")
    check(sign_in(api, laptop, origin, counter=1000)[2][0] == 401, "and the flagged passkey stays refused")
    flagged = [p for p in api.call("GET", "/me/passkeys", token=alice)[1]["passkeys"] if p["flagged"]]
    check(len(flagged) == 1, "the list shows it flagged")

    # Removal: only one's own; account deletion takes them all.
    bobs_id = api.call("GET", "/me/passkeys", token=bob)[1]["passkeys"][0]["id"]
    check(api.call("DELETE", f"/me/passkeys/{bobs_id}", token=alice)[0] == 404, "nobody removes another user's passkey")
    check(api.call("DELETE", f"/me/passkeys/{flagged[0]['id']}", token=alice)[0] == 204, "Alice removes her flagged one")
    check(len(api.call("GET", "/me/passkeys", token=alice)[1]["passkeys"]) == 2, "two left")
    check(api.call("DELETE", "/me", token=bob)[0] == 204, "Bob deletes his account")
    check(sign_in(api, bob_key, origin)[2][0] == 401, "and his passkey signs no one in")

    print("ALL OK" if not FAILURES else f"{len(FAILURES)} FAILED")
    sys.exit(1 if FAILURES else 0)


if __name__ == "__main__":
    main()
