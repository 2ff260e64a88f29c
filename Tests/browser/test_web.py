#!/usr/bin/env python3
"""The web page at / in a real browser: headless Chromium driven by Selenium.

    python3 Tests/browser/test_web.py        # exits non-zero on the first failure

It starts the server binary (GATEHOUSE_SERVER_BINARY, default .build/debug/gatehouse) on an
ephemeral loopback port with a fresh data directory, serving the *embedded* copy of Sources/GatehouseServer/Resources/Web/, and runs
the whole email journey (codes read from the outbox), the error states, phone sign-in (with
GATEHOUSE_SMS_COUNTRIES set; codes read from the SMS outbox, <data dir>/sms/*.txt), adding a phone number from
the profile (profile_phone.py), the accessibility checks (web_accessibility.py: refusals marked on their field and
focused, 3:1 contrast of borders and the focus ring in both palettes, show-password toggles, the server's password
policy, the wait after a code asked for too soon), passkeys (web_passkeys.py, with GATEHOUSE_PASSKEY_RP_ID=localhost and
Chromium's virtual authenticator: adding one from the profile, signing in with the button and through autofill, a
refused and a blocked passkey, removal, and the page's own JSON converters), the QR encoder against segno and OpenCV
(web_qr.py), the second factor (web_mfa.py: setting up an authenticator app from its QR code, recovery codes, the code
step after a password and after a text-message code, wrong, replayed and throttled codes, removal), and a run with
Google configured (its script cannot load offline: the page must say so and keep working). A screenshot
of each screen goes to artifacts/screenshots/ (or GATEHOUSE_SCREENSHOT_DIR). The browser console
must show no CSP violation and no error from our own script. First, test_contract.py checks app.js's
JSON fields against openapi.yaml (no browser needed; it also runs on its own).

GATEHOUSE_BROWSER_WEB_DIR=Sources/GatehouseServer/Resources/Web serves the page from that directory instead
(GATEHOUSE_WEB_DIR), to try edits of the page against a binary built before them.
"""
import os
import shutil
import sys
import time

from selenium.webdriver.common.by import By

from phone_journey import phone_journey
from profile_devices import profile_devices_journey
from profile_phone import profile_phone_journey
from web_accessibility import accessibility, check_refusal
from web_harness import BINARY, SHOTS, Page, Server, check
from web_mfa import mfa
from web_passkeys import passkeys
from web_qr import qr_encoder


