"""Accessibility checks of the web page in headless Chromium (run by test_web.py): server refusals marked on their
field, non-text contrast of borders and the focus ring in both colour schemes, the show-password buttons, the
server's password rule in the hints and the checks, and the wait after asking for a code too soon."""
import re
import time

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from web_harness import Page, Server, check

# ---------- a refused form ----------


def check_refusal(page, form_id, field_ids, edit=True):
    """After a refusal shown in `form_id`: every field in `field_ids` is aria-invalid and described by the form's
    role=alert message, the focus is on the first of them (or on the message), and typing in it clears its mark.
    With no `field_ids` (a refusal about no field, such as a passkey's): no field is marked, the message has the focus."""
    page.error_of(form_id)
    alert = page.driver.find_element(By.CSS_SELECTOR, f"#{form_id} .error")
    error_id = alert.get_attribute("id")
    check(error_id and alert.get_attribute("role") == "alert", f"{form_id}: the message is a role=alert with an id")
    for field_id in field_ids:
        field = page.driver.find_element(By.ID, field_id)
        check(field.get_attribute("aria-invalid") == "true", f"{form_id}: {field_id} is aria-invalid")
        described = (field.get_attribute("aria-describedby") or "").split()
        check(error_id in described, f"{form_id}: {field_id} is described by #{error_id} ({described})")
    if not field_ids:
        marked = [f.get_attribute("id") for f in page.driver.find_elements(By.CSS_SELECTOR, f"#{form_id} [aria-invalid]")]
        check(not marked, f"{form_id}: a refusal about no field marks none ({marked})")
        focused = page.driver.switch_to.active_element.get_attribute("id")
        check(focused == error_id, f"{form_id}: the focus is on the message, not {focused}")
        return
    focused = page.driver.switch_to.active_element.get_attribute("id")
    check(focused in (field_ids[0], error_id), f"{form_id}: the focus is on {field_ids[0]} or the message, not {focused}")
    if edit:
        field = page.driver.find_element(By.ID, field_ids[0])
        field.send_keys("1")
        check(field.get_attribute("aria-invalid") is None, f"{form_id}: editing {field_ids[0]} clears aria-invalid")
        described = (field.get_attribute("aria-describedby") or "").split()
        check(error_id not in described, f"{form_id}: editing {field_ids[0]} unlinks the message")


# ---------- contrast (WCAG 2.x relative luminance) ----------


def parse_colour(text):
    """(r, g, b) of `#rgb`, `#rrggbb` or `rgb(a)(r, g, b[, a])` as getComputedStyle gives them."""
    text = text.strip().lower()
    if text.startswith("#"):
        digits = text[1:]
        if len(digits) == 3:
            digits = "".join(c * 2 for c in digits)
        return tuple(int(digits[i:i + 2], 16) for i in (0, 2, 4))
    match = re.match(r"rgba?\(\s*(\d+)[,\s]+(\d+)[,\s]+(\d+)(?:[,\s/]+([\d.]+))?\s*\)", text)
    check(match, f"cannot read the colour {text!r}")
    check(match.group(4) is None or float(match.group(4)) == 1, f"a translucent colour {text!r} has no fixed contrast")
    return tuple(int(match.group(i)) for i in (1, 2, 3))


def luminance(rgb):
    def channel(value):
        c = value / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(v) for v in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a, b):
    high, low = sorted((luminance(parse_colour(a)), luminance(parse_colour(b))), reverse=True)
    return (high + 0.05) / (low + 0.05)


COLOURS_JS = """
const root = getComputedStyle(document.documentElement);
const input = document.getElementById('signin-email');
input.focus();
const answer = {
  dark: matchMedia('(prefers-color-scheme: dark)').matches,
  vars: Object.fromEntries(['--line', '--focus', '--card', '--bg'].map((n) => [n, root.getPropertyValue(n)])),
  card: getComputedStyle(document.getElementById('screen-signin')).backgroundColor,
  page: getComputedStyle(document.body).backgroundColor,
  inputBorder: getComputedStyle(input).borderTopColor,
  buttonBorder: getComputedStyle(document.querySelector('#screen-profile #signout')).borderTopColor,
  focusRing: getComputedStyle(input).outlineColor,
  focusStyle: getComputedStyle(input).outlineStyle,
};
input.blur();
return answer;
"""


