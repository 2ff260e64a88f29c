#!/usr/bin/env python3
"""Cognito's choice-based sign-in (`USER_AUTH`) as Amplify Swift and boto3 use it, checked with boto3,
pycognito's SRP arithmetic and the software passkey authenticator: `SELECT_CHALLENGE` and its
`AvailableChallenges`, each `ANSWER` (PASSWORD, PASSWORD_SRP, WEB_AUTHN), `PREFERRED_CHALLENGE`, the
second factor after a chosen password, and the hostile cases (a forged, replayed, other user's or other
challenge's Session, an ANSWER not offered, missing parameters, wrong JSON types, concurrent answers).

    cognito_user_auth.py --endpoint URL --client-id ID --pool-id REGION_NAME --outbox DIR --origin ORIGIN

Prints `ok: <what>` per check, `FAIL: <what>: <detail>` per failure, and ALL OK when every check passed.
"""
import concurrent.futures

import pyotp

from cognito_api_support import *  # noqa: F401,F403 (Report, expect_error, check_auth_result, ...)
from cognito_api_gatehouse import Gatehouse, check_srp_challenge, check_wire_error
from passkeys_authenticator import Authenticator

INVALID_SESSION = "Invalid session for the user."
OFFERED = ["PASSWORD", "PASSWORD_SRP", "WEB_AUTHN"]


def user_auth(gh, username, **parameters):
    return gh.idp.initiate_auth(ClientId=gh.client_id, AuthFlow="USER_AUTH", AuthParameters=dict(USERNAME=username, **parameters))


def select(gh, session, **responses):
    return gh.idp.respond_to_auth_challenge(ClientId=gh.client_id, ChallengeName="SELECT_CHALLENGE", Session=session,
                                            ChallengeResponses=responses)


def choice(gh, username):
    started = user_auth(gh, username)
    assert started.get("ChallengeName") == "SELECT_CHALLENGE", f"ChallengeName {started.get('ChallengeName')!r}"
    return started


def srp_finish(gh, srp, auth_params, challenge):
    """pycognito's own process_challenge over the PASSWORD_VERIFIER challenge, answered as Amplify does."""
    params = check_srp_challenge(challenge)
    responses = srp.process_challenge(params, auth_params)
    extra = {"Session": challenge["Session"]} if challenge.get("Session") else {}
    return gh.idp.respond_to_auth_challenge(ClientId=gh.client_id, ChallengeName="PASSWORD_VERIFIER",
                                            ChallengeResponses=responses, **extra)


