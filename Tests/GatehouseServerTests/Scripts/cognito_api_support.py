"""Shared helpers of cognito_api_clients.py: the report, the outbox reader, answer checks."""

import argparse
import base64
import binascii
import concurrent.futures
import contextlib
import datetime
import email
import email.policy
import email.utils
import hashlib
import hmac
import http.client
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time
import urllib.parse
import uuid

try:
    import boto3
    import botocore
    import requests
    from botocore import UNSIGNED
    from botocore.config import Config
    from botocore.exceptions import ClientError
    from pycognito.aws_srp import AWSSRP, hex_to_long
except ImportError as missing:
    print(f"FAIL: imports: {missing}: pip install -r cognito_api_requirements.txt "
          "(boto3 pycognito awscli requests)")
    sys.exit(1)


TARGET_PREFIX = "AWSCognitoIdentityProviderService."
AMZ_JSON = "application/x-amz-json-1.1"
WRONG_CREDENTIALS = "Incorrect username or password."
PASSWORD = "Correct horse 9!"
NEW_PASSWORD = "Battery staple 7?"
RESET_PASSWORD = "Purple otter 42#"
WRONG_PASSWORD = "Wrong guess 31;"
THROTTLE_LIMIT = 40  # wrong passwords sent before deciding that no throttle exists
HTTP_TIMEOUT = 30
UUID_RE = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$", re.I)
HEX_RE = re.compile(r"^[0-9a-fA-F]+$")
CODE_RE = re.compile(r"(?<!\d)(\d{6})(?!\d)")


class GroupAbort(Exception):
    """A step that later steps depend on failed; the rest of the group is skipped."""


# ---------------------------------------------------------------- reporting


class Report:
    def __init__(self):
        self.failures = []
        self.passed = 0

    def ok(self, what):
        self.passed += 1
        print(f"ok: {what}", flush=True)

    def fail(self, what, detail):
        self.failures.append(what)
        print(f"FAIL: {what}: {detail}", flush=True)

    @contextlib.contextmanager
    def check(self, what, fatal=False):
        """Runs the block as one check. A failure is recorded; with fatal=True it also ends the
        group (use it when later steps need what the block produces)."""
        try:
            yield
        except GroupAbort:
            raise
        except Exception as error:  # noqa: BLE001 - every failure is reported, not raised
            self.fail(what, describe(error))
            if fatal:
                raise GroupAbort(what) from error
        else:
            self.ok(what)


def describe(error):
    if isinstance(error, ClientError):
        meta = error.response.get("ResponseMetadata", {})
        err = error.response.get("Error", {})
        text = " ".join(str(err.get("Message", "")).split())
        return f"{err.get('Code')}: {text[:160]!r} (HTTP {meta.get('HTTPStatusCode')})"
    if isinstance(error, AssertionError):
        return str(error) or "assertion failed"
    if isinstance(error, requests.ConnectionError):
        return f"connection failed: {error}"
    return f"{type(error).__name__}: {error}"


# ---------------------------------------------------------------- mail


def outbox_files(outbox):
    """The set of message file names now in the outbox (empty when it does not exist yet)."""
    try:
        return {name for name in os.listdir(outbox) if name.endswith(".eml")}
    except FileNotFoundError:
        return set()


def _recipients(message):
    return {addr.lower() for _, addr in email.utils.getaddresses(message.get_all("To", []))}


def _text_bodies(message):
    for part in message.walk():
        if part.get_content_type() == "text/plain" and not part.is_multipart():
            try:
                yield part.get_content()
            except (LookupError, ValueError):
                payload = part.get_payload(decode=True) or b""
                yield payload.decode("utf-8", "replace")


