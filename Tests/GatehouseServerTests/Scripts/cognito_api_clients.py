#!/usr/bin/env python3
"""Checks Gatehouse's Cognito user-pool API with the clients people really use: boto3, pycognito
(SRP) and the AWS CLI, plus raw HTTP for hostile requests and Gatehouse's native JSON API on the
same host.

usage: cognito_api_clients.py --endpoint http://127.0.0.1:PORT --client-id CLIENT
                              --pool-id us-east-1_GhTest42 --outbox DIR [--only NAME[,NAME]]

Groups (run in this order; --only picks some):
  journey      sign-up, confirm, SRP sign-in, GetUser, both refreshes, attributes, passwords,
               GlobalSignOut, RevokeToken, forgot password, DeleteUser
  srp_hostile  SRP: right, wrong, replayed, tampered SECRET_BLOCK, stale TIMESTAMP, unknown user
  both_apis    the Cognito API and the native /auth API share users, sessions and throttles
  hostile      raw HTTP: bad JSON, unknown operations, 2 MiB body, unsigned Admin*, devices,
               duplicate sign-up, concurrent wrong passwords
  cli          one journey with `aws cognito-idp … --no-sign-request`

Mail is read from --outbox: one RFC 5322 file per message, named <id>-<kind>.eml.

Each passing check prints `ok: <what>`; a failing one prints `FAIL: <what>: <detail>`. The run ends
with `ALL OK` and exit 0, or with a count of failures and exit 1. Needs boto3/botocore >= 1.40.7
(GetTokensFromRefreshToken, unsigned), pycognito, requests and awscli
(cognito_api_requirements.txt beside this file).
"""
# The standard library, boto3, botocore, requests and pycognito come with the shared helpers.


from cognito_api_support import *  # noqa: F401,F403 (the helpers every group shares)
from cognito_api_gatehouse import *  # noqa: F401,F403
from cognito_api_journey import group_journey, group_srp_hostile
from cognito_api_hostile import group_both_apis, group_hostile, group_cli

GROUPS = {
    "journey": group_journey,
    "srp_hostile": group_srp_hostile,
    "both_apis": group_both_apis,
    "hostile": group_hostile,
    "cli": group_cli,
}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--endpoint", required=True, help="base URL serving POST / and the native /auth API")
    parser.add_argument("--client-id", required=True, help="the pool's app client id")
    parser.add_argument("--pool-id", required=True, help="the pool id (region_name), e.g. us-east-1_GhTest42")
    parser.add_argument("--outbox", required=True, help="folder the server writes <id>-<kind>.eml mails to")
    parser.add_argument("--only", help="comma-separated groups: " + ",".join(GROUPS))
    args = parser.parse_args(argv)
    if "_" not in args.pool_id:
        parser.error("--pool-id must contain '_' (SRP uses the part after it)")
    selected = list(GROUPS)
    if args.only:
        selected = [name.strip() for name in args.only.split(",") if name.strip()]
        unknown = [name for name in selected if name not in GROUPS]
        if unknown:
            parser.error(f"unknown group(s) {unknown}; choose from {list(GROUPS)}")

    report = Report()
    gh = Gatehouse(args.endpoint, args.client_id, args.pool_id, args.outbox, report)
    print(f"# boto3 {boto3.__version__}, botocore {botocore.__version__}; groups: {', '.join(selected)}", flush=True)
    try:
        gh.raw("InitiateAuth", {})
    except requests.ConnectionError as error:
        report.fail(f"reach {args.endpoint}", describe(error))
        return 1
    if "get_tokens_from_refresh_token" not in dir(gh.idp):
        report.fail("botocore", f"{botocore.__version__} lacks GetTokensFromRefreshToken: pip install 'botocore>=1.40.7'")
    started = time.monotonic()
    for name in selected:
        group_started = time.monotonic()
        try:
            GROUPS[name](gh, report)
        except GroupAbort as abort:
            print(f"   ({name}: stopped after `{abort}` failed)", flush=True)
        except Exception as error:  # noqa: BLE001
            report.fail(f"{name}: unexpected error", describe(error))
        print(f"   ({name}: {time.monotonic() - group_started:.1f}s)", flush=True)
    if report.failures:
        print(f"{len(report.failures)} check(s) failed, {report.passed} passed "
              f"in {time.monotonic() - started:.1f}s", flush=True)
        return 1
    print(f"{report.passed} checks passed in {time.monotonic() - started:.1f}s", flush=True)
    print("ALL OK", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
