"""Passkeys on the web page in headless Chromium (run by test_web.py), with Chromium's virtual authenticator standing in
for the device: CTAP2, internal (a platform authenticator), resident keys and user verification, the user verified.

The server runs with GATEHOUSE_PASSKEY_RP_ID=localhost and the page is opened at http://localhost:<port>/: an RP id
must be a domain (127.0.0.1 cannot be one) and localhost is a secure context over plain HTTP. The accepted origin
names the port, so the port is chosen before the server starts.

passkey_journey: sign-up and confirmation, sign-in with the password, a cancelled registration (nothing shown), a
passkey added from the profile (listed, and held by the authenticator), the same authenticator refused a second one
(excludeCredentials, said accessibly), sign-out, a cancelled passkey sign-in (nothing shown), sign-in with the "Sign in
with a passkey" button, sign-in through passkey autofill (conditional mediation: the virtual authenticator answers a
conditional request at once, as a user picking the passkey among the email field's suggestions would), a passkey whose
signature counter goes backwards (the server refuses it: its message shown and focused, and the profile marks it
blocked), removal with a confirmation (the list is empty; the authenticator keeps its copy), and that copy refused
through autofill.

passkey_fallback: a browser without WebAuthn sees no passkey controls, and one without
PublicKeyCredential.parse*OptionsFromJSON and toJSON() registers and signs in through app.js's own converters.
"""
import socket

from selenium.webdriver.common.by import By
from selenium.webdriver.common.virtual_authenticator import Credential, VirtualAuthenticatorOptions

from web_accessibility import check_refusal
from web_harness import Page, Server, check

EMAIL, PASSWORD, NAME = "pia@example.com", "correct horse 9", "Work laptop"
REFUSED = "The passkey could not be verified."


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def passkey_server():
    port = free_port()
    server = Server({
        "GATEHOUSE_HTTP_PORT": str(port), "GATEHOUSE_PASSKEY_RP_ID": "localhost",
        "GATEHOUSE_PASSKEY_ORIGINS": f"http://localhost:{port}",
    })
    server.url = f"http://localhost:{port}"  # the browser's address, and the origin the server accepts
    return server


def add_authenticator(page):
    page.driver.add_virtual_authenticator(VirtualAuthenticatorOptions(
        protocol=VirtualAuthenticatorOptions.Protocol.CTAP2.value, transport=VirtualAuthenticatorOptions.Transport.INTERNAL.value,
        has_resident_key=True, has_user_verification=True, is_user_verified=True))


def displayed(page, element_id):
    return page.driver.find_element(By.ID, element_id).is_displayed()


def passkey_items(page):
    return [item.text for item in page.driver.find_elements(By.CSS_SELECTOR, "#passkey-list > li")]


def requests(page, path):
    """How many requests the page has made to `path` (the browser's resource timing)."""
    return page.driver.execute_script(
        "return performance.getEntriesByType('resource').filter((e) => e.name.endsWith(arguments[0])).length", path)


def passkey_signins(page):
    return requests(page, "/auth/passkey/signin")


def autofill_state(page):
    return page.driver.find_element(By.ID, "form-signin").get_attribute("data-passkey-autofill")


def settled(page):
    """Waits until the sign-in form is idle: no passkey autofill request pending (its data-passkey-autofill), buttons enabled."""
    page.wait.until(lambda d: d.execute_script(
        "const form = document.getElementById('form-signin');"
        "return !form.dataset.passkeyAutofill && !form.hasAttribute('aria-busy') && !document.getElementById('passkey-signin').disabled"))


def sign_out_quietly(page):
    """Signs out while the authenticator refuses user verification, so the sign-in screen's autofill request ends
    (NotAllowedError, like a user who never picks a passkey) instead of signing straight back in; then verifies again."""
    page.driver.set_user_verified(False)
    page.driver.find_element(By.ID, "signout").click()
    page.text_of("signin-notice", "signed out")
    page.screen("signin")
    settled(page)
    check(not displayed(page, "signin-error"), "an autofill request that ends unanswered shows nothing")
    page.driver.set_user_verified(True)


def sign_out_into_autofill(page):
    """Signs out with a passkey on the authenticator: the autofill request is answered at once and signs in with it."""
    before = passkey_signins(page)
    page.driver.find_element(By.ID, "signout").click()
    page.wait.until(lambda d: passkey_signins(page) > before)


def password_sign_in(page):
    page.fill("signin-email", EMAIL)
    page.fill("signin-password", PASSWORD)
    page.submit("form-signin")
    page.screen("profile")
    check(page.text_of("profile-email", "@") == EMAIL, "the profile shows the email")


def add_passkey(page, name):
    page.fill("passkey-name", name)
    page.submit("form-passkey-add")
    page.text_of("passkeys-notice", name)
    page.wait.until(lambda d: any(name in item for item in passkey_items(page)))


