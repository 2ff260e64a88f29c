#!/usr/bin/env python3
"""A local Cognito for Gatehouse's tests: moto's cognito-idp emulator, in process, behind a thin WSGI
layer that adds what moto lacks and real Cognito does, so the product can call the real operations.

    python3 Tests/cognito/moto_shim.py        # prints one JSON line, serves until stdin closes

What the layer adds (see ../shared/notes/moto-cognito.md for moto's gaps):
  - confirmation codes: SignUp generates a 6-digit code, ConfirmSignUp checks it (moto accepts any)
    and then sets email_verified=true as Cognito does; ResendConfirmationCode is implemented;
  - ForgotPassword codes: moto's "moto-confirmation-code:NNNNNN" header is replaced by a 6-digit
    code delivered like mail; ConfirmForgotPassword checks it and the password policy;
  - RevokeToken (one refresh token and its access tokens), DeleteUser, and
    GetTokensFromRefreshToken (refresh-token rotation);
  - /_shim/messages: the "mail" Cognito would have sent ({kind, email, code}), for tests to read;
    /_shim/expire-codes: makes every outstanding code expired (ExpiredCodeException);
  - test-only hooks: /_shim/set-status (POST {"username", "status"}) puts a user in any status,
    including those the API cannot reach (ARCHIVED, COMPROMISED, EXTERNAL_PROVIDER); /_shim/calls
    lists every operation called with a Username ({operation, username}), in order.
Everything else goes to moto unchanged. It provisions two pools: one set up as docs/cognito.md says, one
deliberately misconfigured for `gatehouse doctor`.
"""
import base64
import json
import os
import random
import sys
import threading
import uuid

os.environ.setdefault("AWS_ACCESS_KEY_ID", "testing")
os.environ.setdefault("AWS_SECRET_ACCESS_KEY", "testing")
os.environ.setdefault("AWS_DEFAULT_REGION", "us-east-1")

from moto.cognitoidp.models import cognitoidp_backends  # noqa: E402
from moto.moto_server.werkzeug_app import DomainDispatcherApplication, create_backend_app  # noqa: E402
from werkzeug.serving import make_server  # noqa: E402

REGION = "us-east-1"
ACCOUNT = "123456789012"
TARGET_PREFIX = "AWSCognitoIdentityProviderService."

moto_app = DomainDispatcherApplication(create_backend_app)
lock = threading.RLock()
codes = {}  # (kind, pool, username) -> {"code", "expired", "moto_code"}
messages = []  # what Cognito would have mailed
calls = []  # {"operation", "username"} of every call that names a user


def backend():
    return cognitoidp_backends[ACCOUNT][REGION]


def error(code, message, status=400):
    return status, {"__type": code, "message": message}


def find_user(pool_id, username):
    pool = backend().user_pools.get(pool_id)
    if pool is None:
        return None, None
    try:
        return pool, pool._get_user(username)
    except Exception:
        return pool, None


def new_code(kind, pool_id, username, email, moto_code=None):
    code = "%06d" % random.randint(0, 999999)
    codes[(kind, pool_id, username.lower())] = {"code": code, "expired": False, "moto_code": moto_code}
    messages.append({"kind": kind, "email": email, "code": code})
    return code


def check_code(kind, pool_id, username, presented):
    entry = codes.get((kind, pool_id, username.lower()))
    if entry is None or entry["code"] != presented:
        return error("CodeMismatchException", "Invalid verification code provided, please try again.")
    if entry["expired"]:
        return error("ExpiredCodeException", "Invalid code provided, please request a code again.")
    return None


def client_pool(client_id):
    for pool in backend().user_pools.values():
        if client_id in pool.clients:
            return pool
    return None


def jwt_claims(token):
    try:
        payload = token.split(".")[1]
        return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    except Exception:
        return {}


def delivery(email):
    local, _, domain = email.partition("@")
    return {"Destination": f"{local[:1]}***@{domain[:1]}***", "DeliveryMedium": "EMAIL", "AttributeName": "email"}


