"""What the browser checks share: the server binary on an ephemeral port with its own data directory (codes read
from its mail and SMS outboxes), and headless Chromium driven by Selenium (see test_web.py).
"""
import glob
import json
import os
import re
import shutil
import subprocess
import tempfile
import time
import urllib.error
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BINARY = os.environ.get("GATEHOUSE_SERVER_BINARY", os.path.join(ROOT, ".build", "debug", "gatehouse"))
SHOT_COUNTER = [0]
SHOTS = os.environ.get("GATEHOUSE_SCREENSHOT_DIR", os.path.join(ROOT, "artifacts", "screenshots"))
WEB_DIR = os.environ.get("GATEHOUSE_BROWSER_WEB_DIR")


class Server:
    def __init__(self, extra_env=None):
        self.data = tempfile.mkdtemp(prefix="gatehouse-web-")
        env = {k: v for k, v in os.environ.items() if not k.startswith("GATEHOUSE_")}
        env.update({
            "GATEHOUSE_DATA_DIR": self.data, "GATEHOUSE_HTTP_HOST": "127.0.0.1", "GATEHOUSE_HTTP_PORT": "0",
            "GATEHOUSE_SCRYPT_LOG_N": "10", "GATEHOUSE_MAIL_COOLDOWN": "1", "GATEHOUSE_APP_NAME": "Acme Notes",
        })
        if WEB_DIR:
            env["GATEHOUSE_WEB_DIR"] = os.path.abspath(WEB_DIR)
        env.update(extra_env or {})
        self.log = open(os.path.join(self.data, "server.log"), "w+")
        self.process = subprocess.Popen([BINARY, "serve"], cwd=self.data, env=env, stdout=subprocess.DEVNULL, stderr=self.log)
        deadline = time.time() + 60
        self.port = None
        while time.time() < deadline and self.port is None:
            time.sleep(0.1)
            self.log.seek(0)
            match = re.search(r"gatehouse listening.*?127\.0\.0\.1:(\d+)|127\.0\.0\.1:(\d+).*?gatehouse listening", self.log.read())
            if match:
                self.port = int(match.group(1) or match.group(2))
            if self.process.poll() is not None:
                break
        if self.port is None:
            self.log.seek(0)
            raise SystemExit("the server did not start:\n" + self.log.read())
        # The issuer is the address the browser uses.
        self.url = f"http://127.0.0.1:{self.port}"

    def code(self, kind, email, after=0):
        deadline = time.time() + 10
        while time.time() < deadline:
            for path in sorted(glob.glob(os.path.join(self.data, "outbox", f"*-{kind}.eml")), reverse=True):
                if os.path.getmtime(path) < after:
                    continue
                text = open(path, encoding="utf-8").read()
                if f"To: {email}" in text:
                    # The code is in the body: headers such as Message-ID may hold digit runs too.
                    body = re.split(r"\r?\n\r?\n", text, maxsplit=1)[-1]
                    match = re.search(r"\b(\d{6})\b", body)
                    if match:
                        return match.group(1)
            time.sleep(0.1)
        raise AssertionError(f"no {kind} mail for {email}")

    def sms_code(self, number, after=0):
        """The code in the newest text to `number` (the outbox SMS sender writes `To: <number>`, then `Text: <text>`)."""
        deadline = time.time() + 10
        while time.time() < deadline:
            paths = [p for p in glob.glob(os.path.join(self.data, "sms", "*.txt")) if os.path.getmtime(p) >= after]
            for path in sorted(paths, key=lambda p: (os.path.getmtime(p), p), reverse=True):
                lines = open(path, encoding="utf-8").read().splitlines()
                if f"To: {number}" not in lines:
                    continue
                # The number's own digits are on the To: line; the code is in the text.
                match = re.search(r"\b(\d{6})\b", "\n".join(line for line in lines if not line.startswith("To:")))
                if match:
                    return match.group(1)
            time.sleep(0.1)
        raise AssertionError(f"no text to {number}")

    def post(self, path, body):
        """A direct API call: (status, JSON answer)."""
        request = urllib.request.Request(self.url + path, data=json.dumps(body).encode(), method="POST",
                                         headers={"Content-Type": "application/json", "Accept": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status, json.load(response)
        except urllib.error.HTTPError as error:
            return error.code, json.load(error)

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        shutil.rmtree(self.data, ignore_errors=True)


class Page:
    def __init__(self, server):
        options = Options()
        options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
        for arg in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1100,900", "--disable-gpu"]:
            options.add_argument(arg)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        service = Service(executable_path=os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver"))
        self.driver = webdriver.Chrome(service=service, options=options)
        self.server = server
        self.wait = WebDriverWait(self.driver, 10)

    def open(self, path="/"):
        self.driver.get(self.server.url + path)

    def visible(self, element_id):
        return self.wait.until(EC.visibility_of_element_located((By.ID, element_id)))

    def screen(self, name):
        self.visible("screen-" + name)
        hidden = [s for s in ["signin", "signup", "confirm", "forgot", "reset", "profile", "mfa"] if s != name]
        for other in hidden:
            assert not self.driver.find_element(By.ID, "screen-" + other).is_displayed(), f"{other} shown with {name}"
        return self.driver.find_element(By.ID, "screen-" + name)

    def fill(self, element_id, value):
        field = self.visible(element_id)
        field.clear()
        field.send_keys(value)

    def submit(self, form_id):
        form = self.driver.find_element(By.ID, form_id)
        form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()

    def error_of(self, form_id):
        form = self.driver.find_element(By.ID, form_id)
        alert = form.find_element(By.CSS_SELECTOR, ".error")
        self.wait.until(lambda d: alert.is_displayed() and alert.text.strip())
        return alert.text

    def text_of(self, element_id, contains):
        self.wait.until(EC.text_to_be_present_in_element((By.ID, element_id), contains))
        return self.driver.find_element(By.ID, element_id).text

    def snap(self, name):
        os.makedirs(SHOTS, exist_ok=True)
        SHOT_COUNTER[0] += 1
        time.sleep(0.15)  # let focus rings and notices settle
        self.driver.save_screenshot(os.path.join(SHOTS, f"{SHOT_COUNTER[0]:02d}-{name}.png"))

    def console_problems(self, allow=()):
        problems = []
        for entry in self.driver.get_log("browser"):
            message = entry.get("message", "")
            if entry.get("level") in ("SEVERE", "WARNING") or "Content Security Policy" in message:
                if any(a in message for a in allow):
                    continue
                # The API's expected 4xx answers (wrong password, wrong code) are logged by Chromium as
                # failed loads; CSP violations and script errors are not of that form.
                if re.search(r"/(auth|me)\S* - Failed to load resource: the server responded with a status of 4\d\d", message):
                    continue
                problems.append(message)
        return problems

    def quit(self):
        self.driver.quit()


def check(condition, message):
    if not condition:
        raise AssertionError(message)