def sign_up(page, server):
    page.driver.find_element(By.LINK_TEXT, "Create an account").click()
    page.screen("signup")
    page.fill("signup-email", EMAIL)
    page.fill("signup-password", PASSWORD)
    page.fill("signup-password2", PASSWORD)
    page.submit("form-signup")
    page.screen("confirm")
    page.fill("confirm-code", server.code("confirm_signup", EMAIL))
    page.submit("form-confirm")
    page.screen("profile")
    check(page.text_of("profile-email", "@") == EMAIL, "signed up, confirmed and signed in")


def registration(page):
    """From the profile: a cancelled registration, a passkey added, the same authenticator refused a second one."""
    page.visible("passkeys")
    page.text_of("passkeys-empty", "no passkeys")
    check(passkey_items(page) == [], "no passkeys listed yet")
    page.driver.set_user_verified(False)
    page.fill("passkey-name", NAME)
    page.submit("form-passkey-add")
    page.wait.until(lambda d: d.find_element(By.ID, "form-passkey-add").get_attribute("aria-busy") is None
                    and d.find_element(By.CSS_SELECTOR, "#form-passkey-add button[type=submit]").is_enabled())
    check(not displayed(page, "passkey-add-error") and not displayed(page, "passkeys-notice"), "a cancelled registration shows nothing")
    check(passkey_items(page) == [] and page.driver.get_credentials() == [], "and adds nothing")
    page.driver.set_user_verified(True)

    add_passkey(page, NAME)
    items = passkey_items(page)
    check(len(items) == 1 and NAME in items[0] and "Created" in items[0] and "not used yet" in items[0], f"the list shows it: {items}")
    check(not displayed(page, "passkeys-empty"), "the empty-list note is gone")
    check(page.driver.find_element(By.ID, "passkey-name").get_attribute("value") == "", "the name field is cleared")
    credentials = page.driver.get_credentials()
    check(len(credentials) == 1 and credentials[0].is_resident_credential and credentials[0].rp_id == "localhost",
          f"the authenticator holds one discoverable credential for localhost: {[c.to_dict() for c in credentials]}")
    page.snap("profile-passkey-added")

    page.submit("form-passkey-add")
    message = page.error_of("form-passkey-add")
    check("already has a passkey" in message, "the same authenticator again is refused (excludeCredentials): " + message)
    check_refusal(page, "form-passkey-add", [], edit=False)
    check(len(passkey_items(page)) == 1 and len(page.driver.get_credentials()) == 1, "and nothing is added")
    page.snap("profile-passkey-exists")


def passkey_sign_ins(page):
    """A cancelled passkey sign-in, the button, then autofill."""
    sign_out_quietly(page)
    page.snap("sign-in-passkey")
    page.driver.set_user_verified(False)
    page.driver.find_element(By.ID, "passkey-signin").click()
    settled(page)
    page.screen("signin")
    check(not displayed(page, "signin-error"), "a cancelled passkey ceremony shows nothing alarming")
    check(page.driver.find_element(By.ID, "signin-email").get_attribute("aria-invalid") is None, "and marks no field")
    page.driver.set_user_verified(True)

    count = page.driver.get_credentials()[0].sign_count
    before = passkey_signins(page)
    page.driver.find_element(By.ID, "passkey-signin").click()
    page.screen("profile")
    check(page.text_of("profile-email", "@") == EMAIL, "signed in with the passkey button: the same account")
    check(passkey_signins(page) == before + 1, "through /auth/passkey/signin")
    check(page.driver.get_credentials()[0].sign_count > count, "the authenticator signed")
    page.wait.until(lambda d: "last used" in " ".join(passkey_items(page)))

    sign_out_into_autofill(page)
    page.screen("profile")
    check(page.text_of("profile-email", "@") == EMAIL, "signed in through passkey autofill (conditional mediation)")
    page.snap("profile-after-passkey-autofill")


def flagged_and_removed(page):
    """A credential whose counter goes backwards is refused and marked; then it is removed with a confirmation."""
    credential = page.driver.get_credentials()[0]
    check(credential.sign_count >= 2, f"the server has seen the counter reach {credential.sign_count}")
    page.driver.remove_all_credentials()
    page.driver.add_credential(Credential.from_dict(dict(credential.to_dict(), signCount=0)))
    sign_out_quietly(page)
    page.driver.find_element(By.ID, "passkey-signin").click()
    message = page.error_of("form-signin")
    check(message == REFUSED, "the server's refusal is shown in its words: " + message)
    check_refusal(page, "form-signin", [], edit=False)
    page.screen("signin")
    page.snap("sign-in-passkey-refused")

    password_sign_in(page)
    flag = page.visible("passkey-list").find_element(By.CSS_SELECTOR, "li.flagged .flag")
    check(flag.text == "Blocked: its counter went backwards — remove it", "the profile marks the passkey blocked: " + flag.text)
    page.snap("profile-passkey-flagged")

    item = page.driver.find_element(By.CSS_SELECTOR, "#passkey-list > li")
    remove = item.find_element(By.XPATH, ".//button[text()='Remove']")
    check(remove.accessible_name == f"Remove passkey {NAME}", "the Remove button names its passkey: " + remove.accessible_name)
    remove.click()
    yes = item.find_element(By.XPATH, ".//button[text()='Yes, remove']")
    check(yes.is_displayed() and page.driver.switch_to.active_element == yes, "removing asks first, and the answer has the focus")
    check(f"Remove “{NAME}”?" in item.text and not remove.is_displayed(), "the question names the passkey")
    page.snap("profile-passkey-remove-confirm")
    item.find_element(By.XPATH, ".//button[text()='Keep']").click()
    check(remove.is_displayed() and page.driver.switch_to.active_element == remove, "Keep goes back, focus on Remove")
    check(len(passkey_items(page)) == 1, "and keeps it")
    remove.click()
    yes.click()
    page.text_of("passkeys-notice", "removed")
    page.visible("passkeys-empty")
    check(passkey_items(page) == [], "the list is empty")
    check(page.driver.switch_to.active_element.get_attribute("id") == "passkeys-heading", "the focus goes to the section's heading")
    check(len(page.driver.get_credentials()) == 1, "the authenticator keeps its copy (a page cannot delete it)")
    page.snap("profile-passkey-removed")

    # That copy, picked through autofill, is refused: the message shown and focused like any refusal.
    sign_out_into_autofill(page)
    message = page.error_of("form-signin")
    check(message == REFUSED, "a removed passkey is refused: " + message)
    check_refusal(page, "form-signin", [], edit=False)
    page.screen("signin")