def call_moto(environ, body):
    """Runs moto on (a possibly rewritten) body; returns (status, headers, body bytes)."""
    environ = dict(environ)
    environ["wsgi.input"] = __import__("io").BytesIO(body)
    environ["CONTENT_LENGTH"] = str(len(body))
    captured = {}

    def start_response(status, headers, exc_info=None):
        captured["status"] = int(status.split()[0])
        captured["headers"] = headers

    chunks = moto_app(environ, start_response)
    data = b"".join(chunks)
    if hasattr(chunks, "close"):
        chunks.close()
    return captured["status"], captured["headers"], data


def handle(operation, payload, environ, raw):
    """Returns (status, json) for operations the layer answers or adjusts, or None to pass through."""
    if operation == "SignUp":
        status, headers, data = call_moto(environ, raw)
        if status == 200:
            pool = client_pool(payload.get("ClientId", ""))
            email = next((a["Value"] for a in payload.get("UserAttributes", []) if a.get("Name") == "email"), payload.get("Username"))
            if pool is not None:
                new_code("signup", pool.id, payload["Username"], email)
        return status, json.loads(data or b"{}")
    if operation == "ConfirmSignUp":
        pool = client_pool(payload.get("ClientId", ""))
        if pool is None:
            return None
        _, user = find_user(pool.id, payload.get("Username", ""))
        if user is None:
            return None  # moto answers UserNotFoundException
        if user.status == "CONFIRMED":
            return error("NotAuthorizedException", "User cannot be confirmed. Current status is CONFIRMED")
        failure = check_code("signup", pool.id, payload.get("Username", ""), payload.get("ConfirmationCode"))
        if failure:
            return failure
        status, headers, data = call_moto(environ, raw)
        if status == 200:
            codes.pop(("signup", pool.id, payload["Username"].lower()), None)
            attrs = [a for a in user.attributes if a["Name"] != "email_verified"]
            attrs.append({"Name": "email_verified", "Value": "true"})
            user.attributes = attrs
        return status, json.loads(data or b"{}")
    if operation == "ResendConfirmationCode":
        pool = client_pool(payload.get("ClientId", ""))
        if pool is None:
            return error("ResourceNotFoundException", "No such client")
        _, user = find_user(pool.id, payload.get("Username", ""))
        if user is None:
            return error("UserNotFoundException", "Username/client id combination not found.")
        if user.status == "CONFIRMED":
            return error("InvalidParameterException", "User is already confirmed.")
        email = next((a["Value"] for a in user.attributes if a["Name"] == "email"), payload["Username"])
        new_code("signup", pool.id, payload["Username"], email)
        return 200, {"CodeDeliveryDetails": delivery(email)}
    if operation == "ForgotPassword":
        status, headers, data = call_moto(environ, raw)
        moto_code = dict((k.lower(), v) for k, v in headers).get("x-moto-forgot-password-confirmation-code")
        pool = client_pool(payload.get("ClientId", ""))
        if status == 200 and pool is not None:
            _, user = find_user(pool.id, payload.get("Username", ""))
            if user is None:
                return error("UserNotFoundException", "Username/client id combination not found.")
            email = next((a["Value"] for a in user.attributes if a["Name"] == "email"), payload["Username"])
            new_code("reset", pool.id, payload["Username"], email, moto_code)
            return 200, {"CodeDeliveryDetails": delivery(email)}
        return status, json.loads(data or b"{}")
    if operation == "ConfirmForgotPassword":
        pool = client_pool(payload.get("ClientId", ""))
        if pool is None:
            return None
        _, user = find_user(pool.id, payload.get("Username", ""))
        if user is None:
            return error("UserNotFoundException", "Username/client id combination not found.")
        failure = check_code("reset", pool.id, payload.get("Username", ""), payload.get("ConfirmationCode"))
        if failure:
            return failure
        password = payload.get("Password", "")
        policy = pool.extended_config.get("Policies", {}).get("PasswordPolicy", {}) if hasattr(pool, "extended_config") else {}
        minimum = policy.get("MinimumLength", 8)
        if len(password) < minimum or (policy.get("RequireNumbers", True) and not any(c.isdigit() for c in password)):
            return error("InvalidPasswordException", "Password does not conform to policy")
        entry = codes.pop(("reset", pool.id, payload["Username"].lower()))
        payload = dict(payload, ConfirmationCode=entry["moto_code"])
        status, headers, data = call_moto(environ, json.dumps(payload).encode())
        return status, json.loads(data or b"{}")
    if operation == "RevokeToken":
        token = payload.get("Token", "")
        for pool in backend().user_pools.values():
            entry = pool.refresh_tokens.get(token)
            if entry is None:
                continue
            _, _, origin = entry
            pool.refresh_tokens[token] = None
            for access in list(pool.access_tokens):
                if jwt_claims(access).get("origin_jti") == origin:
                    pool.access_tokens.pop(access)
        return 200, {}
    if operation == "DeleteUser":
        token = payload.get("AccessToken", "")
        for pool in backend().user_pools.values():
            if token in pool.access_tokens:
                _, username = pool.access_tokens[token]
                backend().admin_delete_user(pool.id, username)
                pool.sign_out(username)
                return 200, {}
        return error("NotAuthorizedException", "Invalid token")
    if operation == "GetTokensFromRefreshToken":
        token = payload.get("RefreshToken", "")
        pool = client_pool(payload.get("ClientId", ""))
        entry = pool.refresh_tokens.get(token) if pool else None
        if entry is None:
            return error("NotAuthorizedException", "Invalid Refresh Token")
        client_id, username, origin = entry
        rotated = str(uuid.uuid4())
        pool.refresh_tokens[rotated] = (client_id, username, origin)
        pool.refresh_tokens[token] = None
        access, id_token, expires = pool.create_tokens_from_refresh_token(rotated)
        return 200, {"AuthenticationResult": {"AccessToken": access, "IdToken": id_token, "RefreshToken": rotated, "ExpiresIn": expires, "TokenType": "Bearer"}}
    return None


