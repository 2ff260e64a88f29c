"""Groups `both_apis`, `hostile` and `cli` of cognito_api_clients.py."""

# The standard library, boto3, botocore, requests and pycognito come with the shared helpers.


from cognito_api_support import *  # noqa: F401,F403 (the helpers every group shares)
from cognito_api_gatehouse import *  # noqa: F401,F403

def group_both_apis(gh, report):
    idp = gh.idp
    with report.check("both_apis: native sign-up and confirm, then SRP sign-in"):
        native_user = gh.native_new_user("native")
        check_auth_result(gh.srp_sign_in(native_user, PASSWORD), "SRP")

    with report.check("both_apis: Cognito sign-up and confirm, then native /auth/signin", fatal=True):
        address, sub = gh.new_user("cognito")
        native_tokens = gh.native_sign_in(address, PASSWORD)
    with report.check("both_apis: Cognito access token accepted by native GET /me", fatal=True):
        cognito_tokens = check_auth_result(gh.password_auth(address, PASSWORD))
        answer = gh.native("GET", "/me", token=cognito_tokens["AccessToken"])
        assert answer.status_code == 200, f"GET /me answered {answer.status_code} {short(answer.text)}"
    with report.check("both_apis: native access token accepted by GetUser"):
        user = idp.get_user(AccessToken=native_tokens["access_token"])
        assert attributes(user).get("sub") == sub, f"GetUser sub {attributes(user).get('sub')!r}, UserSub {sub}"
    with report.check("both_apis: Cognito GlobalSignOut ends the native session at once"):
        idp.global_sign_out(AccessToken=cognito_tokens["AccessToken"])
        answer = gh.native("GET", "/me", token=native_tokens["access_token"])
        assert answer.status_code == 401, f"GET /me with the native token answered {answer.status_code}"
        answer = gh.native("POST", "/auth/refresh", {"refresh_token": native_tokens["refresh_token"]})
        assert 400 <= answer.status_code < 500, f"/auth/refresh answered {answer.status_code}"
        answer = gh.native("GET", "/me", token=cognito_tokens["AccessToken"])
        assert answer.status_code == 401, f"GET /me with the Cognito token answered {answer.status_code}"

    with report.check("both_apis: wrong passwords on both APIs share one throttle"):
        alone_user, _ = gh.new_user("throttle-alone")
        alone = count_until_throttled(lambda i: cognito_wrong_password(gh, alone_user), "Cognito alone")
        mixed_user, _ = gh.new_user("throttle-mixed")
        mixed = count_until_throttled(
            lambda i: cognito_wrong_password(gh, mixed_user) if i % 2 == 0 else native_wrong_password(gh, mixed_user),
            "alternating")
        assert mixed == alone, f"alternating APIs throttled after {mixed} wrong passwords, one API after {alone}"
        assert native_wrong_password(gh, mixed_user) == "throttled", "native API not throttled (expected 429)"
        assert cognito_wrong_password(gh, mixed_user) == "throttled", "Cognito API not throttled"
        print(f"   (throttle after {alone} wrong passwords)", flush=True)


def send_large(gh, size):
    """POSTs `size` bytes to / with http.client, tolerating a server that answers and closes
    before reading everything. Returns (status, body) or (None, reason)."""
    url = urllib.parse.urlsplit(gh.endpoint)
    conn_class = http.client.HTTPSConnection if url.scheme == "https" else http.client.HTTPConnection
    conn = conn_class(url.hostname, url.port, timeout=HTTP_TIMEOUT)
    head = b'{"ClientId":"' + gh.client_id.encode() + b'","Username":"'
    tail = b'"}'
    filler = size - len(head) - len(tail)
    try:
        conn.putrequest("POST", "/")
        conn.putheader("Content-Type", AMZ_JSON)
        conn.putheader("X-Amz-Target", TARGET_PREFIX + "ForgotPassword")
        conn.putheader("Content-Length", str(size))
        conn.endheaders()
        try:
            conn.send(head)
            chunk = b"x" * 65536
            while filler > 0:
                conn.send(chunk[:filler])
                filler -= len(chunk)
            conn.send(tail)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the server may refuse early; its answer is read below
        try:
            answer = conn.getresponse()
            return answer.status, answer.read(4096)
        except (ConnectionResetError, http.client.RemoteDisconnected) as error:
            return None, f"no answer ({type(error).__name__})"
    finally:
        conn.close()


