"""The authorization server driven by clients no one here wrote: Authlib's OAuth 2 client (the code flow
with PKCE, the refresh grant, ID-token validation) and plain `requests` for what a client must never be
able to do. The OpenID Foundation's Basic-OP modules this covers are named where they are checked.
"""
import html
import re
import secrets
import time
import urllib.parse

import jwt as pyjwt_module
import requests
from authlib.integrations.requests_client import OAuth2Session
import warnings

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from authlib.jose import JsonWebKey, jwt
from authlib.oidc.core import CodeIDToken

from hosted_ui_harness import APP_CALLBACK, CALLBACK, CLIENT_ID, SIGNOUT, check, pkce, query_of

PASSWORD = "correct horse 9"


def discovery(server):
    """oidcc-discovery-endpoint-verification."""
    doc = requests.get(server.url + "/.well-known/openid-configuration", timeout=10).json()
    check(doc["issuer"] == server.url, doc)
    for name, path in [("authorization_endpoint", "/oauth2/authorize"), ("token_endpoint", "/oauth2/token"),
                       ("userinfo_endpoint", "/oauth2/userInfo"), ("revocation_endpoint", "/oauth2/revoke")]:
        check(doc[name] == server.url + path, f"{name}: {doc.get(name)}")
    check(doc["response_types_supported"] == ["code"] and doc["code_challenge_methods_supported"] == ["S256"], doc)
    check({"authorization_code", "refresh_token"} <= set(doc["grant_types_supported"]), doc)
    return doc


def sign_up(server, email, name="Hosted User"):
    status, _ = server.post("/auth/signup", {"email": email, "password": PASSWORD, "full_name": name})
    check(status == 201, f"sign-up {status}")
    status, _ = server.post("/auth/confirm", {"email": email, "code": server.code("confirm_signup", email)})
    check(status == 200, f"confirm {status}")


def form_fields(page_html):
    """The hidden fields of a page's first form (the request it carries and its CSRF token)."""
    form = re.search(r"<form[^>]*>(.*?)</form>", page_html, re.S).group(1)
    return {html.unescape(n): html.unescape(v) for n, v in re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form)}


def client(server, redirect_uri=CALLBACK, scope="openid email profile"):
    return OAuth2Session(CLIENT_ID, redirect_uri=redirect_uri, scope=scope, code_challenge_method="S256",
                         token_endpoint_auth_method="none")


def authorize(server, browser, oauth, verifier, **extra):
    """Authlib's authorization URL, followed as a browser would; returns (response, state)."""
    url, state = oauth.create_authorization_url(server.url + "/oauth2/authorize", code_verifier=verifier, **extra)
    return browser.get(url, allow_redirects=False, timeout=10), state


def sign_in_through_form(server, browser, login_location, email, password=PASSWORD):
    page = browser.get(urllib.parse.urljoin(server.url, login_location), timeout=10)
    check(page.status_code == 200 and 'id="form-signin"' in page.text, f"login page {page.status_code}")
    fields = form_fields(page.text)
    check("csrf" in fields, "the form carries a CSRF token")
    return browser.post(server.url + "/login", data=dict(fields, email=email, password=password), allow_redirects=False, timeout=10)


def code_flow(server, email, nonce=True):
    """The whole Amplify sequence without a browser: authorize, the form, the code back, the exchange."""
    browser = requests.Session()
    oauth = client(server)
    verifier, _ = pkce()
    extra = {"nonce": secrets.token_urlsafe(12)} if nonce else {}
    first, state = authorize(server, browser, oauth, verifier, **extra)
    check(first.status_code == 302 and first.headers["Location"].startswith("/login?"), f"authorize {first.status_code} {first.headers}")
    done = sign_in_through_form(server, browser, first.headers["Location"], email)
    location = done.headers.get("Location", "")
    check(done.status_code == 302 and location.startswith(CALLBACK + "?"), f"sign-in {done.status_code} {location} {done.text[:300]}")
    check(query_of(location)["state"] == state, "state round-trips")
    token = oauth.fetch_token(server.url + "/oauth2/token", authorization_response=location, code_verifier=verifier)
    return browser, oauth, token, location, verifier, extra.get("nonce")


def validate_id_token(server, token, nonce):
    """oidcc-idtoken-rs256, oidcc-idtoken-signature: Authlib's own checks (iss, aud, exp, nonce)."""
    keys = JsonWebKey.import_key_set(requests.get(server.url + "/.well-known/jwks.json", timeout=10).json())
    claims = jwt.decode(token["id_token"], keys, claims_cls=CodeIDToken,
                        claims_options={"iss": {"value": server.url}, "aud": {"value": CLIENT_ID}},
                        claims_params={"nonce": nonce, "client_id": CLIENT_ID})
    claims.validate()
    check(claims.header["alg"] == "RS256", claims.header)
    return claims