def latest_code(outbox, address, kind, after=frozenset(), timeout=10):
    """Waits for a new message of `kind` (file `<id>-<kind>.eml` not in `after`) addressed to
    `address` and returns the 6-digit code in its text/plain body. QP and base64 parts are
    decoded by the email package. The file read is added to `after` when `after` is a set."""
    deadline = time.monotonic() + timeout
    seen_other = []
    while True:
        candidates = []
        for name in outbox_files(outbox) - set(after):
            if not name.endswith(f"-{kind}.eml"):
                continue
            path = os.path.join(outbox, name)
            try:
                with open(path, "rb") as handle:
                    message = email.message_from_binary_file(handle, policy=email.policy.default)
                mtime = os.stat(path).st_mtime
            except FileNotFoundError:
                continue
            if address.lower() in _recipients(message):
                candidates.append((mtime, name, message))
            elif name not in seen_other:
                seen_other.append(name)
        for _, name, message in sorted(candidates, key=lambda c: (c[0], c[1]), reverse=True):
            for text in _text_bodies(message):
                found = CODE_RE.search(text)
                if found:
                    if isinstance(after, set):
                        after.add(name)
                    return found.group(1)
            raise AssertionError(f"{name} is addressed to {address} but no text/plain part holds a 6-digit code")
        if time.monotonic() >= deadline:
            raise AssertionError(f"no new {kind} mail to {address} in {outbox} within {timeout}s "
                                 f"(new {kind} files for others: {len(seen_other)})")
        time.sleep(0.1)


# ---------------------------------------------------------------- helpers


def short(text, limit=200):
    return " ".join(str(text).split())[:limit]


def fresh_address(name):
    return f"{name}-{uuid.uuid4().hex[:8]}@example.com"


def error_code(error):
    return error.response.get("Error", {}).get("Code")


def expect_error(code, call, *args, message=None, **kwargs):
    """Calls a boto3 operation that must fail with `code`; checks the error's wire shape too."""
    try:
        result = call(*args, **kwargs)
    except ClientError as error:
        got = error_code(error)
        assert got == code, f"expected {code}, got {describe(error)}"
        text = error.response["Error"].get("Message", "")
        assert text, f"{code} without a message"
        if message is not None:
            assert text == message, f"{code} message {text!r}, expected {message!r}"
        headers = error.response["ResponseMetadata"].get("HTTPHeaders", {})
        header = headers.get("x-amzn-errortype", "")
        assert header.split(":")[0] == code, f"X-Amzn-ErrorType header {header!r}, expected {code}"
        return error
    redacted = {k: (sorted(v) if k == "AuthenticationResult" else v)
                for k, v in result.items() if k != "ResponseMetadata"}
    raise AssertionError(f"expected {code}, got success {json.dumps(redacted, default=str)[:300]}")


def attributes(response, key="UserAttributes"):
    return {a["Name"]: a["Value"] for a in response.get(key, [])}


def jwt_claims(token):
    payload = token.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))


def check_auth_result(response, what="AuthenticationResult", need_refresh=True):
    assert "ChallengeName" not in response, f"{what}: unexpected ChallengeName {response.get('ChallengeName')}"
    result = response.get("AuthenticationResult")
    assert result, f"{what}: no AuthenticationResult in {sorted(response)}"
    wanted = ["IdToken", "AccessToken"] + (["RefreshToken"] if need_refresh else [])
    missing = [k for k in wanted if not result.get(k)]
    assert not missing, f"{what}: missing {missing}"
    assert isinstance(result.get("ExpiresIn"), int) and result["ExpiresIn"] > 0, \
        f"{what}: ExpiresIn {result.get('ExpiresIn')!r} is not a positive integer"
    assert result.get("TokenType") == "Bearer", f"{what}: TokenType {result.get('TokenType')!r}"
    assert "NewDeviceMetadata" not in result, f"{what}: NewDeviceMetadata present (device tracking is unsupported)"
    return result


def check_delivery(details, what="CodeDeliveryDetails", address=None):
    assert details, f"{what} missing"
    assert details.get("DeliveryMedium") == "EMAIL", f"{what}: DeliveryMedium {details.get('DeliveryMedium')!r}"
    assert details.get("AttributeName") == "email", f"{what}: AttributeName {details.get('AttributeName')!r}"
    destination = details.get("Destination", "")
    assert destination and "*" in destination, f"{what}: Destination {destination!r} is not masked"
    if address:
        assert destination.lower() != address.lower(), f"{what}: Destination shows the whole address"


# ---------------------------------------------------------------- the clients