def group_hostile(gh, report):
    idp = gh.idp
    with report.check("hostile: a confirmed user to work with", fatal=True):
        address, _ = gh.new_user("hostile")

    raw_cases = [
        ("malformed JSON", "InitiateAuth", b'{"ClientId": "abc", "AuthFlow": ', "SerializationException"),
        ("duplicate keys", "SignUp", b'{"ClientId":"a","ClientId":"b"}', "SerializationException"),
        ("wrong JSON type (Username: 5)", "SignUp",
         {"ClientId": gh.client_id, "Username": 5, "Password": PASSWORD}, "SerializationException"),
        ("a JSON array as the body", "SignUp", b"[]", "SerializationException"),
        ("unknown operation", "NoSuchOperation", {}, "UnknownOperationException"),
        ("another service's X-Amz-Target", "DynamoDB_20120810.ListTables", {}, "UnknownOperationException"),
        ("missing X-Amz-Target", None, {"ClientId": gh.client_id}, "UnknownOperationException"),
    ]
    for what, target, body, code in raw_cases:
        with report.check(f"hostile: {what} is {code} (400)"):
            check_wire_error(gh.raw(target, body), code)
    with report.check("hostile: duplicate ClientId did not sign in"):
        body = ('{"AuthFlow":"USER_PASSWORD_AUTH","ClientId":"b","ClientId":"%s","AuthParameters":'
                '{"USERNAME":"%s","PASSWORD":"%s"}}' % (gh.client_id, address, PASSWORD))
        answer = gh.raw("InitiateAuth", body)
        assert answer.status_code != 200, "duplicate keys were accepted (last key won)"
        check_wire_error(answer, "SerializationException")

    with report.check("hostile: another ClientId is ResourceNotFoundException"):
        expect_error("ResourceNotFoundException", idp.initiate_auth, AuthFlow="USER_PASSWORD_AUTH",
                     ClientId="0000000000000000000000000a",
                     AuthParameters={"USERNAME": address, "PASSWORD": PASSWORD})
        expect_error("ResourceNotFoundException", idp.sign_up, ClientId="0000000000000000000000000a",
                     Username=fresh_address("other-client"), Password=PASSWORD)
    with report.check("hostile: weak password is InvalidPasswordException"):
        expect_error("InvalidPasswordException", gh.sign_up, fresh_address("weak"), "short1")
    with report.check("hostile: USER_PASSWORD_AUTH without PASSWORD is InvalidParameterException"):
        expect_error("InvalidParameterException", idp.initiate_auth, AuthFlow="USER_PASSWORD_AUTH",
                     ClientId=gh.client_id, AuthParameters={"USERNAME": address})
    with report.check("hostile: an unknown AuthFlow is InvalidParameterException"):
        expect_error("InvalidParameterException", idp.initiate_auth, AuthFlow="NO_SUCH_FLOW",
                     ClientId=gh.client_id, AuthParameters={"USERNAME": address, "PASSWORD": PASSWORD})
    with report.check("hostile: a garbage access token is NotAuthorizedException"):
        expect_error("NotAuthorizedException", idp.get_user, AccessToken="not-a-token")

    with report.check("hostile: a 2 MiB body is refused with 413"):
        status, body = send_large(gh, 2 * 1024 * 1024)
        assert status == 413, f"answered {status} {body!r:.200}"

    with report.check("hostile: duplicate SignUp answers like a new sign-up"):
        answer = gh.sign_up(address, NEW_PASSWORD, name="Impostor")
        assert answer.get("UserConfirmed") is False, f"UserConfirmed {answer.get('UserConfirmed')!r}"
        assert UUID_RE.match(answer.get("UserSub", "")), f"UserSub {answer.get('UserSub')!r}"
        check_delivery(answer.get("CodeDeliveryDetails"), address=address)
    with report.check("hostile: duplicate SignUp made no second account"):
        check_auth_result(gh.password_auth(address, PASSWORD), "original password")
        expect_error("NotAuthorizedException", gh.password_auth, address, NEW_PASSWORD, message=WRONG_CREDENTIALS)
        assert attributes(idp.get_user(AccessToken=gh.password_auth(address, PASSWORD)
                                       ["AuthenticationResult"]["AccessToken"])).get("name") != "Impostor", \
            "the duplicate sign-up changed the account"

    with report.check("hostile: unsigned AdminDeleteUser is MissingAuthenticationTokenException; the user still signs in"):
        expect_error("MissingAuthenticationTokenException", idp.admin_delete_user, UserPoolId=gh.pool_id, Username=address)
        check_auth_result(gh.password_auth(address, PASSWORD))
    with report.check("hostile: unsigned AdminSetUserPassword is refused; the password is unchanged"):
        expect_error("MissingAuthenticationTokenException", idp.admin_set_user_password, UserPoolId=gh.pool_id,
                     Username=address, Password=NEW_PASSWORD, Permanent=True)
        check_auth_result(gh.password_auth(address, PASSWORD))
    with report.check("hostile: unsigned AdminConfirmSignUp is refused; the user stays unconfirmed"):
        pending = fresh_address("pending")
        gh.sign_up(pending, PASSWORD)
        expect_error("MissingAuthenticationTokenException", idp.admin_confirm_sign_up, UserPoolId=gh.pool_id,
                     Username=pending)
        expect_error("UserNotConfirmedException", gh.password_auth, pending, PASSWORD)
    with report.check("hostile: unsigned AdminCreateUser is MissingAuthenticationTokenException"):
        expect_error("MissingAuthenticationTokenException", idp.admin_create_user, UserPoolId=gh.pool_id,
                     Username=fresh_address("admin-made"), TemporaryPassword=PASSWORD, MessageAction="SUPPRESS")
    with report.check("hostile: unsigned ListUsers is MissingAuthenticationTokenException"):
        expect_error("MissingAuthenticationTokenException", idp.list_users, UserPoolId=gh.pool_id)

    with report.check("hostile: device operations are UnsupportedOperationException"):
        device_user, _ = gh.new_user("device")
        access = check_auth_result(gh.password_auth(device_user, PASSWORD))["AccessToken"]
        device_key = "us-east-1_" + str(uuid.uuid4())
        expect_error("UnsupportedOperationException", idp.confirm_device, AccessToken=access, DeviceKey=device_key,
                     DeviceName="lab", DeviceSecretVerifierConfig={"PasswordVerifier": "AAAA", "Salt": "AAAA"})
        expect_error("UnsupportedOperationException", idp.list_devices, AccessToken=access)
        expect_error("UnsupportedOperationException", idp.forget_device, AccessToken=access, DeviceKey=device_key)

    with report.check("hostile: 20 concurrent wrong passwords get no more NotAuthorized than a sequential run"):
        sequential_user, _ = gh.new_user("seq")
        sequential = count_until_throttled(lambda i: cognito_wrong_password(gh, sequential_user), "sequential")
        racing_user, _ = gh.new_user("race")
        clients = [gh.new_client() for _ in range(20)]
        barrier = threading.Barrier(len(clients))

        def attempt(client):
            barrier.wait(timeout=HTTP_TIMEOUT)
            return cognito_wrong_password(gh, racing_user, client=client)

        with concurrent.futures.ThreadPoolExecutor(len(clients)) as pool:
            outcomes = list(pool.map(attempt, clients))
        refused = outcomes.count("refused")
        assert refused + outcomes.count("throttled") == len(outcomes), f"outcomes {outcomes}"
        assert refused <= sequential, \
            f"{refused} NotAuthorizedException answers in parallel, {sequential} before the throttle sequentially"
        print(f"   (sequential: {sequential} refused before the throttle; parallel: {refused} refused, "
              f"{len(outcomes) - refused} throttled)", flush=True)


