"""What a client, a page or an attacker must not get out of the authorization server: open redirects,
unregistered URIs, missing or wrong PKCE, a code for another redirect URI, scripts in echoed
parameters, forms without their CSRF token, and malformed token requests. Each gets a clear answer and
changes nothing.
"""
import requests

from hosted_ui_harness import CALLBACK, CLIENT_ID, check, pkce, query_of
from hosted_ui_protocol import PASSWORD, authorize, client, form_fields, sign_in_through_form, sign_up, token_error


def authorize_raw(server, **params):
    return requests.get(server.url + "/oauth2/authorize", params=params, allow_redirects=False, timeout=10)


def refusals(server):
    verifier, challenge = pkce()
    good = {"response_type": "code", "client_id": CLIENT_ID, "redirect_uri": CALLBACK, "code_challenge": challenge,
            "code_challenge_method": "S256", "state": "s1"}

    # oidcc-ensure-registered-redirect-uri: an unknown client or redirect URI is a page, never a redirect.
    for bad in [dict(good, client_id="other"), dict(good, redirect_uri="https://evil.example/cb"),
                dict(good, redirect_uri=CALLBACK + "/../evil"), {k: v for k, v in good.items() if k != "redirect_uri"}]:
        answer = authorize_raw(server, **bad)
        check(answer.status_code == 400 and "Location" not in answer.headers, f"{bad}: {answer.status_code} {answer.headers}")
        check("frame-ancestors 'none'" in answer.headers["Content-Security-Policy"], "error pages cannot be framed")

    # Everything else goes back to the registered URI, with the state.
    for bad, error in [(dict(good, response_type="token"), "unsupported_response_type"),
                       ({k: v for k, v in good.items() if k != "response_type"}, "invalid_request"),
                       ({k: v for k, v in good.items() if k != "code_challenge"}, "invalid_request"),
                       (dict(good, code_challenge_method="plain"), "invalid_request"),
                       (dict(good, code_challenge="short"), "invalid_request"),
                       (dict(good, scope="openid admin"), "invalid_scope"),
                       (dict(good, prompt="consent"), "invalid_request"),
                       (dict(good, identity_provider="Facebook"), "invalid_request"),
                       (dict(good, prompt="none"), "login_required")]:
        answer = authorize_raw(server, **bad)
        target = answer.headers.get("Location", "")
        check(answer.status_code == 302 and target.startswith(CALLBACK + "?"), f"{bad}: {answer.status_code}")
        check(query_of(target).get("error") == error and query_of(target).get("state") == "s1", f"{bad}: {target}")

    # A parameter sent twice is refused (RFC 6749 §3.1).
    twice = requests.get(server.url + "/oauth2/authorize?" + requests.compat.urlencode(good) + "&state=s2", allow_redirects=False)
    check(query_of(twice.headers["Location"]).get("error") == "invalid_request", twice.headers)

    # Scripts in every echoed parameter are escaped on the page.
    script = '"><script>alert(1)</script>'
    page = requests.get(server.url + "/login", params=dict(good, state=script, login_hint=script, nonce="n"), timeout=10)
    check(page.status_code == 200 and "<script>" not in page.text and "&lt;script&gt;" in page.text, "echoed values are escaped")
    check("script-src 'none'" in page.headers["Content-Security-Policy"], page.headers["Content-Security-Policy"])
    print("authorize refusals: OK")


def codes(server):
    email = "codes@example.com"
    sign_up(server, email)
    browser = requests.Session()
    oauth = client(server)
    verifier, _ = pkce()
    first, _ = authorize(server, browser, oauth, verifier)
    code = query_of(sign_in_through_form(server, browser, first.headers["Location"], email).headers["Location"])["code"]
    base = {"grant_type": "authorization_code", "client_id": CLIENT_ID, "code": code, "redirect_uri": CALLBACK}
    post = lambda data, **kw: requests.post(server.url + "/oauth2/token", data=data, timeout=10, **kw)

    token_error(post(dict(base, code_verifier=pkce()[0])), "invalid_grant")                          # a wrong verifier
    token_error(post(base), "invalid_request")                                                       # none
    token_error(post(dict(base, code_verifier=verifier, redirect_uri=CALLBACK + "x")), "invalid_grant")  # another redirect URI
    token_error(post(dict(base, code_verifier=verifier, client_id="other")), "invalid_client", 401)  # another client
    token_error(post(dict(base, code_verifier=verifier, code=code[:-4] + "AAAA")), "invalid_grant")  # altered
    token_error(post(dict(base, code_verifier=verifier, grant_type="password")), "unsupported_grant_type")
    token_error(post({"grant_type": "authorization_code", "code": code}), "invalid_client", 401)
    token_error(post(dict(base, code_verifier=verifier), auth=(CLIENT_ID, "a-secret")), "invalid_client", 401)
    token_error(requests.post(server.url + "/oauth2/token", json=dict(base, code_verifier=verifier), timeout=10), "invalid_request")
    token_error(post("grant_type=authorization_code&grant_type=refresh_token",
                     headers={"Content-Type": "application/x-www-form-urlencoded"}), "invalid_request")
    # None of those spent the code: the right request still redeems it, once, with HTTP Basic's client id.
    good = post(dict(base, code_verifier=verifier, client_id=None), auth=(CLIENT_ID, ""))
    check(good.status_code == 200 and good.json().get("id_token"), good.text)
    token_error(post(dict(base, code_verifier=verifier)), "invalid_grant")
    print("code redemption refusals: OK")


def forms(server):
    email = "forms@example.com"
    sign_up(server, email)
    browser = requests.Session()
    first, _ = authorize(server, browser, client(server), pkce()[0])
    page = browser.get(server.url + first.headers["Location"], timeout=10)
    fields = dict(form_fields(page.text), email=email, password=PASSWORD)

    # CSRF: without the token, with another browser's token, or from a browser without the cookie.
    for data, session in [({k: v for k, v in fields.items() if k != "csrf"}, browser), (dict(fields, csrf="x" * 43), browser),
                          (fields, requests.Session())]:
        answer = session.post(server.url + "/login", data=data, allow_redirects=False, timeout=10)
        check(answer.status_code == 403 and "Location" not in answer.headers, f"CSRF: {answer.status_code}")
    # A form whose carried request was altered to another redirect URI is refused as authorize would.
    answer = browser.post(server.url + "/login", data=dict(fields, redirect_uri="https://evil.example/cb"), allow_redirects=False)
    check(answer.status_code == 400 and "Location" not in answer.headers, "altered redirect URI in a form")
    # A wrong password is the API's answer and wording, on the same form.
    wrong = browser.post(server.url + "/login", data=dict(fields, password="wrong horse 9"), allow_redirects=False, timeout=10)
    check(wrong.status_code == 401 and "Incorrect email or password." in wrong.text and 'role="alert"' in wrong.text, wrong.status_code)
    unknown = browser.post(server.url + "/login", data=dict(fields, email="nobody@example.com"), allow_redirects=False, timeout=10)
    check(unknown.status_code == 401 and "Incorrect email or password." in unknown.text, "unknown addresses read the same")
    check(browser.post(server.url + "/login", data=fields, allow_redirects=False, timeout=10).status_code == 302, "then the right one")
    print("form refusals: OK")


def run(server):
    refusals(server)
    codes(server)
    forms(server)