def passkey_journey(server):
    page = Page(server)
    try:
        page.open("/")
        page.screen("signin")
        check(page.visible("passkey-signin").text == "Sign in with a passkey", "the passkey button is offered")
        page.wait.until(lambda d: d.find_element(By.ID, "signin-email").get_attribute("autocomplete") == "username webauthn")
        # With no authenticator yet the autofill request waits. Leaving the screen stops it; coming straight back
        # starts a new one once the old one has ended, even when it was stopped while still asking for its options.
        page.wait.until(lambda d: autofill_state(page) == "waiting" and requests(page, "/auth/passkey/options") == 1)
        page.driver.execute_script("const go = (hash) => new Promise((done) => { location.hash = hash; setTimeout(done, 0); });"
                                   "go('#/forgot').then(() => go('#/signin')).then(() => go('#/forgot')).then(() => go('#/signin'));")
        # Whether the quick middle visit gets a request of its own depends on timing; the last one always does.
        page.wait.until(lambda d: requests(page, "/auth/passkey/options") >= 2 and autofill_state(page) == "waiting")
        page.screen("signin")
        add_authenticator(page)
        page.snap("sign-in-with-passkeys")
        sign_up(page, server)
        page.driver.find_element(By.ID, "signout").click()
        page.text_of("signin-notice", "signed out")
        password_sign_in(page)
        registration(page)
        passkey_sign_ins(page)
        flagged_and_removed(page)
        problems = page.console_problems()
        check(not problems, "browser console: " + "\n".join(problems))
    finally:
        page.quit()


def passkey_fallback(server):
    page = Page(server)
    cdp = page.driver.execute_cdp_cmd
    try:
        script = cdp("Page.addScriptToEvaluateOnNewDocument", {"source": "delete window.PublicKeyCredential;"})
        page.open("/")
        page.screen("signin")
        check(not displayed(page, "passkey-signin-panel"), "no passkey button without WebAuthn")
        check(page.driver.find_element(By.ID, "signin-email").get_attribute("autocomplete") == "username", "no passkey autofill")
        password_sign_in(page)
        check(not displayed(page, "passkeys"), "no passkey section without WebAuthn")

        cdp("Page.removeScriptToEvaluateOnNewDocument", {"identifier": script["identifier"]})
        cdp("Page.addScriptToEvaluateOnNewDocument", {"source": "delete PublicKeyCredential.parseRequestOptionsFromJSON;"
            "delete PublicKeyCredential.parseCreationOptionsFromJSON; delete PublicKeyCredential.prototype.toJSON;"})
        page.driver.refresh()
        page.screen("profile")
        missing = page.driver.execute_script("return [typeof PublicKeyCredential.parseRequestOptionsFromJSON,"
                                             "typeof PublicKeyCredential.parseCreationOptionsFromJSON, typeof PublicKeyCredential.prototype.toJSON]")
        check(missing == ["undefined"] * 3, f"the JSON helpers are gone: {missing}")
        add_authenticator(page)
        add_passkey(page, "Old browser")
        check(len(passkey_items(page)) == 1, "registered through app.js's converters")
        sign_out_into_autofill(page)
        page.screen("profile")
        check(page.text_of("profile-email", "@") == EMAIL, "signed in through autofill with app.js's converters")
        sign_out_quietly(page)
        page.driver.find_element(By.ID, "passkey-signin").click()
        page.screen("profile")
        check(page.text_of("profile-email", "@") == EMAIL, "and with the button")
        problems = page.console_problems()
        check(not problems, "browser console: " + "\n".join(problems))
    finally:
        page.quit()


def passkeys():
    server = passkey_server()
    try:
        passkey_journey(server)
        passkey_fallback(server)
    finally:
        server.stop()
