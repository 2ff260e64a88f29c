"""The profile's list of sessions (GET /me/sessions, DELETE /me/sessions/{id}) and the email change (POST /me/email,
POST /me/email/verify) in headless Chromium (run by test_web.py): another device signed out from the list, a new
address with its code read from the outbox, and this device signing itself out."""
import time

from selenium.webdriver.common.by import By

from profile_phone import confirmed_account
from web_accessibility import check_refusal
from web_harness import Page, Server, check


def devices(page):
    """The list's rows as (name line, details line) once it has been drawn."""
    page.wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#device-list li.device"))
    rows = page.driver.find_elements(By.CSS_SELECTOR, "#device-list li.device")
    return [(row.find_element(By.CSS_SELECTOR, ".device-name").text, row.find_element(By.CSS_SELECTOR, ".hint").text) for row in rows]


def profile_devices_journey():
    server = Server()
    page = Page(server)
    try:
        email, password, new_email = "dee@example.com", "correct horse 9", "dee@new.example"
        confirmed_account(server, email, password)
        status, other = server.post("/auth/signin", {"email": email, "password": password})
        check(status == 200, f"the other device signs in: {status}")
        page.open("/")
        page.fill("signin-email", email)
        page.fill("signin-password", password)
        page.submit("form-signin")
        page.screen("profile")
        page.visible("devices")
        rows = devices(page)
        check(len(rows) == 2, f"two devices: {rows}")
        mine = [name for name, _ in rows if "(this device)" in name]
        check(mine == ["Chrome on Linux (this device)"], f"this browser is named and marked: {rows}")
        check(any(name == "Python urllib" for name, _ in rows), f"the other device is named from its User-Agent: {rows}")
        check(all("127.0.0.0/24" in details and "with password" in details for _, details in rows), f"address and method: {rows}")
        page.snap("profile-devices")

        # The other device is signed out from here: its refresh token fails at once.
        button = page.driver.find_element(By.CSS_SELECTOR, "button[aria-label='Sign out Python urllib']")
        button.click()
        page.text_of("devices-notice", "Python urllib is signed out")
        check(page.driver.switch_to.active_element.get_attribute("id") == "devices-heading", "the focus goes to the list's heading")
        page.wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#device-list li.device")) == 1)
        status, _ = server.post("/auth/refresh", {"refresh_token": other["refresh_token"]})
        check(status == 401, f"the ended session's refresh token is refused: {status}")

        # The email change: the password, the code from the new mailbox, a wrong code first.
        summary = page.driver.find_element(By.CSS_SELECTOR, "#email-change summary")
        summary.click()
        page.fill("email-new", new_email)
        page.submit("form-email")
        check("current password" in page.error_of("form-email"), "a password account is asked for its password")
        check_refusal(page, "form-email", ["email-current"], edit=False)
        page.fill("email-current", "not the password 1")
        page.submit("form-email")
        check(page.error_of("form-email") == "Incorrect email or password.", "a wrong password is refused")
        started = time.time() - 0.2
        page.fill("email-current", password)
        page.submit("form-email")
        page.visible("form-email-code")
        destination = page.driver.find_element(By.ID, "email-destination").text
        check(destination == "d***@n***.example", "the masked new address is shown: " + destination)
        check(page.driver.switch_to.active_element.get_attribute("id") == "email-code", "the code field has the focus")
        check(page.driver.find_element(By.ID, "profile-email").text == email, "the old address stays until the code")
        page.fill("email-code", "000000")
        page.submit("form-email-code")
        check("not right" in page.error_of("form-email-code"), "a wrong code says so")
        check_refusal(page, "form-email-code", ["email-code"])
        page.fill("email-code", server.code("confirm_email_change", new_email, after=started))
        page.submit("form-email-code")
        page.text_of("profile-notice", "email address is changed")
        check(page.text_of("profile-email", new_email) == new_email, "the profile shows the new address")
        check(page.driver.find_element(By.ID, "email-change").get_attribute("open") is None, "the section closes")
        page.snap("profile-email-changed")

        # Signing this device out from the list is signing out.
        page.driver.find_element(By.CSS_SELECTOR, "button[aria-label='Sign out of this device']").click()
        page.screen("signin")
        page.text_of("signin-notice", "signed out")
        status, _ = server.post("/auth/signin", {"email": new_email, "password": password})
        check(status == 200, "the new address signs in")
        problems = page.console_problems()
        check(not problems, "browser console: " + "\n".join(problems))
    finally:
        page.quit()
        server.stop()