def token_error(response, error, status=400):
    body = response.json()
    check(response.status_code == status and body.get("error") == error, f"wanted {status} {error}: {response.status_code} {body}")
    check(response.headers.get("Cache-Control") == "no-store", "token answers are not cached")


def journey(server, google):
    discovery(server)
    email = "oidc@example.com"
    sign_up(server, email)
    browser, oauth, token, location, verifier, nonce = code_flow(server, email)
    for name in ("id_token", "access_token", "refresh_token"):
        check(token.get(name), f"Amplify needs {name}: {token}")
    check(isinstance(token["expires_in"], int) and token["token_type"] == "Bearer", token)
    claims = validate_id_token(server, token, nonce)
    check(claims["email"] == email and claims["nonce"] == nonce, claims)

    # oidcc-userinfo-get, oidcc-userinfo-post-header.
    bearer = {"Authorization": "Bearer " + token["access_token"]}
    info = requests.get(server.url + "/oauth2/userInfo", headers=bearer, timeout=10)
    check(info.status_code == 200 and info.json()["sub"] == claims["sub"] and info.json()["email"] == email, info.text)
    check(requests.post(server.url + "/oauth2/userInfo", headers=bearer, timeout=10).json()["sub"] == claims["sub"], "userinfo by POST")
    check(requests.get(server.url + "/oauth2/userInfo", timeout=10).status_code == 401, "userinfo needs a token")

    # The refresh grant, through Authlib; the rotated-out token is refused afterwards.
    old_refresh = token["refresh_token"]
    refreshed = oauth.refresh_token(server.url + "/oauth2/token", refresh_token=old_refresh)
    check(refreshed["access_token"] != token["access_token"] and refreshed["refresh_token"] != old_refresh, refreshed)

    # oidcc-codereuse: the second use is refused and ends what the first use issued.
    code = query_of(location)["code"]
    again = requests.post(server.url + "/oauth2/token", timeout=10, data={
        "grant_type": "authorization_code", "client_id": CLIENT_ID, "code": code, "redirect_uri": CALLBACK, "code_verifier": verifier})
    token_error(again, "invalid_grant")
    after = requests.post(server.url + "/oauth2/token", timeout=10, data={
        "grant_type": "refresh_token", "client_id": CLIENT_ID, "refresh_token": refreshed["refresh_token"]})
    token_error(after, "invalid_grant")
    # ... and the browser's hosted session with it: prompt=none now needs a sign-in.
    silent, _ = authorize(server, browser, client(server), pkce()[0], prompt="none")
    check(query_of(silent.headers["Location"]).get("error") == "login_required", silent.headers)

    # oidcc-ensure-request-without-nonce-succeeds-for-code-flow.
    browser, oauth, token, location, verifier, _ = code_flow(server, email, nonce=False)
    check("nonce" not in validate_id_token(server, token, None), "no nonce asked, none carried")

    # Single sign-on and oidcc-prompt-none-logged-in: a second authorize in the same browser skips the form.
    sso, state = authorize(server, browser, client(server), pkce()[0], prompt="none")
    check(sso.status_code == 302 and query_of(sso.headers["Location"]).get("code") and query_of(sso.headers["Location"])["state"] == state,
          f"SSO: {sso.headers}")

    # Revocation (RFC 7009) ends the session: the refresh token and the hosted session with it.
    revoked = requests.post(server.url + "/oauth2/revoke", data={"token": token["refresh_token"], "client_id": CLIENT_ID}, timeout=10)
    check(revoked.status_code == 200, revoked.text)
    token_error(requests.post(server.url + "/oauth2/token", timeout=10, data={
        "grant_type": "refresh_token", "client_id": CLIENT_ID, "refresh_token": token["refresh_token"]}), "invalid_grant")
    check(requests.post(server.url + "/oauth2/revoke", data={"token": "nonsense", "client_id": CLIENT_ID}, timeout=10).status_code == 200,
          "an unknown token is answered 200 (RFC 7009 §2.2)")

    # Logout: only to a registered URI; afterwards the browser signs in again.
    browser, oauth, token, location, verifier, _ = code_flow(server, email)
    evil = browser.get(server.url + "/logout", params={"client_id": CLIENT_ID, "logout_uri": "https://evil.example/"}, allow_redirects=False)
    check(evil.status_code == 400 and "Location" not in evil.headers, "an unregistered logout_uri is never a redirect")
    out = browser.get(server.url + "/logout", params={"client_id": CLIENT_ID, "logout_uri": SIGNOUT}, allow_redirects=False)
    check(out.status_code == 302 and out.headers["Location"] == SIGNOUT, out.headers)
    silent, _ = authorize(server, browser, client(server), pkce()[0], prompt="none")
    check(query_of(silent.headers["Location"]).get("error") == "login_required", "logout ended the hosted session")
    token_error(requests.post(server.url + "/oauth2/token", timeout=10, data={
        "grant_type": "refresh_token", "client_id": CLIENT_ID, "refresh_token": token["refresh_token"]}), "invalid_grant")

    # A custom-scheme redirect URI, as the native apps register.
    native = requests.Session()
    oauth = client(server, redirect_uri=APP_CALLBACK)
    verifier, _ = pkce()
    first, _ = authorize(server, native, oauth, verifier)
    done = sign_in_through_form(server, native, first.headers["Location"], email)
    check(done.headers["Location"].startswith(APP_CALLBACK + "?code="), done.headers)
    check(oauth.fetch_token(server.url + "/oauth2/token", authorization_response=done.headers["Location"].replace(
        APP_CALLBACK, "https://unused.example/cb"), code_verifier=verifier).get("id_token"), "custom-scheme exchange")

    google_flow(server, google)
    print("protocol journey: OK")