def scheme_contrasts(page, scheme):
    """Sets prefers-color-scheme through CDP and measures --line and --focus against --card and --bg, both as the
    stylesheet's custom properties and as rendered (an input's border, a button's border, a focused input's ring)."""
    page.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "", "features": [{"name": "prefers-color-scheme", "value": scheme}]})
    colours = page.driver.execute_script(COLOURS_JS)
    check(colours["dark"] == (scheme == "dark"), f"Chromium emulates prefers-color-scheme: {scheme}")
    v = colours["vars"]
    check(parse_colour(colours["card"]) == parse_colour(v["--card"]), f"{scheme}: the card is painted with --card")
    check(parse_colour(colours["page"]) == parse_colour(v["--bg"]), f"{scheme}: the page is painted with --bg")
    check(parse_colour(colours["inputBorder"]) == parse_colour(v["--line"]), f"{scheme}: inputs are bordered with --line")
    check(parse_colour(colours["buttonBorder"]) == parse_colour(v["--line"]), f"{scheme}: buttons are bordered with --line")
    check(colours["focusStyle"] == "solid" and parse_colour(colours["focusRing"]) == parse_colour(v["--focus"]),
          f"{scheme}: a focused input's ring is --focus ({colours['focusStyle']} {colours['focusRing']})")
    ratios = {}
    for name in ("--line", "--focus"):
        for background in ("--card", "--bg"):
            ratios[(name, background)] = contrast(v[name], v[background])
    print(f"   {scheme}: " + ", ".join(f"{a} on {b} {r:.2f}:1" for (a, b), r in ratios.items()), flush=True)
    for (name, background), ratio in ratios.items():
        check(ratio >= 3, f"{scheme}: {name} {v[name].strip()} on {background} {v[background].strip()} is {ratio:.2f}:1, under 3:1 (WCAG 1.4.11)")
    return ratios


def check_contrast(page):
    page.open("/")
    page.screen("signin")
    scheme_contrasts(page, "light")
    dark = scheme_contrasts(page, "dark")
    check(dark, "dark palette measured")
    page.driver.find_element(By.ID, "signin-email").click()
    page.snap("sign-in-dark-focus")
    page.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "", "features": [{"name": "prefers-color-scheme", "value": "light"}]})


# ---------- show password ----------


def check_show_password(page):
    page.open("/#/signin")
    page.screen("signin")
    field = page.visible("signin-password")
    passwords = page.driver.find_elements(By.CSS_SELECTOR, "input[type=password]")
    toggles = page.driver.find_elements(By.CSS_SELECTOR, "button.reveal")
    check(len(passwords) >= 5 and len(toggles) == len(passwords), f"every password field has a toggle ({len(toggles)}/{len(passwords)})")
    for toggle in toggles:
        target = page.driver.find_element(By.ID, toggle.get_attribute("aria-controls"))
        check(target.get_attribute("type") == "password", "a toggle controls a password field")
    toggle = page.driver.find_element(By.CSS_SELECTOR, "button[aria-controls='signin-password']")
    check(toggle.tag_name == "button" and toggle.get_attribute("type") == "button", "the toggle is a real <button type=button>")
    check(toggle.accessible_name == "Show password", f"the toggle's accessible name: {toggle.accessible_name!r}")
    check(toggle.get_attribute("aria-pressed") == "false", "the password starts hidden")
    page.fill("signin-password", "secret horse 4")
    field.send_keys(Keys.TAB)
    check(page.driver.switch_to.active_element == toggle, "Tab from the password field reaches its toggle")
    page.driver.switch_to.active_element.send_keys(Keys.SPACE)
    check(field.get_attribute("type") == "text" and toggle.get_attribute("aria-pressed") == "true", "Space shows the password")
    check(field.get_attribute("value") == "secret horse 4", "showing keeps what was typed")
    check(not page.driver.find_element(By.ID, "signin-error").is_displayed(), "the toggle does not send the form")
    page.snap("sign-in-password-shown")
    page.driver.switch_to.active_element.send_keys(Keys.ENTER)
    check(field.get_attribute("type") == "password" and toggle.get_attribute("aria-pressed") == "false", "Enter hides it again")
    check(not page.driver.find_element(By.ID, "signin-error").is_displayed(), "Enter on the toggle does not send the form")
    toggle.click()
    check(field.get_attribute("type") == "text", "a click shows it too")
    page.driver.find_element(By.LINK_TEXT, "Create an account").click()
    page.screen("signup")
    page.driver.back()
    page.screen("signin")
    check(field.get_attribute("type") == "password" and toggle.get_attribute("aria-pressed") == "false", "leaving the screen hides it")