def group_choice(gh, report, origin):
    alice, alice_sub = gh.new_user("choice-alice")
    bob, _ = gh.new_user("choice-bob")
    device = Authenticator(-7)
    with report.check("Alice registers a passkey through StartWebAuthnRegistration", fatal=True):
        access = check_auth_result(gh.password_auth(alice, PASSWORD))["AccessToken"]
        options = gh.idp.start_web_authn_registration(AccessToken=access)["CredentialCreationOptions"]
        gh.idp.complete_web_authn_registration(AccessToken=access, Credential=device.create(options, origin))

    with report.check("USER_AUTH without PREFERRED_CHALLENGE answers SELECT_CHALLENGE with the pool's choices", fatal=True):
        started = choice(gh, alice)
        assert started.get("AvailableChallenges") == OFFERED, f"AvailableChallenges {started.get('AvailableChallenges')}"
        assert started.get("ChallengeParameters") == {}, f"ChallengeParameters {started.get('ChallengeParameters')}"
        assert 20 <= len(started.get("Session", "")) <= 2048, f"Session of {len(started.get('Session', ''))} characters"
        assert "AuthenticationResult" not in started
    with report.check("an unknown address and one without passkeys get the same choices, shaped the same"):
        for other in ("nobody-" + alice, bob):
            answer = choice(gh, other)
            assert answer["AvailableChallenges"] == OFFERED and sorted(answer) == sorted(started), f"{other}: {sorted(answer)}"
            assert len(answer["Session"]) == len(started["Session"]), "the Session's length tells addresses apart"
    with report.check("PREFERRED_CHALLENGE the pool does not offer (EMAIL_OTP, SMS_OTP) falls back to the choice"):
        for preferred in ("EMAIL_OTP", "SMS_OTP"):
            answer = user_auth(gh, alice, PREFERRED_CHALLENGE=preferred)
            assert answer["ChallengeName"] == "SELECT_CHALLENGE" and answer["AvailableChallenges"] == OFFERED, preferred

    # ANSWER=PASSWORD.
    with report.check("ANSWER PASSWORD with PASSWORD signs in; the tokens are Alice's"):
        result = check_auth_result(select(gh, choice(gh, alice)["Session"], USERNAME=alice, ANSWER="PASSWORD", PASSWORD=PASSWORD))
        claims = jwt_claims(result["AccessToken"])
        assert claims["sub"] == alice_sub and claims["token_use"] == "access", claims
        assert gh.idp.get_user(AccessToken=result["AccessToken"])["Username"], "GetUser takes the access token"
    with report.check("a wrong password and an unknown address answer one refusal"):
        expect_error("NotAuthorizedException", select, gh, choice(gh, alice)["Session"], USERNAME=alice, ANSWER="PASSWORD",
                     PASSWORD=WRONG_PASSWORD, message=WRONG_CREDENTIALS)
        ghost = "nobody-" + alice
        expect_error("NotAuthorizedException", select, gh, choice(gh, ghost)["Session"], USERNAME=ghost, ANSWER="PASSWORD",
                     PASSWORD=PASSWORD, message=WRONG_CREDENTIALS)

    # ANSWER=PASSWORD_SRP, with pycognito's arithmetic.
    with report.check("ANSWER PASSWORD_SRP with SRP_A answers PASSWORD_VERIFIER; pycognito's proof signs in"):
        srp = gh.srp(alice, PASSWORD)
        auth_params = srp.get_auth_params()
        challenge = select(gh, choice(gh, alice)["Session"], USERNAME=alice, ANSWER="PASSWORD_SRP", SRP_A=auth_params["SRP_A"])
        result = check_auth_result(srp_finish(gh, srp, auth_params, challenge))
        assert jwt_claims(result["AccessToken"])["sub"] == alice_sub
    with report.check("the PASSWORD_SRP answer with a wrong password is refused like one"):
        srp = gh.srp(alice, WRONG_PASSWORD)
        auth_params = srp.get_auth_params()
        challenge = select(gh, choice(gh, alice)["Session"], USERNAME=alice, ANSWER="PASSWORD_SRP", SRP_A=auth_params["SRP_A"])
        expect_error("NotAuthorizedException", srp_finish, gh, srp, auth_params, challenge, message=WRONG_CREDENTIALS)
    with report.check("PREFERRED_CHALLENGE PASSWORD_SRP with SRP_A answers PASSWORD_VERIFIER at once; the proof signs in"):
        srp = gh.srp(alice, PASSWORD)
        auth_params = srp.get_auth_params()
        challenge = user_auth(gh, alice, PREFERRED_CHALLENGE="PASSWORD_SRP", SRP_A=auth_params["SRP_A"])
        check_auth_result(srp_finish(gh, srp, auth_params, challenge))
    with report.check("PREFERRED_CHALLENGE PASSWORD with PASSWORD still signs in at once"):
        check_auth_result(user_auth(gh, alice, PREFERRED_CHALLENGE="PASSWORD", PASSWORD=PASSWORD))

    # ANSWER=WEB_AUTHN.
    with report.check("ANSWER WEB_AUTHN answers the passkey challenge; the assertion signs in"):
        challenge = select(gh, choice(gh, alice)["Session"], USERNAME=alice, ANSWER="WEB_AUTHN")
        assert challenge["ChallengeName"] == "WEB_AUTHN", challenge.get("ChallengeName")
        options = json.loads(challenge["ChallengeParameters"]["CREDENTIAL_REQUEST_OPTIONS"])
        assert len(options["allowCredentials"]) == 1, options
        signed = gh.idp.respond_to_auth_challenge(ClientId=gh.client_id, ChallengeName="WEB_AUTHN", Session=challenge["Session"],
                                                  ChallengeResponses={"USERNAME": alice, "CREDENTIAL": json.dumps(device.get(options, origin))})
        assert jwt_claims(check_auth_result(signed)["AccessToken"])["sub"] == alice_sub
    with report.check("WEB_AUTHN chosen for an address without passkeys answers the decoy options"):
        challenge = select(gh, choice(gh, bob)["Session"], USERNAME=bob, ANSWER="WEB_AUTHN")
        options = json.loads(challenge["ChallengeParameters"]["CREDENTIAL_REQUEST_OPTIONS"])
        assert challenge["ChallengeName"] == "WEB_AUTHN" and len(options["allowCredentials"]) == 1, options