def google_flow(server, google):
    """identity_provider=Google: our state and nonce at Google, the code exchanged server-side, the app's request finished."""
    browser = requests.Session()
    oauth = client(server)
    verifier, _ = pkce()
    start, state = authorize(server, browser, oauth, verifier, identity_provider="Google", nonce="app-nonce-1")
    at_google = start.headers["Location"]
    check(start.status_code == 302 and at_google.startswith(google.url + "/o/oauth2/v2/auth?"), start.headers)
    sent = query_of(at_google)
    check(sent["state"] != state and state not in at_google, "the app's state never goes to Google")
    check(sent["redirect_uri"] == server.url + "/oauth2/idpresponse" and sent["client_id"], sent)
    back = browser.get(at_google, allow_redirects=False, timeout=10).headers["Location"]
    finish = browser.get(back, allow_redirects=False, timeout=10)
    location = finish.headers.get("Location", "")
    check(finish.status_code == 302 and location.startswith(CALLBACK + "?"), f"{finish.status_code} {finish.text[:300]}")
    token = oauth.fetch_token(server.url + "/oauth2/token", authorization_response=location, code_verifier=verifier)
    claims = validate_id_token(server, token, "app-nonce-1")
    check(claims["email"] == google.user["email"] and claims["email_verified"] is True, claims)

    # The same answer again (replayed), or in another browser (no binding cookie), or forged: an error page, no redirect.
    replay = browser.get(back, allow_redirects=False, timeout=10)
    check(replay.status_code == 400 and "Location" not in replay.headers, f"replayed state: {replay.status_code}")
    start, _ = authorize(server, browser, oauth, pkce()[0], identity_provider="Google")
    other = requests.get(requests.get(start.headers["Location"], allow_redirects=False).headers["Location"], allow_redirects=False)
    check(other.status_code == 400 and "another browser" in other.text and "Location" not in other.headers, other.text[:300])
    forged = browser.get(server.url + "/oauth2/idpresponse", params={"code": "x", "state": "v1.forged"}, allow_redirects=False)
    check(forged.status_code == 400 and "Location" not in forged.headers, "forged state")
    print("Google by redirect: OK")


