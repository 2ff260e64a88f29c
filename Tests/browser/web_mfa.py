"""The second factor on the web page in headless Chromium (run by test_web.py), pyotp standing in for the phone's
authenticator app: setting it up from the profile (the secret read from the QR code on the screen by OpenCV), the
recovery codes shown once (copy and download), a wrong and a replayed code, signing in with a password and with a
text-message code through the code step (an app code, a recovery code once, a wrong one), new recovery codes,
removing the app with a current code, and the throttle's wait after too many wrong codes."""
import json
import os
import re
import time
import urllib.error
import urllib.parse
import urllib.request

import pyotp
from selenium.webdriver.common.by import By

from profile_phone import confirmed_account
from web_accessibility import check_refusal
from web_harness import Page, Server, check
from web_qr import decode_element

PASSWORD = "correct horse 9"
RECOVERY = re.compile(r"^[a-z2-9]{5}-[a-z2-9]{5}$")


class AuthenticatorApp:
    """pyotp as the phone's app. The server accepts a code of one step either side of now, and each step once: this
    gives the code of the earliest step after the last one used that the server takes now, waiting for the clock when
    that step is still ahead of its window."""

    def __init__(self, secret):
        self.totp = pyotp.TOTP(secret)
        self.last = None

    def code(self):
        now = time.time()
        # Not the previous step within 3 s of a step change: it could leave the window before the server checks it.
        earliest = int(now // 30) - (1 if now % 30 < 27 else 0)
        step = earliest if self.last is None else max(self.last + 1, earliest)
        while step > int(time.time() // 30) + 1:
            time.sleep(0.25)
        self.last = step
        return self.totp.at(step * 30)


def call(server, method, path, body=None, bearer=None):
    """A direct API call: (status, JSON answer or None)."""
    headers = {"Accept": "application/json"}
    if body is not None:
        headers["Content-Type"] = "application/json"
    if bearer:
        headers["Authorization"] = "Bearer " + bearer
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(server.url + path, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            raw = response.read()
            return response.status, json.loads(raw) if raw else None
    except urllib.error.HTTPError as error:
        raw = error.read()
        return error.code, json.loads(raw) if raw else None


def focused(page):
    return page.driver.switch_to.active_element.get_attribute("id")


def password_sign_in(page, email):
    page.open("/#/signin")
    page.screen("signin")
    page.fill("signin-email", email)
    page.fill("signin-password", PASSWORD)
    page.submit("form-signin")


def sign_out(page):
    page.visible("signout").click()
    page.screen("signin")


def second_step(page, code):
    page.screen("mfa")
    page.fill("mfa-code", code)
    page.submit("form-mfa")


def codes_on_screen(page):
    page.visible("mfa-codes")
    return [li.text for li in page.driver.find_elements(By.CSS_SELECTOR, "#mfa-codes-list li")]


def enrol(page, email):
    """From the profile: Set up, the QR code read by OpenCV, a wrong code, the right one; answers (app, codes)."""
    page.visible("mfa")
    check(page.text_of("mfa-status", "Off").startswith("Off"), "the status says the app is off")
    check(not page.driver.find_element(By.ID, "mfa-on").is_displayed(), "no management without an app")
    page.visible("mfa-setup").click()
    svg = page.wait.until(lambda d: d.find_element(By.CSS_SELECTOR, "#mfa-qr svg"))
    check(focused(page) == "mfa-enrol-heading", f"the focus moves to the enrolment step, not {focused(page)}")
    check("QR code" in svg.get_attribute("aria-label") and svg.get_attribute("role") == "img", "the QR code is a labelled image")
    uri = decode_element(svg)
    check(uri and uri.startswith("otpauth://totp/"), f"OpenCV reads an otpauth URI from the screen: {uri!r}")
    check(page.driver.find_element(By.ID, "mfa-uri").get_attribute("href") == uri, "the link shown holds the URI the QR code holds")
    parsed = urllib.parse.urlparse(uri)
    query = urllib.parse.parse_qs(parsed.query)
    secret = query["secret"][0]
    shown = page.driver.find_element(By.ID, "mfa-secret").text
    check(shown.replace(" ", "") == secret and " " in shown, f"the key is shown for typing, in groups: {shown}")
    check(query.get("issuer") == ["Acme Notes"] and email in urllib.parse.unquote(parsed.path), f"issuer and account: {uri}")
    page.snap("mfa-enrol")

    page.submit("form-mfa-confirm")
    check("6-digit" in page.error_of("form-mfa-confirm"), "an empty code is caught")
    page.fill("mfa-confirm-code", "000000")
    page.submit("form-mfa-confirm")
    check("not right" in page.error_of("form-mfa-confirm"), "a wrong first code says so")
    check_refusal(page, "form-mfa-confirm", ["mfa-confirm-code"])
    page.snap("mfa-enrol-wrong-code")
    app = AuthenticatorApp(secret)
    first = app.code()
    page.fill("mfa-confirm-code", first[:3] + " " + first[3:])  # as apps show it
    page.submit("form-mfa-confirm")
    codes = codes_on_screen(page)
    check(len(codes) == 10 and all(RECOVERY.match(c) for c in codes) and len(set(codes)) == 10, f"ten recovery codes: {codes}")
    check(focused(page) == "mfa-codes-heading", f"the focus moves to the codes, not {focused(page)}")
    check("you will not see them again" in page.driver.find_element(By.ID, "mfa-codes-warning").text, "shown once, and it says so")
    check(not page.driver.find_element(By.ID, "mfa-enrol").is_displayed(), "the QR code is gone")
    check(not page.driver.find_elements(By.CSS_SELECTOR, "#mfa-qr svg") and not page.driver.find_element(By.ID, "mfa-secret").text,
          "the secret left the page")
    return app, first, codes


def check_code_affordances(page, server, codes):
    link = page.driver.find_element(By.ID, "mfa-codes-download")
    check(link.get_attribute("download") == "recovery-codes.txt", "a download link")
    folder = os.path.join(server.data, "downloads")
    os.makedirs(folder, exist_ok=True)
    page.driver.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": folder})
    link.click()
    path = os.path.join(folder, "recovery-codes.txt")
    page.wait.until(lambda d: os.path.exists(path) and os.path.getsize(path) > 0)
    text = open(path, encoding="utf-8").read()
    check(all(code in text.split("\n") for code in codes) and "Acme Notes" in text, f"the downloaded file holds the codes: {text!r}")
    check(page.driver.current_url.endswith("#/profile"), "downloading leaves the page where it was")
    page.driver.execute_cdp_cmd("Browser.grantPermissions", {"origin": server.url, "permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"]})
    page.visible("mfa-codes-copy").click()
    check("copied" in page.text_of("mfa-codes-notice", "copied"), "copying says so")
    copied = page.driver.execute_async_script("const done = arguments[0]; navigator.clipboard.readText().then(done, (e) => done('failed: ' + e));")
    check(copied.split("\n") == codes, f"the clipboard holds the codes: {copied!r}")
    page.snap("mfa-recovery-codes")


def status_on(page, left):
    page.visible("mfa-on")
    text = page.text_of("mfa-status", "recovery code")
    check(text.startswith("On since") and f"{left} recovery code" in text, f"the status: {text}")


def journey(server, page):
    email = "mia@example.com"
    confirmed_account(server, email, PASSWORD)
    password_sign_in(page, email)
    page.screen("profile")
    app, first, codes = enrol(page, email)
    check_code_affordances(page, server, codes)
    page.visible("mfa-codes-done").click()
    status_on(page, 10)
    check(focused(page) == "mfa-heading", "the focus returns to the section")
    check(not page.driver.find_elements(By.CSS_SELECTOR, "#mfa-codes-list li"), "the codes are not kept on the page")
    page.snap("mfa-on")

    # The code just used, again: refused as a replay, in words that say so.
    page.visible("mfa-regenerate").click()
    check(focused(page) == "mfa-regenerate-code", "the code field of the chosen action has the focus")
    page.fill("mfa-regenerate-code", first)
    page.submit("form-mfa-regenerate")
    check("just used" in page.error_of("form-mfa-regenerate"), "a replayed code is named as such")
    check_refusal(page, "form-mfa-regenerate", ["mfa-regenerate-code"])
    page.snap("mfa-replayed-code")
    page.driver.find_element(By.CSS_SELECTOR, "#form-mfa-regenerate .mfa-cancel").click()
    check(focused(page) == "mfa-regenerate" and not page.driver.find_element(By.ID, "form-mfa-regenerate").is_displayed(), "cancel")

    # After a reload the page no longer knows the code was used here: the server's refusal reads as either.
    page.driver.refresh()
    page.screen("profile")
    status_on(page, 10)
    check(not page.driver.find_element(By.ID, "mfa-codes").is_displayed(), "a reload shows the codes no more")
    page.visible("mfa-regenerate").click()
    page.fill("mfa-regenerate-code", first)
    page.submit("form-mfa-regenerate")
    check("not right, or it was used already" in page.error_of("form-mfa-regenerate"), "a replay the page cannot name")
    page.driver.find_element(By.CSS_SELECTOR, "#form-mfa-regenerate .mfa-cancel").click()

    # A password alone no longer signs in: the code step does.
    sign_out(page)
    password_sign_in(page, email)
    page.screen("mfa")
    check(focused(page) == "mfa-code", f"the focus moves to the code field, not {focused(page)}")
    check(page.driver.title.startswith("Enter your code"), "the title says where we are")
    check("mfa-intro" in page.driver.find_element(By.ID, "mfa-code").get_attribute("aria-describedby"), "the field is described")
    page.snap("mfa-sign-in")
    page.submit("form-mfa")
    check("6-digit" in page.error_of("form-mfa"), "an empty code is caught")
    page.fill("mfa-code", "12ab")
    page.submit("form-mfa")
    check("recovery code like" in page.error_of("form-mfa"), "a code of neither form is caught")
    page.fill("mfa-code", "000000")
    page.submit("form-mfa")
    check("not right" in page.error_of("form-mfa"), "a wrong code says so")
    check_refusal(page, "form-mfa", ["mfa-code"])
    page.snap("mfa-sign-in-wrong-code")
    signed_in_with = app.code()
    page.fill("mfa-code", signed_in_with)
    page.submit("form-mfa")
    page.screen("profile")
    check(page.text_of("profile-email", "@") == email, "signed in after the code")

    # A recovery code signs in once.
    sign_out(page)
    password_sign_in(page, email)
    second_step(page, codes[0])
    page.screen("profile")
    status_on(page, 9)
    sign_out(page)
    password_sign_in(page, email)
    second_step(page, codes[0])
    check("used already" in page.error_of("form-mfa"), "a used recovery code is refused")
    check_refusal(page, "form-mfa", ["mfa-code"], edit=False)
    # The app code this page just saw accepted is named as a replay at sign-in too.
    page.fill("mfa-code", signed_in_with)
    page.submit("form-mfa")
    check("just used" in page.error_of("form-mfa"), "a replayed code at sign-in is named as such")
    page.fill("mfa-code", " " + codes[1].upper() + " ")  # case and spaces do not matter
    page.submit("form-mfa")
    page.screen("profile")
    status_on(page, 8)

    # Cancelling the code step abandons that sign-in.
    sign_out(page)
    password_sign_in(page, email)
    page.screen("mfa")
    page.visible("mfa-cancel").click()
    page.screen("signin")
    page.open("/#/mfa")
    page.screen("signin")

    # New recovery codes with a current code: the old ones stop working.
    password_sign_in(page, email)
    second_step(page, codes[2])
    page.screen("profile")
    page.visible("mfa-regenerate").click()
    page.fill("mfa-regenerate-code", app.code())
    page.submit("form-mfa-regenerate")
    fresh = codes_on_screen(page)
    check(len(fresh) == 10 and not set(fresh) & set(codes), "ten new codes")
    check("old ones no longer work" in page.text_of("mfa-notice", "old"), "and it says the old ones stop")
    page.visible("mfa-codes-done").click()
    status_on(page, 10)
    status, answer = server.post("/auth/signin", {"email": email, "password": PASSWORD})
    check(status == 403 and answer["error"]["code"] == "mfa_required", f"the API asks for the second step: {status} {answer}")
    token = answer["error"]["mfa_token"]
    check(server.post("/auth/mfa/verify", {"mfa_token": token, "code": codes[3]})[0] == 400, "an old recovery code is refused")
    return app, fresh


def phone_first_factor(server, page, app, codes):
    """A text-message sign-in of the account meets the code step too."""
    email, number = "mia@example.com", "+14155550199"
    status, answer = server.post("/auth/signin", {"email": email, "password": PASSWORD})
    status, tokens = server.post("/auth/mfa/verify", {"mfa_token": answer["error"]["mfa_token"], "code": codes[0]})
    check(status == 200, f"API sign-in with a recovery code: {status} {tokens}")
    started = time.time() - 1
    status, answer = call(server, "POST", "/me/phone", {"phone": number}, tokens["access_token"])
    check(status == 200, f"POST /me/phone: {status} {answer}")
    status, answer = call(server, "POST", "/me/phone/verify", {"phone": number, "code": server.sms_code(number, after=started)}, tokens["access_token"])
    check(status == 200, f"POST /me/phone/verify: {status} {answer}")
    sign_out(page)
    time.sleep(1.1)  # the per-number cool-down (1 s here)
    started = time.time() - 1
    page.fill("phone-number", number)
    page.submit("form-phone")
    page.wait.until(lambda d: d.find_element(By.ID, "phone-code").is_displayed() or d.find_element(By.ID, "phone-error").text)
    check(page.driver.find_element(By.ID, "phone-code").is_displayed(), "the code was sent: " + page.driver.find_element(By.ID, "phone-error").text)
    page.fill("phone-code", server.sms_code(number, after=started))
    page.submit("form-phone-code")
    page.screen("mfa")
    check(focused(page) == "mfa-code", "the code step after a text-message code")
    second_step(page, codes[1])
    page.screen("profile")
    check(page.text_of("profile-phone", "+") == number, "signed in with the phone")


def removal(server, page, app, email="mia@example.com"):
    page.visible("mfa-remove").click()
    check(focused(page) == "mfa-remove-code", "the remove form's code field has the focus")
    page.fill("mfa-remove-code", "000000")
    page.submit("form-mfa-remove")
    check("not right" in page.error_of("form-mfa-remove"), "removal needs a right code")
    check_refusal(page, "form-mfa-remove", ["mfa-remove-code"])
    page.snap("mfa-remove")
    page.fill("mfa-remove-code", app.code())
    page.submit("form-mfa-remove")
    check("removed" in page.text_of("mfa-notice", "removed"), "removal says so")
    check(page.text_of("mfa-status", "Off").startswith("Off") and page.visible("mfa-setup"), "the app is off, Set up is offered again")
    check(focused(page) == "mfa-heading", "the focus returns to the section")
    sign_out(page)
    password_sign_in(page, email)
    page.screen("profile")  # no code step any more


def throttle(server, page):
    """Wrong codes count in the account's sign-in throttle: the page says how long to wait."""
    email = "ned@example.com"
    confirmed_account(server, email, PASSWORD)
    status, tokens = server.post("/auth/signin", {"email": email, "password": PASSWORD})
    status, enrolment = call(server, "POST", "/me/mfa/totp", None, tokens["access_token"])
    check(status == 200, f"enrolment by API: {status} {enrolment}")
    app = AuthenticatorApp(enrolment["secret"])
    status, answer = call(server, "POST", "/me/mfa/totp/verify", {"code": app.code()}, tokens["access_token"])
    check(status == 200, f"confirmed by API: {status} {answer}")
    sign_out(page)
    password_sign_in(page, email)
    page.screen("mfa")
    message = ""
    for attempt in range(8):
        page.fill("mfa-code", f"{attempt:06d}" if attempt else "999999")
        page.submit("form-mfa")
        message = page.error_of("form-mfa")
        if "Too many attempts" in message:
            break
    check(re.match(r"Too many attempts\. Try again in \d+ (seconds?|minutes|hours)\.", message), f"the throttle's wait: {message!r}")
    page.snap("mfa-throttled")


def mfa():
    server = Server({"GATEHOUSE_SMS_COUNTRIES": "US,CA,GB", "GATEHOUSE_SMS": "outbox", "GATEHOUSE_SMS_COOLDOWN": "1"})
    page = Page(server)
    try:
        app, codes = journey(server, page)
        phone_first_factor(server, page, app, codes)
        removal(server, page, app)
        throttle(server, page)
        problems = page.console_problems()
        check(not problems, "browser console: " + "\n".join(problems))
    finally:
        page.quit()
        server.stop()


if __name__ == "__main__":
    mfa()
    print("second factor: ok")
