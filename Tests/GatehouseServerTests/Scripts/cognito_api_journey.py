"""Groups `journey` and `srp_hostile` of cognito_api_clients.py."""

# The standard library, boto3, botocore, requests and pycognito come with the shared helpers.


from cognito_api_support import *  # noqa: F401,F403 (the helpers every group shares)
from cognito_api_gatehouse import *  # noqa: F401,F403

def group_journey(gh, report):
    idp = gh.idp
    address = fresh_address("journey")
    seen = outbox_files(gh.outbox)
    with report.check("journey: SignUp answers unconfirmed with UserSub and masked delivery", fatal=True):
        answer = gh.sign_up(address, PASSWORD, name="Journey User")
        assert answer.get("UserConfirmed") is False, f"UserConfirmed {answer.get('UserConfirmed')!r}"
        sub = answer.get("UserSub", "")
        assert UUID_RE.match(sub), f"UserSub {sub!r} is not a UUID"
        check_delivery(answer.get("CodeDeliveryDetails"), address=address)
    with report.check("journey: sign-in before confirming is UserNotConfirmedException"):
        expect_error("UserNotConfirmedException", gh.password_auth, address, PASSWORD)
    with report.check("journey: confirmation mail arrives with a 6-digit code", fatal=True):
        first_code = latest_code(gh.outbox, address, "confirm_signup", after=seen)
    with report.check("journey: ConfirmSignUp with a wrong code is CodeMismatchException"):
        wrong = f"{(int(first_code) + 1) % 1000000:06d}"
        expect_error("CodeMismatchException", idp.confirm_sign_up, ClientId=gh.client_id,
                     Username=address, ConfirmationCode=wrong)
    code, which = first_code, "first"
    with report.check("journey: ResendConfirmationCode answers CodeDeliveryDetails and mails a new code"):
        answer = idp.resend_confirmation_code(ClientId=gh.client_id, Username=address)
        check_delivery(answer.get("CodeDeliveryDetails"), address=address)
        code, which = latest_code(gh.outbox, address, "confirm_signup", after=seen), "resent"
    with report.check(f"journey: ConfirmSignUp with the {which} code", fatal=True):
        answer = idp.confirm_sign_up(ClientId=gh.client_id, Username=address, ConfirmationCode=code)
        extra = set(answer) - {"ResponseMetadata", "Session"}
        assert not extra, f"unexpected fields {sorted(extra)}"

    with report.check("journey: SRP sign-in with pycognito (no Session sent)", fatal=True):
        tokens = check_auth_result(gh.srp_sign_in(address, PASSWORD), "SRP")
    with report.check("journey: tokens carry the UserSub, client id and token_use"):
        id_claims, access_claims = jwt_claims(tokens["IdToken"]), jwt_claims(tokens["AccessToken"])
        assert id_claims.get("sub") == sub and access_claims.get("sub") == sub, \
            f"sub {id_claims.get('sub')!r}/{access_claims.get('sub')!r}, UserSub {sub}"
        assert id_claims.get("aud") == gh.client_id, f"ID token aud {id_claims.get('aud')!r}"
        assert access_claims.get("client_id") == gh.client_id, f"access token client_id {access_claims.get('client_id')!r}"
        assert (id_claims.get("token_use"), access_claims.get("token_use")) == ("id", "access")
    with report.check("journey: GetUser lists sub, email, email_verified=true and name"):
        user = idp.get_user(AccessToken=tokens["AccessToken"])
        assert user.get("Username"), "no Username"
        attrs = attributes(user)
        assert attrs.get("sub") == sub, f"sub {attrs.get('sub')!r}"
        assert attrs.get("email", "").lower() == address.lower(), f"email {attrs.get('email')!r}"
        assert attrs.get("email_verified") == "true", f"email_verified {attrs.get('email_verified')!r}"
        assert attrs.get("name") == "Journey User", f"name {attrs.get('name')!r}"

    current = tokens  # the newest tokens; a failed refresh leaves the older ones in use
    with report.check("journey: REFRESH_TOKEN_AUTH returns new tokens and a rotated RefreshToken"):
        refreshed = gh.refresh_auth(current["RefreshToken"])
        result = check_auth_result(refreshed, "REFRESH_TOKEN_AUTH", need_refresh=False)
        if result.get("RefreshToken"):
            current = result
        assert result.get("RefreshToken"), "no RefreshToken (Gatehouse rotates refresh tokens)"
        assert result["RefreshToken"] != tokens["RefreshToken"], "RefreshToken was not rotated"
    with report.check("journey: GetTokensFromRefreshToken with the newest token rotates again"):
        previous = current
        answer = idp.get_tokens_from_refresh_token(RefreshToken=current["RefreshToken"], ClientId=gh.client_id)
        result = check_auth_result(answer, "GetTokensFromRefreshToken", need_refresh=False)
        if result.get("RefreshToken"):
            current = result
        assert result.get("RefreshToken"), "no RefreshToken (Gatehouse rotates refresh tokens)"
        assert result["RefreshToken"] not in (previous["RefreshToken"], tokens["RefreshToken"]), \
            "RefreshToken was not rotated"
        idp.get_user(AccessToken=result["AccessToken"])
    with report.check("journey: the newest refresh token works for the next refresh"):
        result = check_auth_result(gh.refresh_auth(current["RefreshToken"]), "REFRESH_TOKEN_AUTH", need_refresh=False)
        current = dict(current, AccessToken=result["AccessToken"], IdToken=result["IdToken"],
                       RefreshToken=result.get("RefreshToken") or current["RefreshToken"])
    access = current["AccessToken"]

    with report.check("journey: UpdateUserAttributes name shows in GetUser"):
        idp.update_user_attributes(AccessToken=access, UserAttributes=[{"Name": "name", "Value": "New Name"}])
        assert attributes(idp.get_user(AccessToken=access)).get("name") == "New Name", "name not updated"

    with report.check("journey: ChangePassword with a wrong PreviousPassword is NotAuthorizedException"):
        expect_error("NotAuthorizedException", idp.change_password, AccessToken=access,
                     PreviousPassword=WRONG_PASSWORD, ProposedPassword=NEW_PASSWORD)
    with report.check("journey: ChangePassword", fatal=True):
        idp.change_password(AccessToken=access, PreviousPassword=PASSWORD, ProposedPassword=NEW_PASSWORD)
    with report.check("journey: the new password signs in with USER_PASSWORD_AUTH", fatal=True):
        session = check_auth_result(gh.password_auth(address, NEW_PASSWORD), "USER_PASSWORD_AUTH")
    with report.check("journey: the new password signs in with SRP"):
        check_auth_result(gh.srp_sign_in(address, NEW_PASSWORD), "SRP")
    with report.check("journey: the old password is refused with the standard message"):
        expect_error("NotAuthorizedException", gh.password_auth, address, PASSWORD, message=WRONG_CREDENTIALS)

    with report.check("journey: GlobalSignOut", fatal=True):
        idp.global_sign_out(AccessToken=session["AccessToken"])
    with report.check("journey: after GlobalSignOut GetUser refuses the access token"):
        expect_error("NotAuthorizedException", idp.get_user, AccessToken=session["AccessToken"])
    with report.check("journey: after GlobalSignOut native GET /me answers 401"):
        answer = gh.native("GET", "/me", token=session["AccessToken"])
        assert answer.status_code == 401, f"GET /me answered {answer.status_code}"
    with report.check("journey: after GlobalSignOut the refresh token is refused (both refresh operations)"):
        expect_error("NotAuthorizedException", gh.refresh_auth, session["RefreshToken"])
        expect_error("NotAuthorizedException", idp.get_tokens_from_refresh_token,
                     RefreshToken=session["RefreshToken"], ClientId=gh.client_id)
    with report.check("journey: tokens from before GlobalSignOut are refused too"):
        expect_error("NotAuthorizedException", idp.get_user, AccessToken=access)

    with report.check("journey: RevokeToken, then the refresh token is refused"):
        signed = check_auth_result(gh.password_auth(address, NEW_PASSWORD))
        answer = idp.revoke_token(Token=signed["RefreshToken"], ClientId=gh.client_id)
        assert set(answer) <= {"ResponseMetadata"}, f"unexpected fields {sorted(answer)}"
        expect_error("NotAuthorizedException", gh.refresh_auth, signed["RefreshToken"])
        expect_error("NotAuthorizedException", idp.get_tokens_from_refresh_token,
                     RefreshToken=signed["RefreshToken"], ClientId=gh.client_id)

    seen = outbox_files(gh.outbox)
    with report.check("journey: ForgotPassword answers CodeDeliveryDetails", fatal=True):
        known = idp.forgot_password(ClientId=gh.client_id, Username=address)
        check_delivery(known.get("CodeDeliveryDetails"), address=address)
    with report.check("journey: ForgotPassword for an unknown address answers the same way"):
        unknown_address = fresh_address("nobody")
        unknown = idp.forgot_password(ClientId=gh.client_id, Username=unknown_address)
        check_delivery(unknown.get("CodeDeliveryDetails"), address=unknown_address)
        shape = lambda r: (sorted(r), sorted(r.get("CodeDeliveryDetails", {})))  # noqa: E731
        assert shape(known) == shape(unknown), f"{shape(known)} != {shape(unknown)}"
    with report.check("journey: reset mail arrives with a 6-digit code", fatal=True):
        reset_code = latest_code(gh.outbox, address, "reset_password", after=seen)
    with report.check("journey: ConfirmForgotPassword with a wrong code is CodeMismatchException"):
        expect_error("CodeMismatchException", idp.confirm_forgot_password, ClientId=gh.client_id,
                     Username=address, ConfirmationCode=f"{(int(reset_code) + 1) % 1000000:06d}",
                     Password=RESET_PASSWORD)
    with report.check("journey: ConfirmForgotPassword", fatal=True):
        idp.confirm_forgot_password(ClientId=gh.client_id, Username=address, ConfirmationCode=reset_code,
                                    Password=RESET_PASSWORD)
    with report.check("journey: the reset password signs in with SRP", fatal=True):
        final = check_auth_result(gh.srp_sign_in(address, RESET_PASSWORD), "SRP")
    with report.check("journey: the password before the reset is refused"):
        expect_error("NotAuthorizedException", gh.password_auth, address, NEW_PASSWORD, message=WRONG_CREDENTIALS)

    with report.check("journey: DeleteUser", fatal=True):
        idp.delete_user(AccessToken=final["AccessToken"])
    with report.check("journey: a deleted user's sign-in is NotAuthorizedException"):
        expect_error("NotAuthorizedException", gh.password_auth, address, RESET_PASSWORD, message=WRONG_CREDENTIALS)
    with report.check("journey: a deleted user's refresh token is refused"):
        expect_error("NotAuthorizedException", gh.refresh_auth, final["RefreshToken"])


