#!/usr/bin/env python3
"""The second factor with clients no one here wrote: pyotp as the authenticator app, boto3 for Cognito's
SOFTWARE_TOKEN_MFA challenge, the software authenticator for a passkey (which needs no second step).
Prints ALL OK when every check passed.

    mfa_clients.py --endpoint URL --client-id ID --outbox DIR --origin ORIGIN
"""
import argparse
import base64
import json
import sys
import threading
import time

import boto3
import pyotp
import requests
from botocore import UNSIGNED
from botocore.config import Config
from botocore.exceptions import ClientError

from cognito_api_support import latest_code
from passkeys_authenticator import Authenticator

FAILURES = []
PASSWORD = "correct horse 9"


def check(condition, what):
    print(("ok   " if condition else "FAIL ") + what)
    if not condition:
        FAILURES.append(what)


def call(endpoint, method, path, body=None, token=None):
    headers = {"Authorization": "Bearer " + token} if token else {}
    answer = requests.request(method, endpoint + path, json=body, headers=headers, timeout=20)
    try:
        return answer.status_code, answer.json()
    except ValueError:
        return answer.status_code, {}


def claims(jwt):
    payload = jwt.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))


def next_code(totp, after):
    """A code of a step later than `after` (a code is accepted once): the current step's or the next one's
    (the server accepts one step either side), waiting only when both were used."""
    while True:
        now = int(time.time()) // 30
        candidate = max(after + 1, now)
        if candidate <= now + 1:
            return totp.at(candidate * 30), candidate
        time.sleep(1)


def enrolled(e, outbox, email):
    """Signs `email` up and in and confirms an authenticator app for it (the REST API's enrolment):
    its token, its TOTP, the step of the code that confirmed it and its ten recovery codes."""
    assert call(e, "POST", "/auth/signup", {"email": email, "password": PASSWORD})[0] == 201
    assert call(e, "POST", "/auth/confirm", {"email": email, "code": latest_code(outbox, email, "confirm_signup")})[0] == 200
    token = call(e, "POST", "/auth/signin", {"email": email, "password": PASSWORD})[1]["access_token"]
    totp = pyotp.TOTP(call(e, "POST", "/me/mfa/totp", {}, token)[1]["secret"])
    code, step = next_code(totp, 0)
    status, confirmed = call(e, "POST", "/me/mfa/totp/verify", {"code": code}, token)
    assert status == 200, status
    return token, totp, step, confirmed["recovery_codes"]


