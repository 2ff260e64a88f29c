"""Passkeys on the hosted sign-in page (run by test_hosted_ui.py): headless Chromium with its virtual authenticator
standing in for the device, Authlib's OAuth 2 client exchanging the code the page sends back, and `requests` with a
software authenticator (Tests/GatehouseServerTests/Scripts/passkeys_authenticator.py) for what a browser cannot be
made to send.

The server runs with GATEHOUSE_ISSUER=http://localhost:<port> and GATEHOUSE_PASSKEY_RP_ID=localhost, so the hosted
pages' origin is the issuer's and passkeys are offered on them (an RP id must be a domain, and localhost is a secure
context over plain HTTP). A passkey is registered through the API with the software authenticator, and its key put
into the virtual authenticator, so the browser signs in with a credential the server verified at registration.

browser_journey: autofill (conditional mediation: the virtual authenticator answers a conditional request at once, as
a user picking the passkey in the email field's suggestions would) signs in and sends the browser back to the app with
a code; a cancelled ceremony shows nothing; the "Sign in with a passkey" button signs in; a passkey the server does not
know is refused on the page, which then does not offer autofill again; the page's policy is honoured (no violation in
the console). Without JavaScript the passkey controls stay hidden.

hostile: an assertion replayed, for a registration challenge, of the registration type or from another origin; a form
without its CSRF token or without the app's authorization request; a credential that is not JSON: each refused, none
a redirect, and a refusal before verification spends nothing. off: without passkeys the page has no passkey controls,
no script, and /login/passkey is not served.
"""
import base64
import json
import os
import sys
import time
import urllib.parse

import requests
from authlib.integrations.requests_client import OAuth2Session
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from selenium.webdriver.common.by import By
from selenium.webdriver.common.virtual_authenticator import Credential, VirtualAuthenticatorOptions
from selenium.webdriver.support import expected_conditions as EC

from hosted_ui_harness import CALLBACK, CLIENT_ID, SIGNOUT, browser, check, free_port, pkce, query_of
from hosted_ui_protocol import form_fields
from web_harness import Page, Server

SCRIPTS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "GatehouseServerTests", "Scripts")
sys.path.insert(0, SCRIPTS)
from passkeys_authenticator import Authenticator, unb64  # noqa: E402

EMAIL, PASSWORD = "hosted-passkey@example.com", "correct horse 9"
REFUSED = "The passkey could not be verified."


def passkey_server():
    port = free_port()
    server = Server({
        "GATEHOUSE_HTTP_PORT": str(port), "GATEHOUSE_ISSUER": f"http://localhost:{port}",
        "GATEHOUSE_HOSTED_UI": "true", "GATEHOUSE_CLIENT_ID": CLIENT_ID,
        "GATEHOUSE_CALLBACK_URLS": CALLBACK, "GATEHOUSE_SIGNOUT_URLS": SIGNOUT,
        "GATEHOUSE_PASSKEY_RP_ID": "localhost",  # the accepted origin defaults to the issuer's
    })
    server.url = f"http://localhost:{port}"
    return server


def oauth_client():
    return OAuth2Session(CLIENT_ID, redirect_uri=CALLBACK, scope="openid email profile", code_challenge_method="S256",
                         token_endpoint_auth_method="none")


def account(server):
    """A confirmed account with one passkey, registered through the API by the software authenticator; returns its
    sub, the authenticator, and the credential as the virtual authenticator takes it."""
    check(server.post("/auth/signup", {"email": EMAIL, "password": PASSWORD})[0] == 201, "sign-up")
    check(server.post("/auth/confirm", {"email": EMAIL, "code": server.code("confirm_signup", EMAIL)})[0] == 200, "confirmation")
    token = server.post("/auth/signin", {"email": EMAIL, "password": PASSWORD})[1]["access_token"]
    bearer = {"Authorization": "Bearer " + token}
    options = requests.post(server.url + "/me/passkeys/options", json={}, headers=bearer, timeout=10).json()
    device = Authenticator(-7)
    registered = requests.post(server.url + "/me/passkeys", json=device.create(options, server.url), headers=bearer, timeout=10)
    check(registered.status_code == 201, f"the passkey is registered: {registered.status_code} {registered.text[:200]}")
    credential_id, (key, _, handle, _) = next(iter(device.credentials.items()))
    der = key.private_bytes(serialization.Encoding.DER, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    # The browser's copy counts on from 100: the software authenticator's own assertions stay below it.
    resident = Credential.create_resident_credential(credential_id, "localhost", unb64(handle), der, 100)
    sub = requests.get(server.url + "/me", headers=bearer, timeout=10).json()["sub"]
    return sub, device, resident, bearer


def stranger_credential():
    """A passkey for localhost the server has never seen."""
    key = ec.generate_private_key(ec.SECP256R1())
    der = key.private_bytes(serialization.Encoding.DER, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    return Credential.create_resident_credential(os.urandom(32), "localhost", b"stranger", der, 0)


class PasskeyBrowser:
    def __init__(self, server):
        self.server = server
        self.page = Page(server)  # with the browser log, for the policy's violations
        self.driver, self.wait = self.page.driver, self.page.wait
        self.driver.add_virtual_authenticator(VirtualAuthenticatorOptions(
            protocol=VirtualAuthenticatorOptions.Protocol.CTAP2.value, transport=VirtualAuthenticatorOptions.Transport.INTERNAL.value,
            has_resident_key=True, has_user_verification=True, is_user_verified=True))

    def start(self):
        oauth, (verifier, _) = oauth_client(), pkce()
        url, state = oauth.create_authorization_url(self.server.url + "/oauth2/authorize", code_verifier=verifier)
        self.driver.get(url)
        return oauth, verifier, state

    def exchange(self, oauth, verifier, state):
        self.wait.until(lambda d: d.current_url.startswith(CALLBACK))
        location = self.driver.current_url
        check(query_of(location).get("state") == state and query_of(location).get("code"), f"back to the app with a code: {location}")
        token = oauth.fetch_token(self.server.url + "/oauth2/token", authorization_response=location, code_verifier=verifier)
        check(token.get("id_token") and token.get("refresh_token"), token)
        return token

    def idle(self):
        """Waits until no autofill request is pending and the button is usable."""
        self.wait.until(lambda d: d.execute_script(
            "const f = document.getElementById('form-passkey'), b = document.getElementById('passkey-signin');"
            "return f && !f.dataset.passkeyAutofill && !f.dataset.state && b && !b.disabled && b.offsetParent !== null"))

    def log_out(self):
        self.driver.get(self.server.url + f"/logout?client_id={CLIENT_ID}&logout_uri={SIGNOUT}")
        self.wait.until(lambda d: d.current_url == SIGNOUT)


def claims(jwt):
    payload = jwt.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))


