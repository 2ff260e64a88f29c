"""The operator's tools end to end (issue 29): the real binary's `gatehouse admin-keys`, `gatehouse users` and
`gatehouse audit` on the data directory of a running `gatehouse serve`, and the admin API called with the key the
command printed, by `requests` as a script would.

    python3 Tests/cli/test_admin_cli.py        (GATEHOUSE_SERVER_BINARY, default .build/debug/gatehouse)
"""
import os
import subprocess
import sys

import requests

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "browser"))
from web_harness import BINARY, Server, check  # noqa: E402


def cli(server, *args, ok=True):
    env = {k: v for k, v in os.environ.items() if not k.startswith("GATEHOUSE_")}
    env.update({"GATEHOUSE_DATA_DIR": server.data, "GATEHOUSE_LOG_LEVEL": "warning"})
    result = subprocess.run([BINARY, *args], cwd=server.data, env=env, capture_output=True, text=True, timeout=120)
    if ok and result.returncode != 0:
        raise AssertionError(f"gatehouse {' '.join(args)} failed ({result.returncode}): {result.stderr}")
    return result


def sign_up(server, email, password):
    status, _ = server.post("/auth/signup", {"email": email, "password": password})
    check(status == 201, f"sign-up {email}: {status}")
    status, _ = server.post("/auth/confirm", {"email": email, "code": server.code("confirm_signup", email)})
    check(status == 200, "confirm")
    status, tokens = server.post("/auth/signin", {"email": email, "password": password})
    check(status == 200, f"sign-in {email}: {status}")
    return tokens


def main():
    server = Server()
    try:
        api = server.url
        printed = cli(server, "admin-keys", "create", "--name", "ci").stdout
        key = printed.split()[0]
        check(key.startswith("gha_") and len(key) == 47, f"a key is printed once: {printed!r}")
        check(cli(server, "admin-keys", "create", "--name", "ci", ok=False).returncode != 0, "a live name cannot be reused")
        listed = cli(server, "admin-keys", "list").stdout
        check("ci" in listed and "live" in listed and key not in listed, f"keys are listed by name, never shown: {listed!r}")

        tokens = sign_up(server, "frank@example.com", "frank horse 99")
        bearer = {"Authorization": f"Bearer {tokens['access_token']}"}
        admin = {"Authorization": f"Bearer {key}"}
        found = requests.get(f"{api}/admin/users", params={"email": "frank@example.com"}, headers=admin, timeout=10)
        check(found.status_code == 200 and len(found.json()["users"]) == 1, f"the API finds the user: {found.text}")
        sub = found.json()["users"][0]["sub"]
        check(requests.get(f"{api}/admin/users", headers=bearer, timeout=10).status_code == 401, "a user's token is not an admin key")
        check(requests.get(f"{api}/admin/users", headers={**admin, "Origin": api}, timeout=10).status_code == 403, "browsers are refused")

        check(sub in cli(server, "users", "list").stdout, "users list shows the user")
        shown = cli(server, "users", "show", "frank@example.com").stdout
        check("live sessions: 1" in shown and "password" in shown, f"users show: {shown!r}")
        check("disabled" in cli(server, "users", "disable", sub).stdout, "users disable")
        status, answer = server.post("/auth/signin", {"email": "frank@example.com", "password": "frank horse 99"})
        check(status == 403 and answer["error"]["code"] == "user_disabled", f"a disabled user cannot sign in: {status} {answer}")
        check(requests.get(f"{api}/me", headers=bearer, timeout=10).status_code == 401, "the disabled user's token fails")
        cli(server, "users", "enable", sub)
        tokens = server.post("/auth/signin", {"email": "frank@example.com", "password": "frank horse 99"})[1]
        check("1 sessions ended" in cli(server, "users", "signout", "frank@example.com").stdout, "users signout")
        check("Would delete" in cli(server, "users", "delete", sub).stdout, "delete asks for --yes")
        check("deleted" in cli(server, "users", "delete", sub, "--yes").stdout, "users delete --yes")
        check(cli(server, "users", "show", sub, ok=False).returncode != 0, "a deleted user is gone")

        audit = cli(server, "audit", "--user", sub).stdout
        for event in ["sign_in", "user_disabled", "user_enabled", "user_signed_out", "account_deleted"]:
            check(event in audit, f"the audit log has {event}: {audit!r}")
        check("\tcli\t" in audit and "\tuser\t" in audit, "the operator's actor is cli, the user's own sign-in user")
        everything = cli(server, "audit", "--limit", "500").stdout
        check("admin_read" in everything and "admin:ci" in everything and "admin_refused" in everything, "the API's calls are the key's")
        check("frank horse" not in everything and key not in everything, "no secret in the log")
        cli(server, "admin-keys", "revoke", "--name", "ci")
        check(requests.get(f"{api}/admin/users", headers=admin, timeout=10).status_code == 401, "a revoked key fails at once")
        page = requests.get(f"{api}/admin/audit", headers=admin, timeout=10)
        check(page.status_code == 401, "still refused")
        print("admin CLI: ALL OK")
    finally:
        server.stop()


if __name__ == "__main__":
    main()
