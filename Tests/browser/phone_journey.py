"""Phone sign-in on the web page in headless Chromium (run by test_web.py)."""
import re
import time

from selenium.webdriver.common.by import By

from web_accessibility import check_refusal
from web_harness import Page, Server, check


def phone_journey():
    """Phone sign-in: checks before sending, the server's refusal in its own words, a wrong code, a resend inside the
    per-number cool-down (429: the wait is shown), the code from the SMS outbox, and the signed-in page."""
    server = Server({"GATEHOUSE_SMS_COUNTRIES": "US,CA,GB", "GATEHOUSE_SMS": "outbox"})
    page = Page(server)
    try:
        number = "+14155550123"
        page.open("/")
        page.screen("signin")
        page.visible("phone-panel")
        field = page.visible("phone-number")
        check(field.get_attribute("type") == "tel" and field.get_attribute("placeholder") == number, "a tel input with an example")
        check(not page.driver.find_element(By.ID, "form-phone-code").is_displayed(), "the code step waits for a number")
        page.snap("phone")

        page.submit("form-phone")
        check("phone number" in page.error_of("form-phone"), "an empty number is caught")
        page.fill("phone-number", "415 555 0123")
        page.submit("form-phone")
        check("country code" in page.error_of("form-phone"), "a national number is caught before sending")
        # A country the server does not text: the server's own message is shown.
        status, answer = server.post("/auth/phone/send", {"phone": "+33612345678"})
        check(status == 400 and answer["error"]["code"] == "invalid_request", f"the server refuses France here: {status} {answer}")
        page.fill("phone-number", "+33 6 12 34 56 78")
        page.submit("form-phone")
        page.wait.until(lambda d: page.error_of("form-phone") == answer["error"]["message"])
        check_refusal(page, "form-phone", ["phone-number"], edit=False)
        check(not page.driver.find_element(By.ID, "form-phone-code").is_displayed(), "a refused number stays on the number step")
        page.snap("phone-refused")

        started = time.time() - 1
        page.fill("phone-number", "+1 (415) 555-0123")
        page.submit("form-phone")
        page.visible("form-phone-code")
        destination = page.driver.find_element(By.ID, "phone-destination").text
        check(destination and "4155550123" not in destination.replace(" ", ""), "the masked number is shown: " + destination)
        check(page.driver.switch_to.active_element.get_attribute("id") == "phone-code", "the code input has the focus")
        page.fill("phone-code", "000000")
        page.submit("form-phone-code")
        check("not right" in page.error_of("form-phone-code"), "a wrong code says so")
        check_refusal(page, "form-phone-code", ["phone-code"])
        page.snap("phone-wrong-code")
        # A second text to the number inside its cool-down: the 429's Retry-After is shown.
        page.driver.find_element(By.ID, "phone-resend").click()
        page.wait.until(lambda d: "Wait" in page.error_of("form-phone-code"))
        message = page.error_of("form-phone-code")
        match = re.search(r"Wait (\d+) seconds? before asking for another code\.", message)
        check(match and 1 <= int(match.group(1)) <= 60, "the wait is shown: " + message)
        page.snap("phone-resend-throttled")

        page.fill("phone-code", server.sms_code(number, after=started))
        page.submit("form-phone-code")
        page.screen("profile")
        check(page.text_of("profile-phone", number) == number, "the profile shows the number")
        check(page.driver.find_element(By.ID, "profile-email").text == "—", "a phone account has no email")
        check(page.driver.execute_script("return Object.keys(localStorage).length") == 0, "nothing in localStorage")
        page.snap("phone-profile")
        page.driver.refresh()
        page.screen("profile")
        page.text_of("profile-phone", number)
        page.driver.find_element(By.ID, "signout").click()
        page.screen("signin")
        check(page.visible("form-phone").is_displayed(), "signed out, the phone panel asks for a number again")
        check(not page.driver.find_element(By.ID, "form-phone-code").is_displayed(), "and hides the code step")

        problems = page.console_problems()
        check(not problems, "browser console: " + "\n".join(problems))
    finally:
        page.quit()
        server.stop()