def app(environ, start_response):
    path = environ.get("PATH_INFO", "")
    if path == "/_shim/messages":
        with lock:
            body = json.dumps(messages).encode()
        start_response("200 OK", [("Content-Type", "application/json"), ("Content-Length", str(len(body)))])
        return [body]
    if path == "/_shim/calls":
        with lock:
            body = json.dumps(calls).encode()
        start_response("200 OK", [("Content-Type", "application/json"), ("Content-Length", str(len(body)))])
        return [body]
    if path == "/_shim/set-status" and environ.get("REQUEST_METHOD") == "POST":
        length = int(environ.get("CONTENT_LENGTH") or 0)
        request = json.loads(environ["wsgi.input"].read(length) or b"{}")
        with lock:
            found = None
            for pool in backend().user_pools.values():
                _, user = find_user(pool.id, request.get("username", ""))
                if user is not None:
                    found = user
                    break
            if found is not None:
                found.status = request["status"]
        start_response("204 No Content" if found is not None else "404 Not Found", [])
        return [b""]
    if path == "/_shim/expire-codes":
        with lock:
            for entry in codes.values():
                entry["expired"] = True
        start_response("204 No Content", [])
        return [b""]
    target = environ.get("HTTP_X_AMZ_TARGET", "")
    if environ.get("REQUEST_METHOD") == "POST" and target.startswith(TARGET_PREFIX):
        length = int(environ.get("CONTENT_LENGTH") or 0)
        raw = environ["wsgi.input"].read(length) if length else b""
        try:
            payload = json.loads(raw or b"{}")
        except ValueError:
            payload = {}
        with lock:
            if isinstance(payload, dict) and isinstance(payload.get("Username"), str):
                calls.append({"operation": target[len(TARGET_PREFIX):], "username": payload["Username"]})
            answer = handle(target[len(TARGET_PREFIX):], payload, environ, raw)
            if answer is None:
                status, headers, data = call_moto(environ, raw)
                start_response(f"{status} X", headers)
                return [data]
        status, body = answer
        data = json.dumps(body).encode()
        headers = [("Content-Type", "application/x-amz-json-1.1" if status == 200 else "application/json"), ("Content-Length", str(len(data)))]
        if status != 200:
            headers.append(("X-Amzn-ErrorType", body["__type"]))
        start_response(f"{status} X", headers)
        return [data]
    return moto_app(environ, start_response)