def browser_journey(server, sub, resident):
    b = PasskeyBrowser(server)
    try:
        b.driver.add_credential(resident)

        # Autofill: the page's conditional request is answered at once and the page posts the assertion.
        oauth, verifier, state = b.start()
        token = b.exchange(oauth, verifier, state)
        check(claims(token["id_token"])["sub"] == sub, "autofill signs in the passkey's owner")
        check(b.driver.get_credentials()[0].sign_count > 100, "the browser's authenticator made the assertion")
        print("hosted passkey autofill: OK")

        # A cancelled ceremony (the user does not verify) shows nothing and leaves the page as it was.
        b.log_out()
        b.driver.set_user_verified(False)
        oauth, verifier, state = b.start()
        b.idle()  # the autofill request ended unanswered
        b.driver.find_element(By.ID, "passkey-signin").click()
        b.idle()
        check(not b.driver.find_element(By.ID, "passkey-error").is_displayed(), "a cancelled passkey ceremony shows nothing")
        check(urllib.parse.urlsplit(b.driver.current_url).path == "/login", "and the page stays")

        # The button.
        b.driver.set_user_verified(True)
        b.driver.find_element(By.ID, "passkey-signin").click()
        token = b.exchange(oauth, verifier, state)
        check(claims(token["access_token"])["sub"] == sub, "the button signs in the passkey's owner")
        print("hosted passkey button: OK")

        # A passkey the server does not know: refused on the page, and autofill is not offered again there.
        b.log_out()
        b.driver.remove_all_credentials()
        b.driver.add_credential(stranger_credential())
        b.start()
        alert = b.wait.until(EC.visibility_of_element_located((By.CSS_SELECTOR, "[role=alert]#page-error")))
        check(alert.text == REFUSED, f"the server's refusal is shown: {alert.text!r}")
        check(urllib.parse.urlsplit(b.driver.current_url).path == "/login/passkey", "no redirect after a refusal")
        shown = b.driver.execute_script("return performance.timeOrigin")
        time.sleep(1.5)
        check(b.driver.execute_script("return performance.timeOrigin") == shown, "the refused page does not post the passkey again")
        check(b.driver.find_element(By.ID, "form-passkey").get_attribute("data-passkey-autofill") is None,
              "after a refused passkey the page does not start autofill again")
        check(b.driver.find_element(By.ID, "passkey-signin").is_displayed(), "the button is still there")
        problems = b.page.console_problems(allow=("/login/passkey",))
        check(not problems, f"no policy violation or script error: {problems}")
        print("hosted passkey refusal: OK")
    except Exception:
        b.page.snap("hosted-passkey-failure")
        raise
    finally:
        b.page.quit()

    plain = browser(javascript=False)
    try:
        url, _ = oauth_client().create_authorization_url(server.url + "/oauth2/authorize", code_verifier=pkce()[0])
        plain.get(url)
        plain.find_element(By.ID, "form-signin")
        check(not plain.find_element(By.ID, "passkey-signin-panel").is_displayed(), "without JavaScript no passkey button shows")
        print("hosted passkey without JavaScript: OK")
    finally:
        plain.quit()