def email_journey():
    server = Server()
    page = Page(server)
    try:
        email = "ann@example.com"
        page.open("/")
        page.screen("signin")
        check(page.driver.find_element(By.ID, "app-name").text == "Acme Notes", "the app name comes from configuration")
        check("Sign in" in page.driver.title, "title says where we are")
        # Every input has a label.
        for field in page.driver.find_elements(By.CSS_SELECTOR, "input"):
            fid = field.get_attribute("id")
            labelled = page.driver.find_elements(By.CSS_SELECTOR, f"label[for='{fid}']") or field.find_elements(By.XPATH, "ancestor::label")
            check(labelled, f"input {fid} has no label")
        check(not page.driver.find_element(By.ID, "phone-panel").is_displayed(), "no phone panel without GATEHOUSE_SMS_COUNTRIES")
        check(not page.driver.find_element(By.ID, "passkey-signin").is_displayed(), "no passkey button without GATEHOUSE_PASSKEY_RP_ID")
        check(page.driver.find_element(By.ID, "signin-email").get_attribute("autocomplete") == "username", "nor passkey autofill")
        page.snap("sign-in")

        # Client-side validation.
        page.submit("form-signin")
        check("email" in page.error_of("form-signin").lower(), "empty form asks for the email")
        page.snap("sign-in-empty")

        # Sign up: mismatched passwords, weak password, then success.
        page.driver.find_element(By.LINK_TEXT, "Create an account").click()
        page.screen("signup")
        page.fill("signup-name", "Ann Example")
        page.fill("signup-email", email)
        page.fill("signup-password", "correct horse 9")
        page.fill("signup-password2", "correct horse 8")
        page.submit("form-signup")
        check("do not match" in page.error_of("form-signup"), "mismatched passwords are caught")
        page.fill("signup-password", "short")
        page.fill("signup-password2", "short")
        page.submit("form-signup")
        check("8 characters" in page.error_of("form-signup"), "short passwords are caught")
        check("At least 8 characters, with a digit." == page.driver.find_element(By.ID, "signup-password-hint").text, "the default rule")
        page.snap("sign-up-error")
        # The server's refusal (a too common password) is marked on the field like the page's own checks.
        page.fill("signup-password", "password1")
        page.fill("signup-password2", "password1")
        page.submit("form-signup")
        check("too common" in page.error_of("form-signup"), "the server's reason is shown")
        check_refusal(page, "form-signup", ["signup-password"])
        page.fill("signup-password", "correct horse 9")
        page.fill("signup-password2", "correct horse 9")
        page.snap("sign-up")
        started = time.time() - 1
        page.submit("form-signup")
        page.screen("confirm")
        check("a***@e***" in page.text_of("confirm-destination", "@"), "the masked destination is shown")

        # A wrong code, then the right one (which also signs in).
        page.fill("confirm-code", "000000")
        page.submit("form-confirm")
        check("not right" in page.error_of("form-confirm"), "a wrong code says so")
        check_refusal(page, "form-confirm", ["confirm-code"], edit=False)
        page.snap("confirm-wrong-code")
        page.driver.find_element(By.ID, "confirm-code").send_keys("1")
        check(page.driver.find_element(By.ID, "confirm-code").get_attribute("aria-invalid") is None, "editing the code clears its mark")
        code = server.code("confirm_signup", email, after=started)
        page.fill("confirm-code", code)
        page.snap("confirm")
        page.submit("form-confirm")
        page.screen("profile")
        check(page.text_of("profile-email", "@") == email, "the profile shows the email")
        check(page.text_of("profile-name", "Ann") == "Ann Example", "the profile shows the name")
        check("Email and password" in page.driver.find_element(By.ID, "profile-identities").text, "sign-in methods are listed")
        check(not page.driver.find_element(By.ID, "phone-add").is_displayed(), "no phone section without GATEHOUSE_SMS_COUNTRIES")
        check(not page.driver.find_element(By.ID, "passkeys").is_displayed(), "no passkey section without GATEHOUSE_PASSKEY_RP_ID")
        check("access_token" not in page.driver.current_url and "refresh" not in page.driver.current_url, "no token in the URL")
        stored = page.driver.execute_script("return Object.keys(localStorage).length")
        check(stored == 0, "nothing in localStorage")
        page.snap("profile")

        # Edit the name.
        page.driver.find_element(By.XPATH, "//summary[text()='Edit name']").click()
        page.fill("name-input", "Ann E.")
        page.submit("form-name")
        page.text_of("profile-name", "Ann E.")
        page.snap("profile-name-saved")

        # A reload keeps the session (refresh token in sessionStorage), then sign out.
        page.driver.refresh()
        page.screen("profile")
        page.text_of("profile-email", "@")
        page.driver.find_element(By.ID, "signout").click()
        page.screen("signin")
        page.text_of("signin-notice", "signed out")
        page.snap("signed-out")

        # Wrong password, then the forgot/reset flow.
        page.fill("signin-email", email)
        page.fill("signin-password", "wrong password 1")
        page.submit("form-signin")
        check(page.error_of("form-signin") == "Incorrect email or password.", "wrong password message")
        check_refusal(page, "form-signin", ["signin-password", "signin-email"], edit=False)
        page.snap("sign-in-wrong-password")
        page.driver.find_element(By.ID, "signin-password").send_keys("x")
        check(page.driver.find_element(By.ID, "signin-email").get_attribute("aria-invalid") == "true", "the other field keeps its mark")
        page.submit("form-signin")
        page.error_of("form-signin")
        check_refusal(page, "form-signin", ["signin-password", "signin-email"])
        page.driver.find_element(By.LINK_TEXT, "Forgot password?").click()
        page.screen("forgot")
        page.fill("forgot-email", email)
        page.snap("forgot")
        time.sleep(1.1)  # the per-address mail cool-down (1 s here)
        started = time.time() - 1
        page.submit("form-forgot")
        page.screen("reset")
        page.fill("reset-code", "111111")
        page.fill("reset-password", "battery staple 7")
        page.submit("form-reset")
        check("not right" in page.error_of("form-reset"), "a wrong reset code says so")
        check_refusal(page, "form-reset", ["reset-code"])
        page.fill("reset-code", server.code("reset_password", email, after=started))
        page.snap("reset")
        page.submit("form-reset")
        page.screen("signin")
        page.text_of("signin-notice", "password is changed")
        page.fill("signin-password", "battery staple 7")
        page.submit("form-signin")
        page.screen("profile")

        # Change the password, then delete the account.
        page.driver.find_element(By.XPATH, "//summary[text()='Change password']").click()
        page.fill("change-current", "not it 12345")
        page.fill("change-new", "another horse 8")
        page.submit("form-change")
        check(page.error_of("form-change") == "Incorrect email or password.", "a wrong current password is refused")
        check_refusal(page, "form-change", ["change-current"])
        page.fill("change-current", "battery staple 7")
        page.submit("form-change")
        page.text_of("profile-notice", "Password changed")
        page.snap("password-changed")
        page.driver.find_element(By.XPATH, "//summary[text()='Delete account']").click()
        page.submit("form-delete")
        check("Tick the box" in page.error_of("form-delete"), "deletion needs the confirmation")
        page.driver.find_element(By.ID, "delete-confirm").click()
        page.snap("delete-account")
        page.submit("form-delete")
        page.screen("signin")
        page.text_of("signin-notice", "deleted")
        page.fill("signin-email", email)
        page.fill("signin-password", "another horse 8")
        page.submit("form-signin")
        check(page.error_of("form-signin") == "Incorrect email or password.", "a deleted account cannot sign in")

        # Signing in before confirming goes to the confirmation screen.
        other = "bob@example.com"
        page.driver.find_element(By.LINK_TEXT, "Create an account").click()
        page.fill("signup-email", other)
        page.fill("signup-password", "correct horse 9")
        page.fill("signup-password2", "correct horse 9")
        page.submit("form-signup")
        page.screen("confirm")
        page.open("/#/signin")
        page.screen("signin")
        page.fill("signin-email", other)
        page.fill("signin-password", "correct horse 9")
        page.submit("form-signin")
        page.screen("confirm")
        check("Confirm your email" in page.error_of("form-confirm"), "unconfirmed sign-in explains itself")
        page.snap("sign-in-unconfirmed")

        problems = page.console_problems()
        check(not problems, "browser console: " + "\n".join(problems))
    finally:
        page.quit()
        server.stop()