# ---------- the server's password rule ----------


def check_password_policy(page, email):
    """The server runs with GATEHOUSE_PASSWORD_MIN_LENGTH=12 and GATEHOUSE_PASSWORD_REQUIRE_UPPERCASE=true."""
    page.open("/#/signup")
    page.screen("signup")
    hint = page.driver.find_element(By.ID, "signup-password-hint").text
    check("At least 12 characters" in hint and "uppercase letter" in hint, "the sign-up hint is the server's rule: " + hint)
    for other in ("reset-password-hint", "change-new-hint"):
        text = page.driver.find_element(By.ID, other).get_attribute("textContent")
        check(text == hint, f"{other} says the same: {text!r}")
    field = page.driver.find_element(By.ID, "signup-password")
    check(field.get_attribute("aria-describedby").split()[0] == "signup-password-hint", "the field is described by its hint")
    check(field.get_attribute("minlength") == "12", "password managers see the minimum length")
    page.fill("signup-email", email)
    for attempt, rule, shot in (("Short 12345", "Use at least 12 characters.", "length"), ("long enough 12345", "Include an uppercase letter.", "uppercase")):
        page.fill("signup-password", attempt)
        page.fill("signup-password2", attempt)
        page.submit("form-signup")
        message = page.error_of("form-signup")
        check(message == rule, f"{attempt!r} is refused, naming the rule: {message}")
        check_refusal(page, "form-signup", ["signup-password"], edit=False)
        page.snap("sign-up-policy-" + shot)
    sent = page.driver.execute_script("return performance.getEntriesByType('resource').filter((e) => e.name.includes('/auth/signup')).length")
    check(sent == 0, "the page refused those passwords without asking the server")
    page.fill("signup-password", "Long enough 12345")
    page.fill("signup-password2", "Long enough 12345")
    page.submit("form-signup")
    page.screen("confirm")


# ---------- a code asked for too soon ----------


def check_resend_wait(page):
    """On the confirmation screen right after sign-up, with GATEHOUSE_MAIL_COOLDOWN=60: the 429's Retry-After in words."""
    page.screen("confirm")
    page.driver.find_element(By.ID, "resend-code").click()
    message = page.error_of("form-confirm")
    match = re.search(r"Wait (\d+) seconds? before asking for another code\.", message)
    check(match and 1 <= int(match.group(1)) <= 60, "the wait is said in seconds: " + message)
    check("Too many attempts" not in message, "not a generic refusal")
    page.snap("confirm-resend-wait")


def accessibility():
    server = Server({
        "GATEHOUSE_PASSWORD_MIN_LENGTH": "12", "GATEHOUSE_PASSWORD_REQUIRE_UPPERCASE": "true", "GATEHOUSE_MAIL_COOLDOWN": "60",
    })
    page = Page(server)
    try:
        check_contrast(page)
        check_show_password(page)
        started = time.time()
        check_password_policy(page, "dee@example.com")
        check_resend_wait(page)
        check(server.code("confirm_signup", "dee@example.com", after=started - 1), "the first code was sent")
        problems = page.console_problems()
        check(not problems, "browser console: " + "\n".join(problems))
    finally:
        page.quit()
        server.stop()
