"""Adding a phone number from the profile screen (POST /me/phone, POST /me/phone/verify) in headless Chromium
(run by test_web.py): codes read from the SMS outbox, then the step-up a text-message session needs to change it."""
import time

from selenium.webdriver.common.by import By

from web_accessibility import check_refusal
from web_harness import Page, Server, check


def confirmed_account(server, email, password):
    """An account made and confirmed through the API, so the page starts at sign-in."""
    started = time.time() - 1
    status, answer = server.post("/auth/signup", {"email": email, "password": password})
    check(status == 201, f"sign-up: {status} {answer}")
    status, answer = server.post("/auth/confirm", {"email": email, "code": server.code("confirm_signup", email, after=started)})
    check(status in (200, 204), f"confirm: {status} {answer}")


def open_phone_section(page):
    summary = page.visible("phone-add-summary")
    if page.driver.find_element(By.ID, "phone-add").get_attribute("open") is None:
        summary.click()
    return page.visible("add-phone-number")


def profile_phone_journey():
    server = Server({"GATEHOUSE_SMS_COUNTRIES": "US,CA,GB", "GATEHOUSE_SMS": "outbox", "GATEHOUSE_SMS_COOLDOWN": "1"})
    page = Page(server)
    try:
        email, password = "cat@example.com", "correct horse 9"
        first, second = "+14155550142", "+16135550177"
        confirmed_account(server, email, password)
        page.open("/")
        page.fill("signin-email", email)
        page.fill("signin-password", password)
        page.submit("form-signin")
        page.screen("profile")
        page.text_of("profile-email", "@")
        check(page.driver.find_element(By.ID, "profile-phone").text == "—", "no phone yet")
        check(page.visible("phone-add-summary").text == "Add a phone number", "the profile offers to add a phone number")
        open_phone_section(page)
        check(not page.driver.find_element(By.ID, "form-add-phone-code").is_displayed(), "the code step waits for a number")
        check(not page.driver.find_element(By.ID, "add-phone-current").is_displayed(), "no password asked of a password session")
        page.snap("profile-add-phone")

        # Checks before sending, then the number, a wrong code, a new code, and the right one.
        page.submit("form-add-phone")
        check("phone number" in page.error_of("form-add-phone"), "an empty number is caught")
        check_refusal(page, "form-add-phone", ["add-phone-number"], edit=False)
        started = time.time() - 1
        page.fill("add-phone-number", "+1 415 555 0142")
        page.submit("form-add-phone")
        page.visible("form-add-phone-code")
        destination = page.driver.find_element(By.ID, "add-phone-destination").text
        check(destination and "4155550142" not in destination.replace(" ", ""), "the masked number is shown: " + destination)
        check(page.driver.switch_to.active_element.get_attribute("id") == "add-phone-code", "the code field has the focus")
        check(server.sms_code(first, after=started), "a code was texted to the number")
        page.fill("add-phone-code", "000000")
        page.submit("form-add-phone-code")
        check("not right" in page.error_of("form-add-phone-code"), "a wrong code says so")
        page.snap("profile-add-phone-wrong-code")
        check_refusal(page, "form-add-phone-code", ["add-phone-code"])
        time.sleep(1.1)  # the per-number cool-down (1 s here)
        resent = time.time() - 0.2
        page.driver.find_element(By.ID, "add-phone-resend").click()
        page.text_of("add-phone-resend-notice", "on its way")
        page.fill("add-phone-code", server.sms_code(first, after=resent))
        page.submit("form-add-phone-code")
        page.text_of("profile-phone", first)
        check(page.driver.find_element(By.ID, "profile-phone").text == first, "the profile shows the verified number")
        page.text_of("profile-notice", "phone number is saved")
        page.text_of("phone-add-summary", "Change phone number")
        check(page.driver.switch_to.active_element.get_attribute("id") == "phone-add-summary", "the focus returns to the section")
        check(page.driver.find_element(By.ID, "phone-add").get_attribute("open") is None, "the section closes")
        page.snap("profile-phone-added")

        # Signed in by a text message alone, changing the number needs the account's password (step-up).
        page.driver.find_element(By.ID, "signout").click()
        page.screen("signin")
        time.sleep(1.1)
        started = time.time() - 0.2
        page.fill("phone-number", first)
        page.submit("form-phone")
        page.fill("phone-code", server.sms_code(first, after=started))
        page.submit("form-phone-code")
        page.screen("profile")
        check(page.text_of("profile-email", "@") == email, "the number signs in to the same account")
        open_phone_section(page)
        page.fill("add-phone-number", second)
        page.submit("form-add-phone")
        check("current password" in page.error_of("form-add-phone"), "a text-message session is asked for the password")
        check(page.visible("add-phone-current").is_displayed(), "the password field appears")
        check_refusal(page, "form-add-phone", ["add-phone-current"], edit=False)
        page.snap("profile-change-phone-step-up")
        page.fill("add-phone-current", "not the password 1")
        page.submit("form-add-phone")
        check(page.error_of("form-add-phone") == "Incorrect email or password.", "a wrong password is refused")
        check_refusal(page, "form-add-phone", ["add-phone-current"])
        started = time.time() - 0.2
        page.fill("add-phone-current", password)
        page.submit("form-add-phone")
        page.visible("form-add-phone-code")
        page.fill("add-phone-code", server.sms_code(second, after=started))
        page.submit("form-add-phone-code")
        check(page.text_of("profile-phone", second) == second, "the profile shows the new number")
        page.snap("profile-phone-changed")

        problems = page.console_problems()
        check(not problems, "browser console: " + "\n".join(problems))
    finally:
        page.quit()
        server.stop()