def google_configured():
    server = Server({
        "GATEHOUSE_GOOGLE_CLIENT_IDS": "web-client.apps.googleusercontent.com",
        "GATEHOUSE_WEB_GOOGLE_CLIENT_ID": "web-client.apps.googleusercontent.com",
    })
    page = Page(server)
    try:
        page.open("/")
        page.screen("signin")
        page.visible("social")
        message = page.wait.until(lambda d: d.find_element(By.ID, "social-error").text)
        check("Google is unavailable" in message, "an unloadable Google script is explained: " + message)
        page.snap("sign-in-google-offline")
        # The page still works.
        page.fill("signin-email", "nobody@example.com")
        page.fill("signin-password", "whatever 1")
        page.submit("form-signin")
        check(page.error_of("form-signin") == "Incorrect email or password.", "email sign-in still works")
        # Offline, loading accounts.google.com fails; that is the only console complaint allowed.
        problems = page.console_problems(allow=("accounts.google.com",))
        check(not problems, "browser console: " + "\n".join(problems))
    finally:
        page.quit()
        server.stop()


def wire_contract():
    """app.js's JSON fields against openapi.yaml (test_contract.py), so CI checks them with the browser tests."""
    import test_contract
    if test_contract.main([]) != 0:
        raise AssertionError("app.js sends or reads fields that openapi.yaml does not document (listed above)")


def main():
    if not os.access(BINARY, os.X_OK):
        raise SystemExit(f"no server binary at {BINARY}: run `swift build` first or set GATEHOUSE_SERVER_BINARY")
    shutil.rmtree(SHOTS, ignore_errors=True)
    for test in (wire_contract, email_journey, accessibility, phone_journey, profile_phone_journey, profile_devices_journey, passkeys,
                 qr_encoder, mfa,
                 google_configured):
        print(f"== {test.__name__}", flush=True)
        test()
        print(f"ok {test.__name__}", flush=True)
    print(f"web page: all browser checks passed; screenshots in {SHOTS}")


if __name__ == "__main__":
    try:
        main()
    except AssertionError as failure:
        print(f"FAILED: {failure}", file=sys.stderr)
        sys.exit(1)