def main():
    parser = argparse.ArgumentParser()
    for name in ("--endpoint", "--client-id", "--outbox", "--origin"):
        parser.add_argument(name, required=True)
    args = parser.parse_args()
    e = args.endpoint
    email = "mfa@example.com"
    assert call(e, "POST", "/auth/signup", {"email": email, "password": PASSWORD})[0] == 201
    assert call(e, "POST", "/auth/confirm", {"email": email, "code": latest_code(args.outbox, email, "confirm_signup")})[0] == 200
    token = call(e, "POST", "/auth/signin", {"email": email, "password": PASSWORD})[1]["access_token"]

    # A passkey before the app: it will sign in without a second step later.
    authenticator = Authenticator(-7)
    options = call(e, "POST", "/me/passkeys/options", {}, token)[1]
    check(call(e, "POST", "/me/passkeys", authenticator.create(options, args.origin), token)[0] == 201, "a passkey is registered")

    status, enrolment = call(e, "POST", "/me/mfa/totp", {}, token)
    check(status == 200 and enrolment["otpauth_uri"].startswith("otpauth://totp/"), "enrolment answers the secret and its URI")
    parsed = pyotp.parse_uri(enrolment["otpauth_uri"])
    check(parsed.secret == enrolment["secret"] and parsed.digits == 6 and parsed.interval == 30, "pyotp reads the URI")
    totp = pyotp.TOTP(enrolment["secret"])
    code, step = next_code(totp, 0)
    status, confirmed = call(e, "POST", "/me/mfa/totp/verify", {"code": code}, token)
    check(status == 200 and len(confirmed["recovery_codes"]) == 10, "the first code confirms and answers ten recovery codes")
    recovery = confirmed["recovery_codes"]

    # Every first factor now answers the second step.
    status, refused = call(e, "POST", "/auth/signin", {"email": email, "password": PASSWORD})
    check(status == 403 and refused["error"]["code"] == "mfa_required" and refused["error"]["mfa_token"], "a password alone gets mfa_required")
    challenge = refused["error"]["mfa_token"]
    check(call(e, "POST", "/auth/mfa/verify", {"mfa_token": challenge, "code": code})[0] == 400, "the confirming code is not accepted again")
    code, step = next_code(totp, step)
    status, tokens = call(e, "POST", "/auth/mfa/verify", {"mfa_token": challenge, "code": code})
    check(status == 200 and set(claims(tokens["access_token"])["amr"]) == {"pwd", "otp", "mfa"}, f"the second step signs in; amr {status}")
    check(call(e, "POST", "/auth/mfa/verify", {"mfa_token": challenge, "code": code})[0] in (400, 401), "a challenge completes one sign-in")
    second = call(e, "POST", "/auth/signin", {"email": email, "password": PASSWORD})[1]["error"]["mfa_token"]
    check(call(e, "POST", "/auth/mfa/verify", {"mfa_token": second, "code": code})[0] == 400, "a code replayed inside its window is refused")
    check(call(e, "POST", "/auth/mfa/verify", {"mfa_token": second, "code": recovery[0]})[0] == 200, "a recovery code signs in")
    third = call(e, "POST", "/auth/signin", {"email": email, "password": PASSWORD})[1]["error"]["mfa_token"]
    check(call(e, "POST", "/auth/mfa/verify", {"mfa_token": third, "code": recovery[0]})[0] == 400, "a recovery code works once")
    check(call(e, "POST", "/auth/mfa/verify", {"mfa_token": third, "code": "nonsense"})[0] == 400, "a wrong code is refused")

    # Each check below that needs a new code has a user of its own, enrolled as the first was: a user's
    # codes must come from ever later 30-second steps, and two steps (the current one and the next) are
    # at hand at once, so with one user the later checks would wait a minute and a half for the clock.
    # Four verifications of one new code at once (four challenges): one wins.
    racer = "mfa-race@example.com"
    _, racer_totp, racer_step, _ = enrolled(e, args.outbox, racer)
    challenges = [call(e, "POST", "/auth/signin", {"email": racer, "password": PASSWORD})[1]["error"]["mfa_token"] for _ in range(4)]
    code, _ = next_code(racer_totp, racer_step)
    results = []
    threads = [threading.Thread(target=lambda c=c: results.append(call(e, "POST", "/auth/mfa/verify", {"mfa_token": c, "code": code})[0]))
               for c in challenges]
    [t.start() for t in threads]
    [t.join() for t in threads]
    check(sorted(results).count(200) == 1, f"one code, four concurrent verifications, one accepted: {sorted(results)}")

    # A passkey is both factors: no second step, amr says so.
    options = call(e, "POST", "/auth/passkey/options", {})[1]
    status, tokens = call(e, "POST", "/auth/passkey/signin", authenticator.get(options, args.origin))
    check(status == 200 and "mfa" in claims(tokens["id_token"])["amr"], "a passkey signs in without a second step")

    # Cognito's API: the SOFTWARE_TOKEN_MFA challenge, as Amplify and boto3 see it.
    cognito = boto3.client("cognito-idp", region_name="us-east-1", endpoint_url=e,
                           config=Config(signature_version=UNSIGNED, retries={"max_attempts": 1}))
    responder = "mfa-respond@example.com"
    _, responder_totp, responder_step, responder_recovery = enrolled(e, args.outbox, responder)
    answer = cognito.initiate_auth(ClientId=args.client_id, AuthFlow="USER_PASSWORD_AUTH",
                                   AuthParameters={"USERNAME": responder, "PASSWORD": PASSWORD})
    check(answer.get("ChallengeName") == "SOFTWARE_TOKEN_MFA" and answer.get("Session"), "InitiateAuth answers SOFTWARE_TOKEN_MFA")
    code, _ = next_code(responder_totp, responder_step)
    done = cognito.respond_to_auth_challenge(ClientId=args.client_id, ChallengeName="SOFTWARE_TOKEN_MFA", Session=answer["Session"],
                                             ChallengeResponses={"USERNAME": responder, "SOFTWARE_TOKEN_MFA_CODE": code})
    check("AccessToken" in done.get("AuthenticationResult", {}), "RespondToAuthChallenge with the code signs in")
    for session, what in ((answer["Session"], "a spent"), ("forged" + answer["Session"][6:], "a forged")):
        try:  # a recovery code the refusal leaves unspent: the Session is what is refused
            cognito.respond_to_auth_challenge(ClientId=args.client_id, ChallengeName="SOFTWARE_TOKEN_MFA", Session=session,
                                              ChallengeResponses={"USERNAME": responder, "SOFTWARE_TOKEN_MFA_CODE": responder_recovery[0]})
            check(False, f"{what} Session is refused")
        except ClientError as refused:
            error = refused.response["Error"]
            check(error["Code"] == "NotAuthorizedException" and error["Message"] == "Invalid session for the user.",
                  f"{what} Session is refused as Cognito words it: {error}")

    # Cognito's enrolment, for a second user.
    other = "mfa-cognito@example.com"
    cognito.sign_up(ClientId=args.client_id, Username=other, Password=PASSWORD)
    cognito.confirm_sign_up(ClientId=args.client_id, Username=other, ConfirmationCode=latest_code(args.outbox, other, "confirm_signup"))
    access = cognito.initiate_auth(ClientId=args.client_id, AuthFlow="USER_PASSWORD_AUTH",
                                   AuthParameters={"USERNAME": other, "PASSWORD": PASSWORD})["AuthenticationResult"]["AccessToken"]
    secret = cognito.associate_software_token(AccessToken=access)["SecretCode"]
    check(cognito.verify_software_token(AccessToken=access, UserCode=pyotp.TOTP(secret).now())["Status"] == "SUCCESS",
          "AssociateSoftwareToken and VerifySoftwareToken enrol an app")
    cognito.set_user_mfa_preference(AccessToken=access, SoftwareTokenMfaSettings={"Enabled": True, "PreferredMfa": True})
    again = cognito.initiate_auth(ClientId=args.client_id, AuthFlow="USER_PASSWORD_AUTH", AuthParameters={"USERNAME": other, "PASSWORD": PASSWORD})
    check(again.get("ChallengeName") == "SOFTWARE_TOKEN_MFA", "and its sign-ins answer the challenge")

    # Cognito's passkey operations, as Amplify Swift calls them (the same user, who has an app: a passkey needs no code).
    device = Authenticator(-7)
    options = cognito.start_web_authn_registration(AccessToken=access)["CredentialCreationOptions"]
    cognito.complete_web_authn_registration(AccessToken=access, Credential=device.create(options, args.origin))
    listed = cognito.list_web_authn_credentials(AccessToken=access)["Credentials"]
    check(len(listed) == 1 and listed[0]["RelyingPartyId"], f"Start/CompleteWebAuthnRegistration and ListWebAuthnCredentials: {listed}")
    started = cognito.initiate_auth(ClientId=args.client_id, AuthFlow="USER_AUTH",
                                    AuthParameters={"USERNAME": other, "PREFERRED_CHALLENGE": "WEB_AUTHN"})
    check(started.get("ChallengeName") == "WEB_AUTHN", "USER_AUTH with WEB_AUTHN answers the challenge")
    request_options = json.loads(started["ChallengeParameters"]["CREDENTIAL_REQUEST_OPTIONS"])
    signed = cognito.respond_to_auth_challenge(ClientId=args.client_id, ChallengeName="WEB_AUTHN", Session=started["Session"],
                                               ChallengeResponses={"USERNAME": other, "CREDENTIAL": json.dumps(device.get(request_options, args.origin))})
    check("AccessToken" in signed.get("AuthenticationResult", {}), "RespondToAuthChallenge with the assertion signs in")
    cognito.delete_web_authn_credential(AccessToken=access, CredentialId=listed[0]["CredentialId"])
    check(cognito.list_web_authn_credentials(AccessToken=access)["Credentials"] == [], "DeleteWebAuthnCredential")

    # The seed 003 API answers a clear error, not a shape its client cannot read.
    status, compat = call(e, "POST", "/api/v1/auth/signin", {"email": email, "password": PASSWORD})
    check(status == 403 and compat["error"]["code"] == "mfa_required", "the seed 003 sign-in answers mfa_required")

    # Removal needs a current code; then a password signs in alone again.
    remover = "mfa-remove@example.com"
    _, remover_totp, remover_step, remover_recovery = enrolled(e, args.outbox, remover)
    fresh = call(e, "POST", "/auth/mfa/verify", {"mfa_token": call(e, "POST", "/auth/signin", {"email": remover, "password": PASSWORD})[1]["error"]["mfa_token"],
                                                 "code": remover_recovery[1]})[1]["access_token"]
    check(call(e, "DELETE", "/me/mfa/totp", {"code": "000000"}, fresh)[0] == 400, "removal with a wrong code is refused")
    code, _ = next_code(remover_totp, remover_step)
    check(call(e, "DELETE", "/me/mfa/totp", {"code": code}, fresh)[0] == 204, "removal with a current code")
    check(call(e, "POST", "/auth/signin", {"email": remover, "password": PASSWORD})[0] == 200, "and a password signs in alone again")

    print("ALL OK" if not FAILURES else f"{len(FAILURES)} FAILED")
    sys.exit(1 if FAILURES else 0)


if __name__ == "__main__":
    main()