def group_cli(gh, report):
    beside = os.path.join(os.path.dirname(sys.executable), "aws")
    aws = shutil.which("aws") or (beside if os.access(beside, os.X_OK) else None)
    if not aws:
        report.fail("cli: aws command", "`aws` not found on PATH: pip install awscli")
        return
    env = dict(os.environ, AWS_DEFAULT_REGION="us-east-1", AWS_MAX_ATTEMPTS="1", AWS_RETRY_MODE="standard",
               AWS_CONFIG_FILE=os.devnull, AWS_SHARED_CREDENTIALS_FILE=os.devnull, AWS_PAGER="",
               AWS_EC2_METADATA_DISABLED="true")
    env.pop("AWS_PROFILE", None)

    def cli(*args, expect_ok=True):
        command = [aws, "cognito-idp", *args, "--endpoint-url", gh.endpoint, "--no-sign-request",
                   "--region", "us-east-1", "--output", "json"]
        done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
        if expect_ok:
            assert done.returncode == 0, f"`aws cognito-idp {args[0]}` exited {done.returncode}: {done.stderr.strip()[:300]}"
            return json.loads(done.stdout) if done.stdout.strip() else {}
        assert done.returncode != 0, f"`aws cognito-idp {args[0]}` succeeded: {done.stdout.strip()[:300]}"
        return done.stderr

    address = fresh_address("cli")
    seen = outbox_files(gh.outbox)
    with report.check("cli: sign-up", fatal=True):
        answer = cli("sign-up", "--client-id", gh.client_id, "--username", address, "--password", PASSWORD,
                     "--user-attributes", json.dumps([{"Name": "name", "Value": "CLI User"}]))
        assert answer.get("UserConfirmed") is False and answer.get("UserSub"), f"answer {answer}"
    with report.check("cli: confirm-sign-up with the mailed code", fatal=True):
        code = latest_code(gh.outbox, address, "confirm_signup", after=seen)
        cli("confirm-sign-up", "--client-id", gh.client_id, "--username", address, "--confirmation-code", code)
    with report.check("cli: initiate-auth USER_PASSWORD_AUTH", fatal=True):
        answer = cli("initiate-auth", "--auth-flow", "USER_PASSWORD_AUTH", "--client-id", gh.client_id,
                     "--auth-parameters", json.dumps({"USERNAME": address, "PASSWORD": PASSWORD}))
        tokens = check_auth_result(answer, "initiate-auth")
    with report.check("cli: get-user"):
        answer = cli("get-user", "--access-token", tokens["AccessToken"])
        assert attributes(answer).get("email", "").lower() == address.lower(), f"attributes {answer.get('UserAttributes')}"
    with report.check("cli: global-sign-out, then get-user fails with NotAuthorizedException"):
        cli("global-sign-out", "--access-token", tokens["AccessToken"])
        stderr = cli("get-user", "--access-token", tokens["AccessToken"], expect_ok=False)
        assert "NotAuthorizedException" in stderr, f"stderr {stderr.strip()[:300]}"
