"""The server under test as the groups reach it (boto3, raw HTTP, native API), and the SRP steps."""

# The standard library, boto3, botocore, requests and pycognito come with the shared helpers.


from cognito_api_support import *  # noqa: F401,F403 (the helpers every group shares)
class Gatehouse:
    def __init__(self, endpoint, client_id, pool_id, outbox, report):
        self.endpoint = endpoint.rstrip("/")
        self.client_id = client_id
        self.pool_id = pool_id
        self.outbox = outbox
        self.report = report
        self.idp = self.new_client()
        self.http = requests.Session()

    def new_client(self):
        return boto3.client(
            "cognito-idp", region_name="us-east-1", endpoint_url=self.endpoint,
            aws_access_key_id="unused", aws_secret_access_key="unused",
            config=Config(signature_version=UNSIGNED, retries={"max_attempts": 1},
                          connect_timeout=5, read_timeout=HTTP_TIMEOUT))

    # -- Cognito
    def sign_up(self, address, password=PASSWORD, name="Test User"):
        return self.idp.sign_up(ClientId=self.client_id, Username=address, Password=password,
                                UserAttributes=[{"Name": "name", "Value": name}])

    def confirm_from_mail(self, address, seen):
        code = latest_code(self.outbox, address, "confirm_signup", after=seen)
        self.idp.confirm_sign_up(ClientId=self.client_id, Username=address, ConfirmationCode=code)

    def new_user(self, prefix, password=PASSWORD):
        """A confirmed user made through the Cognito API; returns (address, UserSub)."""
        address = fresh_address(prefix)
        seen = outbox_files(self.outbox)
        sub = self.sign_up(address, password)["UserSub"]
        self.confirm_from_mail(address, seen)
        return address, sub

    def password_auth(self, address, password, client=None):
        return (client or self.idp).initiate_auth(
            AuthFlow="USER_PASSWORD_AUTH", ClientId=self.client_id,
            AuthParameters={"USERNAME": address, "PASSWORD": password})

    def refresh_auth(self, refresh_token):
        return self.idp.initiate_auth(AuthFlow="REFRESH_TOKEN_AUTH", ClientId=self.client_id,
                                      AuthParameters={"REFRESH_TOKEN": refresh_token})

    def srp(self, address, password):
        return AWSSRP(username=address, password=password, pool_id=self.pool_id,
                      client_id=self.client_id, client=self.idp)

    def srp_sign_in(self, address, password):
        """pycognito's own flow: InitiateAuth USER_SRP_AUTH, then RespondToAuthChallenge
        without Session."""
        return self.srp(address, password).authenticate_user()

    # -- native API
    def native(self, method, path, body=None, token=None):
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return self.http.request(method, self.endpoint + path, json=body, headers=headers,
                                 timeout=HTTP_TIMEOUT)

    def native_new_user(self, prefix, password=PASSWORD):
        address = fresh_address(prefix)
        seen = outbox_files(self.outbox)
        answer = self.native("POST", "/auth/signup", {"email": address, "password": password,
                                                       "full_name": "Native User"})
        assert answer.status_code == 201, f"/auth/signup answered {answer.status_code} {short(answer.text)}"
        code = latest_code(self.outbox, address, "confirm_signup", after=seen)
        answer = self.native("POST", "/auth/confirm", {"email": address, "code": code})
        assert answer.status_code == 200, f"/auth/confirm answered {answer.status_code} {short(answer.text)}"
        return address

    def native_sign_in(self, address, password):
        answer = self.native("POST", "/auth/signin", {"email": address, "password": password})
        assert answer.status_code == 200, f"/auth/signin answered {answer.status_code} {short(answer.text)}"
        tokens = answer.json()
        missing = [k for k in ("id_token", "access_token", "refresh_token", "expires_in", "token_type")
                   if k not in tokens]
        assert not missing, f"/auth/signin body lacks {missing}"
        return tokens

    # -- raw Cognito wire
    def raw(self, target, body, headers=None):
        sent = {"Content-Type": AMZ_JSON}
        if target is not None:
            sent["X-Amz-Target"] = TARGET_PREFIX + target if "." not in target else target
        sent.update(headers or {})
        data = body if isinstance(body, (bytes, str)) else json.dumps(body)
        return self.http.post(self.endpoint + "/", data=data, headers=sent, timeout=HTTP_TIMEOUT)


