"""The hosted UI's pages in headless Chromium, with JavaScript on and off (they are plain HTML forms):
sign up with the mailed code, sign in, the code back to the app, single sign-on, logout, a wrong
password, forgot and reset, and the Google button. Screenshots go with the web page's.
"""
import os
import time

from authlib.integrations.requests_client import OAuth2Session
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

from hosted_ui_harness import CALLBACK, CLIENT_ID, SIGNOUT, browser, check, pkce, query_of
from web_harness import SHOTS, SHOT_COUNTER

NEW_PASSWORD = "battery staple 7"


class HostedBrowser:
    def __init__(self, server, javascript):
        self.server = server
        self.mode = "js" if javascript else "nojs"
        self.driver = browser(javascript)
        self.wait = WebDriverWait(self.driver, 10)

    def start(self, **extra):
        """Opens an authorization request as Amplify would; returns the client, verifier and state."""
        oauth = OAuth2Session(CLIENT_ID, redirect_uri=CALLBACK, scope="openid email profile", code_challenge_method="S256",
                              token_endpoint_auth_method="none")
        verifier, _ = pkce()
        url, state = oauth.create_authorization_url(self.server.url + "/oauth2/authorize", code_verifier=verifier, **extra)
        self.driver.get(url)
        return oauth, verifier, state

    def form(self, form_id):
        return self.wait.until(EC.visibility_of_element_located((By.ID, form_id)))

    def fill(self, element_id, value):
        field = self.wait.until(EC.visibility_of_element_located((By.ID, element_id)))
        field.clear()
        field.send_keys(value)

    def submit(self, form_id):
        self.form(form_id).find_element(By.CSS_SELECTOR, "button[type=submit]").click()

    def notice(self):
        return self.wait.until(EC.visibility_of_element_located((By.CSS_SELECTOR, "[role=status]"))).text

    def alert(self):
        return self.wait.until(EC.visibility_of_element_located((By.CSS_SELECTOR, "[role=alert]"))).text

    def at_callback(self):
        self.wait.until(lambda d: d.current_url.startswith(CALLBACK))
        return self.driver.current_url

    def exchange(self, oauth, verifier, state):
        location = self.at_callback()
        check(query_of(location)["state"] == state, "state round-trips through the pages")
        token = oauth.fetch_token(self.server.url + "/oauth2/token", authorization_response=location, code_verifier=verifier)
        check(token.get("id_token") and token.get("refresh_token"), token)
        return token

    def snap(self, name):
        os.makedirs(SHOTS, exist_ok=True)
        SHOT_COUNTER[0] += 1
        self.driver.save_screenshot(os.path.join(SHOTS, f"{SHOT_COUNTER[0]:02d}-hosted-{self.mode}-{name}.png"))

    def quit(self):
        self.driver.quit()


def journey(server, javascript):
    page = HostedBrowser(server, javascript)
    email = f"pages-{page.mode}@example.com"
    try:
        oauth, verifier, state = page.start(nonce="n-" + page.mode)
        page.form("form-signin")
        page.snap("sign-in")
        page.driver.find_element(By.LINK_TEXT, "Create an account").click()
        page.fill("email", email)
        page.fill("name", "Page Person")
        page.fill("password", "correct horse 9")
        started = time.time() - 1
        page.submit("form-signup")
        check("We sent a code" in page.notice(), "sign-up says where the code went")
        page.snap("confirm")
        page.fill("code", server.code("confirm_signup", email, after=started))
        page.submit("form-confirm")
        check("confirmed" in page.notice(), "confirmation leads back to sign-in")
        check(page.driver.find_element(By.ID, "email").get_attribute("value") == email, "the address is kept")

        # A wrong password: the API's wording, announced, on the same form.
        page.fill("password", "wrong horse 9")
        page.submit("form-signin")
        check(page.alert() == "Incorrect email or password.", "wrong password")
        page.snap("wrong-password")
        page.fill("password", "correct horse 9")
        page.submit("form-signin")
        token = page.exchange(oauth, verifier, state)

        # Single sign-on: the next authorization request in this browser skips the form.
        oauth, verifier, state = page.start()
        page.exchange(oauth, verifier, state)

        # Logout ends it: back to the registered URI, and the next request shows the form again.
        page.driver.get(server.url + f"/logout?client_id={CLIENT_ID}&logout_uri={SIGNOUT}")
        page.wait.until(lambda d: d.current_url == SIGNOUT)
        page.start()
        page.form("form-signin")
        check(server.post("/auth/refresh", {"refresh_token": token["refresh_token"]})[0] == 401, "logout ended the app's session too")

        # Forgot and reset, then sign in with the new password.
        page.driver.find_element(By.LINK_TEXT, "Forgot password?").click()
        page.fill("email", email)
        started = time.time() - 1
        page.submit("form-forgot")
        page.snap("reset")
        page.fill("code", server.code("reset_password", email, after=started))
        page.fill("password", NEW_PASSWORD)
        page.submit("form-reset")
        check("password is changed" in page.notice(), "reset leads back to sign-in")
        page.fill("password", NEW_PASSWORD)
        page.submit("form-signin")
        page.at_callback()

        # The Google button, with a fresh browser session (logout first).
        page.driver.get(server.url + f"/logout?client_id={CLIENT_ID}&logout_uri={SIGNOUT}")
        oauth, verifier, state = page.start()
        page.driver.find_element(By.ID, "google-button").click()
        page.exchange(oauth, verifier, state)
        print(f"hosted pages with JavaScript {'on' if javascript else 'off'}: OK")
    except Exception:
        page.snap("failure")
        raise
    finally:
        page.quit()


def apple_button(server, javascript):
    """The Apple button: Apple's page posts back (the fake's form stands in for Apple's page)."""
    page = HostedBrowser(server, javascript)
    try:
        oauth, verifier, state = page.start()
        page.form("form-signin")
        page.driver.find_element(By.ID, "apple-button").click()
        page.wait.until(EC.element_to_be_clickable((By.ID, "apple-continue"))).click()
        page.exchange(oauth, verifier, state)
        print(f"Apple button with JavaScript {'on' if javascript else 'off'}: OK")
    except Exception:
        page.snap("apple-failure")
        raise
    finally:
        page.quit()