def provision():
    b = backend()
    good = b.create_user_pool("gatehouse-good", {
        "UsernameAttributes": ["email"], "AutoVerifiedAttributes": ["email"],
        "Policies": {"PasswordPolicy": {"MinimumLength": 8, "RequireNumbers": True, "RequireUppercase": False, "RequireLowercase": False, "RequireSymbols": False}},
    })
    good_client = b.create_user_pool_client(good.id, False, {
        "ClientName": "gatehouse-app",
        "ExplicitAuthFlows": ["ALLOW_ADMIN_USER_PASSWORD_AUTH", "ALLOW_USER_PASSWORD_AUTH", "ALLOW_REFRESH_TOKEN_AUTH"],
        "AllowedOAuthFlowsUserPoolClient": True, "AllowedOAuthFlows": ["code"],
        "AllowedOAuthScopes": ["openid", "email", "profile"],
        "CallbackURLs": ["myapp://callback"], "LogoutURLs": ["myapp://signout"],
        "SupportedIdentityProviders": ["COGNITO", "Google", "SignInWithApple"],
        "ReadAttributes": ["email", "email_verified", "name"],
    })
    b.create_identity_provider(good.id, "Google", {
        "ProviderType": "Google",
        "ProviderDetails": {"client_id": "web-client.apps.googleusercontent.com", "client_secret": "x", "authorize_scopes": "openid email profile"},
        "AttributeMapping": {"email": "email", "username": "sub"},
    })
    b.create_identity_provider(good.id, "SignInWithApple", {
        "ProviderType": "SignInWithApple",
        "ProviderDetails": {"client_id": "com.example.app.signin", "team_id": "TEAM123456", "key_id": "KEY1234567", "authorize_scopes": "email name"},
        "AttributeMapping": {"email": "email"},
    })
    bad = b.create_user_pool("gatehouse-bad", {
        "UsernameAttributes": ["email"],
        "Policies": {"PasswordPolicy": {"MinimumLength": 8, "RequireNumbers": True, "RequireUppercase": False, "RequireLowercase": False, "RequireSymbols": False}},
    })
    bad_client = b.create_user_pool_client(bad.id, True, {
        "ClientName": "misconfigured-app",
        "ExplicitAuthFlows": ["ALLOW_USER_SRP_AUTH", "ALLOW_REFRESH_TOKEN_AUTH"],
        "AllowedOAuthFlowsUserPoolClient": True, "AllowedOAuthFlows": ["code"],
        "AllowedOAuthScopes": ["openid", "email", "profile"],
        "CallbackURLs": ["https://example.com/callback"], "LogoutURLs": ["https://example.com/signout"],
        "SupportedIdentityProviders": ["COGNITO", "Google", "SignInWithApple"],
    })
    b.create_identity_provider(bad.id, "Google", {
        "ProviderType": "Google",
        "ProviderDetails": {"client_id": "other-web-client.apps.googleusercontent.com", "client_secret": "x",
                            "authorize_scopes": "openid, email, profile, aws.cognito.signin.user.admin"},
        "AttributeMapping": {"email": "email"},
    })
    b.create_identity_provider(bad.id, "SignInWithApple", {
        "ProviderType": "SignInWithApple",
        "ProviderDetails": {"client_id": "com.example.app", "team_id": "TEAM123456", "key_id": "KEY1234567", "authorize_scopes": "email,name"},
        "AttributeMapping": {"email": "email"},
    })
    return good, good_client, bad, bad_client


def main():
    server = make_server("127.0.0.1", 0, app, threaded=True)
    endpoint = f"http://127.0.0.1:{server.server_port}"
    good, good_client, bad, bad_client = provision()
    print(json.dumps({
        "endpoint": endpoint, "region": REGION,
        "userPoolId": good.id, "clientId": good_client.id, "jwksUrl": f"{endpoint}/{good.id}/.well-known/jwks.json",
        "badUserPoolId": bad.id, "badClientId": bad_client.id,
    }), flush=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    sys.stdin.read()  # serve until the test closes our stdin (or exits)
    os._exit(0)


if __name__ == "__main__":
    main()