def group_srp_hostile(gh, report):
    now = lambda: datetime.datetime.now(datetime.timezone.utc)  # noqa: E731

    def begin(prefix, password=PASSWORD):
        address, _ = gh.new_user(prefix)
        srp = gh.srp(address, password)
        auth_params, challenge = srp_initiate(gh, srp)
        return srp, auth_params, challenge, check_srp_challenge(challenge, strict=False)

    replay = None
    with report.check("srp_hostile: right password (Session echoed when InitiateAuth gave one)"):
        srp, auth_params, challenge, params = begin("srp-right")
        responses = srp.process_challenge(params, auth_params)
        check_auth_result(srp_respond(gh, responses, challenge.get("Session")), "SRP")
        replay = responses
    with report.check("srp_hostile: challenge has SALT, SRP_B (hex), USER_ID_FOR_SRP, USERNAME, strict-base64 SECRET_BLOCK"):
        check_srp_challenge(challenge)
    with report.check("srp_hostile: the same ChallengeResponses replayed is NotAuthorizedException"):
        assert replay is not None, "not run: the right-password sign-in failed"
        expect_error("NotAuthorizedException", srp_respond, gh, replay, message=WRONG_CREDENTIALS)

    with report.check("srp_hostile: wrong password is NotAuthorizedException"):
        srp, auth_params, challenge, params = begin("srp-wrong", WRONG_PASSWORD)
        expect_error("NotAuthorizedException", srp_respond, gh, srp.process_challenge(params, auth_params),
                     message=WRONG_CREDENTIALS)

    with report.check("srp_hostile: SECRET_BLOCK with one byte flipped (signed over it) is NotAuthorizedException"):
        srp, auth_params, challenge, params = begin("srp-tamper")
        block = bytearray(base64.b64decode(params["SECRET_BLOCK"]))
        block[len(block) // 2] ^= 0x01
        tampered = dict(params, SECRET_BLOCK=base64.b64encode(bytes(block)).decode())
        expect_error("NotAuthorizedException", srp_respond, gh, srp.process_challenge(tampered, auth_params),
                     message=WRONG_CREDENTIALS)

    stale_challenge = None
    with report.check("srp_hostile: a TIMESTAMP 10 minutes old (signed over it) is NotAuthorizedException"):
        srp, auth_params, challenge, params = begin("srp-stale")
        stale_challenge = (srp, auth_params, params)
        stale = srp_claim(gh, srp, params, auth_params, now() - datetime.timedelta(minutes=10))
        expect_error("NotAuthorizedException", srp_respond, gh, stale, message=WRONG_CREDENTIALS)
    with report.check("srp_hostile: a fresh challenge signed by this script's own signer with the current TIMESTAMP works"):
        # proves the stale claim was refused for its time, not for a mistake in srp_claim
        assert stale_challenge is not None, "not run: the stale-timestamp step failed before signing"
        srp, _, _ = stale_challenge
        auth_params, challenge = srp_initiate(gh, srp)
        params = check_srp_challenge(challenge, strict=False)
        check_auth_result(srp_respond(gh, srp_claim(gh, srp, params, auth_params, now())), "SRP (own signer)")

    with report.check("srp_hostile: unknown user gets the wrong-password answer"):
        srp = gh.srp(fresh_address("srp-nobody"), PASSWORD)
        try:
            auth_params, challenge = srp_initiate(gh, srp)
        except ClientError as error:
            assert error_code(error) == "NotAuthorizedException", describe(error)
            assert error.response["Error"]["Message"] == WRONG_CREDENTIALS, describe(error)
        else:
            params = check_srp_challenge(challenge, strict=False)
            expect_error("NotAuthorizedException", srp_respond, gh, srp.process_challenge(params, auth_params),
                         message=WRONG_CREDENTIALS)
    with report.check("srp_hostile: unknown user with USER_PASSWORD_AUTH gets the wrong-password answer"):
        expect_error("NotAuthorizedException", gh.password_auth, fresh_address("pw-nobody"), PASSWORD,
                     message=WRONG_CREDENTIALS)
