#!/usr/bin/env python3
"""Server CPU per sign-in, SRP against password, from one running Gatehouse (Benchmarks/srp.sh).

Reads the server's CPU time (utime + stime from /proc/PID/stat) before and after N sequential
sign-ins of each kind, so the client's own work (pycognito's modular arithmetic in CPython) is not
counted. Prints CPU ms per sign-in, the median wall time, and the ratio SRP / password; then the SRP
sign-in against its cryptographic floor (Benchmarks/crypto_floors.py, measured before and after): the
three 3072-bit modular exponentiations the server does per sign-in (Core/Cognito/CognitoSRP: g^b and
(A·v^u)^b with the secret 256-bit b, constant-time; v^u with the public 256-bit u), and with the two
RSA-2048 signatures of the tokens it issues.

    srp_signin.py PID ENDPOINT CLIENT_ID POOL_ID EMAIL PASSWORD [N_PASSWORD N_SRP]
"""
import json
import os
import statistics
import sys
import time
import urllib.request

import boto3
from botocore import UNSIGNED
from botocore.config import Config
from pycognito.aws_srp import AWSSRP

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from crypto_floors import floors, print_floor_rows  # noqa: E402


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def measure(pid, runs, one):
    walls = []
    before = cpu_seconds(pid)
    for _ in range(runs):
        start = time.perf_counter()
        one()
        walls.append(time.perf_counter() - start)
    return (cpu_seconds(pid) - before) / runs * 1000, statistics.median(walls) * 1000


def main():
    pid, endpoint, client_id, pool_id, email, password = sys.argv[1:7]
    n_password = int(sys.argv[7]) if len(sys.argv) > 7 else 20
    n_srp = int(sys.argv[8]) if len(sys.argv) > 8 else 100
    cognito = boto3.client("cognito-idp", region_name="us-east-1", endpoint_url=endpoint,
                           config=Config(signature_version=UNSIGNED, retries={"max_attempts": 1}))

    def native():
        request = urllib.request.Request(endpoint + "/auth/signin", method="POST",
                                         data=json.dumps({"email": email, "password": password}).encode(),
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request) as answer:
            assert "access_token" in json.load(answer)

    def user_password_auth():
        answer = cognito.initiate_auth(ClientId=client_id, AuthFlow="USER_PASSWORD_AUTH",
                                       AuthParameters={"USERNAME": email, "PASSWORD": password})
        assert "AccessToken" in answer["AuthenticationResult"]

    def srp():
        tokens = AWSSRP(username=email, password=password, pool_id=pool_id, client_id=client_id,
                        client=cognito).authenticate_user()
        assert "AccessToken" in tokens["AuthenticationResult"]

    srp()  # warm: the first SRP sign-in of a pre-existing account may write its verifier
    floor_seconds = float(os.environ.get("FLOOR_SECONDS", "1"))
    before = floors(floor_seconds)
    rows = [("POST /auth/signin (scrypt)", *measure(pid, n_password, native)),
            ("InitiateAuth USER_PASSWORD_AUTH (scrypt)", *measure(pid, n_password, user_password_auth)),
            ("InitiateAuth USER_SRP_AUTH + RespondToAuthChallenge", *measure(pid, n_srp, srp))]
    print(f"{'sign-in':<52} {'server CPU ms':>14} {'median wall ms':>15}")
    for name, cpu, wall in rows:
        print(f"{name:<52} {cpu:>14.2f} {wall:>15.1f}")
    print(f"SRP ÷ password, server CPU per sign-in: {rows[2][1] / rows[0][1]:.4f} "
          f"(1/{rows[0][1] / rows[2][1]:.0f})")
    after = floors(floor_seconds)
    modexps = {"modexp3072_ct": 2, "modexp3072": 1}
    print_floor_rows([
        ("SRP sign-in (InitiateAuth + RespondToAuthChallenge)", rows[2][1], modexps, "the modexps"),
        ("SRP sign-in, with its tokens", rows[2][1], dict(modexps, rsa2048_sign=2), "modexps + ID and access token"),
    ], before, after)


if __name__ == "__main__":
    main()