def login_page(server, session):
    """The sign-in page of a fresh authorization request in `session`: (its hidden fields, the client, verifier, state)."""
    oauth, (verifier, _) = oauth_client(), pkce()
    url, state = oauth.create_authorization_url(server.url + "/oauth2/authorize", code_verifier=verifier)
    page = session.get(url, timeout=10)
    check(page.status_code == 200 and 'id="form-passkey"' in page.text, f"the sign-in page offers passkeys: {page.status_code}")
    return form_fields(page.text), oauth, verifier, state, page


def post(server, session, fields, **extra):
    return session.post(server.url + "/login/passkey", data=dict(fields, **extra), allow_redirects=False, timeout=10)


def refused_on_page(answer, what, status=401, text=REFUSED):
    check(answer.status_code == status and "Location" not in answer.headers, f"{what}: {answer.status_code} {answer.headers.get('Location')}")
    check(text in answer.text and 'id="form-signin"' in answer.text, f"{what}: the sign-in page with the refusal")
    check(not any(c.startswith(("gatehouse-session", "__Host-gatehouse-session")) for c in answer.headers.get("Set-Cookie", "").split(", ")),
          f"{what}: no hosted session")


def hostile(server, sub, device, bearer):
    origin = server.url
    session = requests.Session()
    fields, oauth, verifier, state, page = login_page(server, session)
    policy = page.headers["Content-Security-Policy"]
    check("script-src 'self'" in policy and "connect-src 'self'" in policy and "unsafe" not in policy, f"the page's policy: {policy}")
    check('<script src="/assets/hosted-passkey.js"' in page.text and 'autocomplete="username webauthn"' in page.text, "script and autofill")

    def assertion(**knobs):
        options = session.post(server.url + "/auth/passkey/options", json={}, timeout=10).json()
        return json.dumps(device.get(options, knobs.pop("origin", origin), **knobs))

    # Refused before the assertion is verified: nothing is spent, the same assertion then signs in.
    good = assertion()
    answer = post(server, session, {k: v for k, v in fields.items() if k != "csrf"}, credential=good)
    check(answer.status_code == 403 and "Location" not in answer.headers, f"no CSRF token: {answer.status_code}")
    answer = post(server, session, {"csrf": fields["csrf"]}, credential=good)
    check(answer.status_code == 400 and "Location" not in answer.headers, f"no pending authorization: {answer.status_code}")
    answer = post(server, requests.Session(), fields, credential=good)
    check(answer.status_code == 403, f"another browser's form (no form cookie): {answer.status_code}")
    answer = post(server, session, fields, credential=good)
    location = answer.headers.get("Location", "")
    check(answer.status_code == 302 and location.startswith(CALLBACK + "?"), f"a passkey signs in: {answer.status_code} {answer.text[:200]}")
    check(query_of(location)["state"] == state, "the state comes back")
    token = oauth.fetch_token(server.url + "/oauth2/token", authorization_response=location, code_verifier=verifier)
    check(claims(token["id_token"])["sub"] == sub and token.get("refresh_token"), "Authlib redeems the code for the passkey's owner")

    # Refused after verification starts.
    fresh = requests.Session()
    fields, *_ = login_page(server, fresh)
    refused_on_page(post(server, fresh, fields, credential=good), "a replayed assertion")
    registration = requests.post(server.url + "/me/passkeys/options", json={}, headers=bearer, timeout=10).json()
    other = json.dumps(device.get({"challenge": registration["challenge"]}, origin))
    refused_on_page(post(server, fresh, fields, credential=other), "an assertion for a registration challenge")
    refused_on_page(post(server, fresh, fields, credential=assertion(kind="webauthn.create")), "an assertion of the registration type")
    refused_on_page(post(server, fresh, fields, credential=assertion(origin="http://evil.localhost:1")), "an assertion from another origin")
    refused_on_page(post(server, fresh, fields, credential="{not json"), "a credential that is not JSON", status=400,
                    text="could not be read")
    refused_on_page(post(server, fresh, fields), "no credential", status=400, text="could not be read")
    print("hosted passkey refusals: OK")


def off(server):
    """The hosted server without passkeys: no controls, no script, the route not served."""
    session = requests.Session()
    oauth, (verifier, _) = oauth_client(), pkce()
    url, _ = oauth.create_authorization_url(server.url + "/oauth2/authorize", code_verifier=verifier)
    page = session.get(url, timeout=10)
    check(page.status_code == 200 and 'id="form-signin"' in page.text, "the sign-in page")
    check("passkey" not in page.text and "<script" not in page.text, "no passkey controls, no script")
    check("script-src 'none'" in page.headers["Content-Security-Policy"], page.headers["Content-Security-Policy"])
    fields = form_fields(page.text)
    answer = session.post(server.url + "/login/passkey", data=dict(fields, credential="{}"), allow_redirects=False, timeout=10)
    check(answer.status_code == 404, f"/login/passkey without passkeys: {answer.status_code}")
    print("hosted UI without passkeys: no passkey controls: OK")


def run():
    server = passkey_server()
    try:
        sub, device, resident, bearer = account(server)
        hostile(server, sub, device, bearer)
        browser_journey(server, sub, resident)
    except BaseException:
        server.log.seek(0)
        print(server.log.read()[-4000:], file=sys.stderr)
        raise
    finally:
        server.stop()
