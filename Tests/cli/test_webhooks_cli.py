"""Webhooks end to end (issue 30 part 1): the real binary's `gatehouse webhooks add|list|remove` on the data
directory of a running `gatehouse serve`, a sign-up and sign-in on it, and Tests/webhooks/receiver.py verifying each
delivery with the Standard Webhooks reference library (`standardwebhooks`).

    python3 Tests/cli/test_webhooks_cli.py     (GATEHOUSE_SERVER_BINARY, default .build/debug/gatehouse)
"""
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "browser"))
from web_harness import BINARY, Server, check  # noqa: E402

RECEIVER = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "webhooks", "receiver.py")


def cli(server, *args, ok=True, allow_private=True):
    env = {k: v for k, v in os.environ.items() if not k.startswith("GATEHOUSE_")}
    env.update({"GATEHOUSE_DATA_DIR": server.data, "GATEHOUSE_LOG_LEVEL": "warning"})
    if allow_private:
        env["GATEHOUSE_WEBHOOK_ALLOW_PRIVATE"] = "true"
    result = subprocess.run([BINARY, *args], cwd=server.data, env=env, capture_output=True, text=True, timeout=120)
    if ok and result.returncode != 0:
        raise AssertionError(f"gatehouse {' '.join(args)} failed ({result.returncode}): {result.stderr}")
    return result


def deliveries(directory, count, timeout=20):
    deadline = time.time() + timeout
    while time.time() < deadline:
        path = os.path.join(directory, "log.jsonl")
        if os.path.exists(path):
            with open(path) as file:
                lines = [json.loads(line) for line in file if line.strip()]
            if len(lines) >= count:
                return lines
        time.sleep(0.2)
    raise AssertionError(f"fewer than {count} deliveries arrived in {timeout} s")


def main():
    receiver = subprocess.Popen([sys.executable, RECEIVER], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    info = json.loads(receiver.stdout.readline())
    server = Server({"GATEHOUSE_WEBHOOK_ALLOW_PRIVATE": "true"})
    try:
        refused = cli(server, "webhooks", "add", info["url"] + "/ok/hooks", "--events", "user.created", ok=False, allow_private=False)
        check(refused.returncode != 0 and "not a public address" in refused.stderr, f"loopback refused by default: {refused.stderr!r}")
        check(cli(server, "webhooks", "add", "https://x.example/", "--events", "user.exploded", ok=False).returncode != 0, "unknown events refused")
        printed = cli(server, "webhooks", "add", info["url"] + "/ok/hooks", "--events", "user.created,user.signed_in").stdout.split()
        endpoint, secret = printed[0], printed[2]
        check(secret.startswith("whsec_"), f"the secret is printed once: {printed!r}")
        with open(os.path.join(info["dir"], "secret"), "w") as file:
            file.write(secret)
        listed = cli(server, "webhooks", "list").stdout
        check(endpoint in listed and "user.created,user.signed_in" in listed and "live" in listed and secret not in listed, f"list: {listed!r}")

        status, _ = server.post("/auth/signup", {"email": "gina@example.com", "password": "gina horse 99"})
        check(status == 201, "sign-up")
        status, _ = server.post("/auth/confirm", {"email": "gina@example.com", "code": server.code("confirm_signup", "gina@example.com")})
        check(status == 200, "confirm")
        status, tokens = server.post("/auth/signin", {"email": "gina@example.com", "password": "gina horse 99"})
        check(status == 200, "sign-in")
        got = deliveries(info["dir"], 2)
        check(sorted(json.loads(d["body"])["type"] for d in got) == ["user.created", "user.signed_in"], f"the subscribed events: {got!r}")
        for delivery in got:
            check(delivery["verified"], f"standardwebhooks verifies it: {delivery['error']}")
            check(tokens["refresh_token"] not in delivery["body"] and tokens["access_token"] not in delivery["body"], "no token")
            check("gina horse 99" not in delivery["body"], "no password")

        check("removed" in cli(server, "webhooks", "remove", endpoint).stdout, "remove")
        check("removed" in cli(server, "webhooks", "list").stdout, "a removed endpoint is listed as removed")
        check(cli(server, "webhooks", "remove", endpoint, ok=False).returncode != 0, "removing twice is an error")
        status, _ = server.post("/auth/signin", {"email": "gina@example.com", "password": "gina horse 99"})
        time.sleep(2)
        check(len(deliveries(info["dir"], 2)) == 2, "nothing goes to a removed endpoint")
        print("webhooks CLI: all checks passed")
    finally:
        server.stop()
        receiver.stdin.close()
        receiver.terminate()


if __name__ == "__main__":
    main()