def group_second_factor(gh, report):
    carol, _ = gh.new_user("choice-carol")
    with report.check("a chosen password of an account with an authenticator app answers SOFTWARE_TOKEN_MFA", fatal=True):
        access = check_auth_result(gh.password_auth(carol, PASSWORD))["AccessToken"]
        secret = gh.idp.associate_software_token(AccessToken=access)["SecretCode"]
        assert gh.idp.verify_software_token(AccessToken=access, UserCode=pyotp.TOTP(secret).now())["Status"] == "SUCCESS"
        asked = select(gh, choice(gh, carol)["Session"], USERNAME=carol, ANSWER="PASSWORD", PASSWORD=PASSWORD)
        assert asked.get("ChallengeName") == "SOFTWARE_TOKEN_MFA" and asked.get("Session"), sorted(asked)
        assert "AuthenticationResult" not in asked
    with report.check("the MFA Session is no SELECT_CHALLENGE Session, and the reverse"):
        expect_error("NotAuthorizedException", select, gh, asked["Session"], USERNAME=carol, ANSWER="PASSWORD", PASSWORD=PASSWORD,
                     message=INVALID_SESSION)
        expect_error("NotAuthorizedException", gh.idp.respond_to_auth_challenge, ClientId=gh.client_id, ChallengeName="SOFTWARE_TOKEN_MFA",
                     Session=choice(gh, carol)["Session"], ChallengeResponses={"USERNAME": carol, "SOFTWARE_TOKEN_MFA_CODE": "123456"})