def check_wire_error(answer, code, status=400):
    """A raw Cognito error answer: the status, JSON {__type, message}, X-Amzn-ErrorType."""
    assert answer.status_code == status, \
        f"HTTP {answer.status_code} (expected {status}) body {short(answer.text)!r}"
    try:
        body = answer.json()
    except ValueError:
        raise AssertionError(f"body is not JSON: {short(answer.text)!r}") from None
    assert isinstance(body, dict) and "__type" in body and "message" in body, f"body {body!r} lacks __type/message"
    got = body["__type"].split("#")[-1].split(":")[0]
    assert got == code, f"__type {body['__type']!r}, expected {code} (message {body.get('message')!r})"
    header = answer.headers.get("X-Amzn-ErrorType", "")
    assert header.split(":")[0] == code, f"X-Amzn-ErrorType {header!r}, expected {code}"
    return body


# ---------------------------------------------------------------- SRP pieces


def srp_initiate(gh, srp, client=None):
    auth_params = srp.get_auth_params()
    response = (client or gh.idp).initiate_auth(AuthFlow="USER_SRP_AUTH", ClientId=gh.client_id,
                                                AuthParameters=auth_params)
    return auth_params, response


def check_srp_challenge(response, strict=True):
    """The PASSWORD_VERIFIER challenge; strict also requires SECRET_BLOCK to be strict base64
    (Amplify Swift's Data(base64Encoded:) refuses anything else)."""
    assert response.get("ChallengeName") == "PASSWORD_VERIFIER", f"ChallengeName {response.get('ChallengeName')!r}"
    params = response.get("ChallengeParameters", {})
    missing = [k for k in ("SALT", "SRP_B", "SECRET_BLOCK", "USER_ID_FOR_SRP", "USERNAME") if not params.get(k)]
    assert not missing, f"ChallengeParameters lack {missing}"
    for key in ("SALT", "SRP_B"):
        assert HEX_RE.match(params[key]), f"{key} is not hex: {params[key][:40]!r}"
    try:
        base64.b64decode(params["SECRET_BLOCK"], validate=strict)
    except (binascii.Error, ValueError) as error:
        raise AssertionError(f"SECRET_BLOCK is not strict standard base64 ({error}): "
                             f"{params['SECRET_BLOCK'][:60]!r}") from None
    assert "AuthenticationResult" not in response, "AuthenticationResult before the password was proven"
    return params


def srp_claim(gh, srp, params, auth_params, when, secret_block=None):
    """pycognito's process_challenge with a chosen TIMESTAMP (and optionally another block),
    built from pycognito's own helpers."""
    user_id = params["USER_ID_FOR_SRP"]
    block_b64 = secret_block or params["SECRET_BLOCK"]
    timestamp = AWSSRP.get_cognito_formatted_timestamp(when)
    key = srp.get_password_authentication_key(user_id, srp.password, hex_to_long(params["SRP_B"]), params["SALT"])
    message = (gh.pool_id.split("_", 1)[1].encode() + user_id.encode()
               + base64.standard_b64decode(block_b64) + timestamp.encode())
    signature = base64.standard_b64encode(hmac.new(key, message, hashlib.sha256).digest()).decode()
    return {"TIMESTAMP": timestamp, "USERNAME": params.get("USERNAME", auth_params["USERNAME"]),
            "PASSWORD_CLAIM_SECRET_BLOCK": block_b64, "PASSWORD_CLAIM_SIGNATURE": signature}


def srp_respond(gh, responses, session=None):
    extra = {"Session": session} if session else {}
    return gh.idp.respond_to_auth_challenge(ClientId=gh.client_id, ChallengeName="PASSWORD_VERIFIER",
                                            ChallengeResponses=responses, **extra)


# ---------------------------------------------------------------- throttling


def count_until_throttled(send, what, limit=THROTTLE_LIMIT):
    """Calls send(i) until it returns "throttled"; returns how many "refused" came first."""
    for attempt in range(limit):
        if send(attempt) == "throttled":
            return attempt
    raise AssertionError(f"{what}: still no throttle after {limit} wrong passwords")


def cognito_wrong_password(gh, address, client=None):
    try:
        gh.password_auth(address, WRONG_PASSWORD, client=client)
    except ClientError as error:
        code = error_code(error)
        if code == "NotAuthorizedException":
            return "refused"
        if code == "TooManyRequestsException":
            return "throttled"
        raise AssertionError(f"wrong password answered {describe(error)}") from None
    raise AssertionError("a wrong password signed in")


def native_wrong_password(gh, address):
    answer = gh.native("POST", "/auth/signin", {"email": address, "password": WRONG_PASSWORD})
    if answer.status_code == 429:
        return "throttled"
    if answer.status_code in (400, 401, 403):
        return "refused"
    raise AssertionError(f"native wrong password answered {answer.status_code} {short(answer.text)}")


# ================================================================= groups