def apple_flow(server, apple):
    """identity_provider=SignInWithApple: Apple's form post to /oauth2/idpresponse finishes the app's request."""
    oauth = client(server)
    verifier, _ = pkce()
    start, state = authorize(server, requests.Session(), oauth, verifier, identity_provider="SignInWithApple", nonce="app-nonce-2")
    at_apple = start.headers["Location"]
    check(start.status_code == 302 and at_apple.startswith(apple.url + "/auth/authorize?") and state not in at_apple, start.headers)
    sent = query_of(at_apple)
    check(sent["redirect_uri"] == server.url + "/oauth2/idpresponse" and sent["response_mode"] == "form_post", sent)
    set_cookie = start.headers["Set-Cookie"]
    check("SameSite=None" in set_cookie and "Secure" in set_cookie, f"Apple posts cross-site: {set_cookie}")
    binding = set_cookie.split(";")[0]
    fields = apple.answer(sent)
    target = fields.pop("_to")
    # Posted in another browser (no binding cookie): a page, and the state is not spent.
    other = requests.post(target, data=fields, allow_redirects=False, timeout=10)
    check(other.status_code == 400 and "Location" not in other.headers, f"other browser: {other.status_code}")
    done = requests.post(target, data=fields, headers={"Cookie": binding}, allow_redirects=False, timeout=10)
    location = done.headers.get("Location", "")
    check(done.status_code == 302 and location.startswith(CALLBACK + "?"), f"{done.status_code} {done.text[:300]}")
    token = oauth.fetch_token(server.url + "/oauth2/token", authorization_response=location, code_verifier=verifier)
    claims = validate_id_token(server, token, "app-nonce-2")
    check(claims["email"] == apple.user["email"] and claims.get("name") == "Ann Apple", f"the name Apple posts once is kept: {claims}")
    me = requests.get(server.url + "/me", headers={"Authorization": "Bearer " + token["access_token"]}, timeout=10).json()
    entry = next((i for i in me.get("identities", []) if i["provider"] == "apple"), {})
    check(entry.get("is_private_email") is True and "email_forwarding" not in entry, f"the hosted UI writes Apple's relay flag: {me}")
    replay = requests.post(target, data=fields, headers={"Cookie": binding}, allow_redirects=False, timeout=10)
    check(replay.status_code == 400 and "Location" not in replay.headers, "a replayed answer")

    # A token Apple did not sign goes back to the app as access_denied, with the app's state.
    start, state = authorize(server, requests.Session(), client(server), pkce()[0], identity_provider="SignInWithApple")
    fields = apple.answer(query_of(start.headers["Location"]))
    header, payload, _ = fields["id_token"].split(".")
    fields["id_token"] = f"{header}.{payload}.{'A' * 342}"
    forged = requests.post(fields.pop("_to"), data=fields, headers={"Cookie": start.headers["Set-Cookie"].split(";")[0]},
                           allow_redirects=False, timeout=10)
    answer = query_of(forged.headers.get("Location", ""))
    check(answer.get("error") == "access_denied" and answer.get("state") == state, f"forged Apple token: {forged.headers}")
    print("Apple by redirect: OK")


def google_with_second_factor(server, google):
    """An account with an authenticator app that signs in at Google gets the code page, then the code back."""
    import pyotp

    original = google.user
    google.user = dict(original, sub="google-sub-2", email="gwen@gmail.com", name="Gwen Google")  # an account of its own
    try:
        second_factor_at_google(server, google, pyotp)
    finally:
        google.user = original
    print("Google with a second factor: OK")


def second_factor_at_google(server, google, pyotp):
    browser = requests.Session()
    oauth = client(server)
    verifier, _ = pkce()
    start, state = authorize(server, browser, oauth, verifier, identity_provider="Google")
    back = browser.get(start.headers["Location"], allow_redirects=False, timeout=10).headers["Location"]
    location = browser.get(back, allow_redirects=False, timeout=10).headers["Location"]
    token = oauth.fetch_token(server.url + "/oauth2/token", authorization_response=location, code_verifier=verifier)
    bearer = {"Authorization": "Bearer " + token["access_token"]}
    secret = requests.post(server.url + "/me/mfa/totp", headers=bearer, timeout=10).json()["secret"]
    totp = pyotp.TOTP(secret)
    check(requests.post(server.url + "/me/mfa/totp/verify", json={"code": totp.now()}, headers=bearer, timeout=10).status_code == 200,
          "Gwen confirms an authenticator app")

    browser = requests.Session()
    verifier, _ = pkce()
    start, state = authorize(server, browser, oauth, verifier, identity_provider="Google")
    back = browser.get(start.headers["Location"], allow_redirects=False, timeout=10).headers["Location"]
    asked = browser.get(back, allow_redirects=False, timeout=10)
    check(asked.status_code == 200 and 'id="form-mfa"' in asked.text, f"Google then the code page: {asked.status_code}")
    fields = form_fields(asked.text)
    fields["mfa_token"] = html.unescape(re.search(r'name="mfa_token" value="([^"]+)"', asked.text).group(1))
    code = totp.at(int(time.time()) + 30)  # the next step: the confirming code was accepted once
    done = browser.post(server.url + "/mfa", data=dict(fields, code=code), allow_redirects=False, timeout=10)
    check(done.status_code == 302 and query_of(done.headers["Location"]).get("state") == state, f"the code finishes it: {done.status_code}")
    token = oauth.fetch_token(server.url + "/oauth2/token", authorization_response=done.headers["Location"], code_verifier=verifier)
    check("otp" in pyjwt_module.decode(token["id_token"], options={"verify_signature": False})["amr"], "amr says the second factor")