def group_hostile(gh, report):
    dave, _ = gh.new_user("choice-dave")
    erin, _ = gh.new_user("choice-erin")
    with report.check("a Session answers once: replayed after a success, it is refused"):
        session = choice(gh, dave)["Session"]
        check_auth_result(select(gh, session, USERNAME=dave, ANSWER="PASSWORD", PASSWORD=PASSWORD))
        expect_error("NotAuthorizedException", select, gh, session, USERNAME=dave, ANSWER="PASSWORD", PASSWORD=PASSWORD,
                     message=INVALID_SESSION)
    with report.check("and after a wrong password too"):
        session = choice(gh, dave)["Session"]
        expect_error("NotAuthorizedException", select, gh, session, USERNAME=dave, ANSWER="PASSWORD", PASSWORD=WRONG_PASSWORD)
        expect_error("NotAuthorizedException", select, gh, session, USERNAME=dave, ANSWER="PASSWORD", PASSWORD=PASSWORD,
                     message=INVALID_SESSION)
    with report.check("another user's Session is refused"):
        expect_error("NotAuthorizedException", select, gh, choice(gh, erin)["Session"], USERNAME=dave, ANSWER="PASSWORD",
                     PASSWORD=PASSWORD, message=INVALID_SESSION)
    with report.check("a forged Session, a tampered one, and an SRP secret block are refused"):
        real = choice(gh, dave)["Session"]
        tampered = real[:-2] + ("A" if real[-2] != "A" else "B") + real[-1]
        block = user_auth(gh, dave, PREFERRED_CHALLENGE="PASSWORD_SRP", SRP_A=gh.srp(dave, PASSWORD).get_auth_params()["SRP_A"])
        for forged in ("x" * 40, "v1." + "A" * 80, tampered, block["ChallengeParameters"]["SECRET_BLOCK"]):
            expect_error("NotAuthorizedException", select, gh, forged, USERNAME=dave, ANSWER="PASSWORD", PASSWORD=PASSWORD,
                         message=INVALID_SESSION)
        check_auth_result(select(gh, real, USERNAME=dave, ANSWER="PASSWORD", PASSWORD=PASSWORD))
    with report.check("an ANSWER not offered, none, or a missing PASSWORD or SRP_A is InvalidParameterException, and spends nothing"):
        session = choice(gh, dave)["Session"]
        for responses in ({"USERNAME": dave, "ANSWER": "SMS_OTP"}, {"USERNAME": dave, "ANSWER": "EMAIL_OTP"},
                          {"USERNAME": dave, "ANSWER": "password"}, {"USERNAME": dave}, {"USERNAME": dave, "ANSWER": "PASSWORD"},
                          {"USERNAME": dave, "ANSWER": "PASSWORD_SRP"}, {"ANSWER": "PASSWORD", "PASSWORD": PASSWORD}):
            expect_error("InvalidParameterException", select, gh, session, **responses)
        check_auth_result(select(gh, session, USERNAME=dave, ANSWER="PASSWORD", PASSWORD=PASSWORD))
    with report.check("SELECT_CHALLENGE without a Session is InvalidParameterException"):
        expect_error("InvalidParameterException", gh.idp.respond_to_auth_challenge, ClientId=gh.client_id,
                     ChallengeName="SELECT_CHALLENGE", ChallengeResponses={"USERNAME": dave, "ANSWER": "PASSWORD", "PASSWORD": PASSWORD})
    with report.check("PREFERRED_CHALLENGE PASSWORD_SRP without SRP_A, or an unknown one, is InvalidParameterException"):
        expect_error("InvalidParameterException", user_auth, gh, dave, PREFERRED_CHALLENGE="PASSWORD_SRP")
        expect_error("InvalidParameterException", user_auth, gh, dave, PREFERRED_CHALLENGE="MAGIC_LINK")
        expect_error("InvalidParameterException", gh.idp.initiate_auth, ClientId=gh.client_id, AuthFlow="USER_AUTH", AuthParameters={})
    with report.check("wrong JSON types are SerializationException"):
        session = choice(gh, dave)["Session"]
        for body in ({"ChallengeResponses": {"USERNAME": dave, "ANSWER": 5}, "Session": session},
                     {"ChallengeResponses": {"USERNAME": dave, "ANSWER": "PASSWORD", "PASSWORD": PASSWORD}, "Session": 7},
                     {"ChallengeResponses": ["ANSWER", "PASSWORD"], "Session": session}):
            body.update(ClientId=gh.client_id, ChallengeName="SELECT_CHALLENGE")
            check_wire_error(gh.raw("RespondToAuthChallenge", body), "SerializationException")
        body = {"ClientId": gh.client_id, "AuthFlow": "USER_AUTH", "AuthParameters": {"USERNAME": dave, "PREFERRED_CHALLENGE": ["PASSWORD"]}}
        check_wire_error(gh.raw("InitiateAuth", body), "SerializationException")
        check_auth_result(select(gh, session, USERNAME=dave, ANSWER="PASSWORD", PASSWORD=PASSWORD))
    with report.check("one Session answered eight times at once signs in once"):
        session = choice(gh, dave)["Session"]

        def attempt(_):
            try:
                select(gh, session, USERNAME=dave, ANSWER="PASSWORD", PASSWORD=PASSWORD)
                return "signed in"
            except ClientError as error:
                return error_code(error)
        with concurrent.futures.ThreadPoolExecutor(max_workers=8) as pool:
            outcomes = sorted(pool.map(attempt, range(8)))
        assert outcomes.count("signed in") == 1 and outcomes.count("NotAuthorizedException") == 7, outcomes


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    for name in ("--endpoint", "--client-id", "--pool-id", "--outbox", "--origin"):
        parser.add_argument(name, required=True)
    args = parser.parse_args()
    report = Report()
    gh = Gatehouse(args.endpoint, args.client_id, args.pool_id, args.outbox, report)
    for name, group in (("choice", lambda: group_choice(gh, report, args.origin)), ("second factor", lambda: group_second_factor(gh, report)),
                        ("hostile", lambda: group_hostile(gh, report))):
        try:
            group()
        except GroupAbort as abort:
            print(f"   ({name}: stopped after `{abort}` failed)", flush=True)
        except Exception as error:  # noqa: BLE001
            report.fail(f"{name}: unexpected error", describe(error))
    if report.failures:
        print(f"{len(report.failures)} check(s) failed, {report.passed} passed", flush=True)
        return 1
    print(f"{report.passed} checks passed")
    print("ALL OK", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
