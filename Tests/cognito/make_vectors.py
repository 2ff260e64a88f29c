"""Writes Tests/cognito/srp-vectors.json: fixed Cognito SRP cases from pycognito 2024.5.1, so the Swift
tests need no Python. Deterministic (seeded); run: .venv/bin/python scripts/make_vectors.py"""
import base64
import datetime
import json
import random
import sys
from pathlib import Path

from importlib import metadata
from srp_reference import (
    AWSSRP, G, N, N_HEX, client, client_response, k_value, long_to_hex, pad_hex, server_b, server_key,
    server_verifier, signature, x_value, calculate_u, hex_to_long,
)

rng = random.Random(20260822)


def rand_bytes(n):
    return bytes(rng.getrandbits(8) for _ in range(n))


def make_case(name, pool_id, user, password, salt_bytes, b=None, want=None, note=""):
    pool_name = pool_id.split("_")[1]
    salt_hex = pad_hex(hex_to_long(salt_bytes.hex()))  # what the server sends: the padded form of the salt's number
    v = server_verifier(pool_name, user, password, salt_hex)
    a = hex_to_long(rand_bytes(128).hex()) % N
    srp = client(pool_id, user, password, small_a=a)
    big_a = srp.large_a_value
    tries = 0
    while True:
        b_value = b if b is not None else hex_to_long(rand_bytes(32).hex())
        big_b = server_b(v, b_value)
        key, u, s = server_key(big_a, big_b, v, b_value)
        tries += 1
        if want is None or want(u, s):
            break
        assert b is None
    secret_block = rand_bytes(48)
    secret_b64 = base64.standard_b64encode(secret_block).decode()
    timestamp = AWSSRP.get_cognito_formatted_timestamp(
        datetime.datetime(2026, 11, 3, 8, 5, 9) + datetime.timedelta(days=rng.randrange(400), seconds=rng.randrange(86400)))
    response = client_response(srp, user, salt_hex, long_to_hex(big_b), secret_b64, timestamp)
    # pycognito's client and this server agree on the key:
    assert response["PASSWORD_CLAIM_SIGNATURE"] == signature(key, pool_name, user, secret_block, timestamp), name
    wrong = client_response(client(pool_id, user, password + "x", small_a=a), user, salt_hex, long_to_hex(big_b), secret_b64, timestamp)
    assert wrong["PASSWORD_CLAIM_SIGNATURE"] != response["PASSWORD_CLAIM_SIGNATURE"]
    return {
        "name": name, "note": note, "poolId": pool_id, "poolName": pool_name, "userIDForSRP": user, "password": password,
        "saltHex": salt_hex, "xHex": long_to_hex(x_value(pool_name, user, password, salt_hex)),
        "verifierHex": long_to_hex(v), "privateBHex": long_to_hex(b_value), "srpBHex": long_to_hex(big_b),
        "privateAHex": long_to_hex(a), "srpAHex": long_to_hex(big_a), "uPaddedHex": pad_hex(long_to_hex(u)),
        "sPaddedHex": pad_hex(s), "keyHex": key.hex(), "secretBlock": secret_b64, "timestamp": timestamp,
        "signature": response["PASSWORD_CLAIM_SIGNATURE"], "wrongPasswordSignature": wrong["PASSWORD_CLAIM_SIGNATURE"],
        "searchTries": tries,
    }


def top(n):
    return n.bit_length()


cases = [
    make_case("plain", "us-east-1_AbCdEf123", "alice", "Correct horse 1!", rand_bytes(16), note="no constraint"),
    make_case("salt high bit", "eu-west-1_Zz9", "b0b", "p@ss", bytes([0x9c]) + rand_bytes(15),
              note="SALT padded to 17 bytes with 00"),
    make_case("salt leading zero byte", "eu-west-1_Zz9", "carol", "pw", bytes([0x00, 0x3a]) + rand_bytes(14),
              note="16 random bytes starting 00: SALT is the 15-byte padded form"),
    make_case("salt odd hex", "ap-south-1_q", "dave", "pw", bytes([0x00, 0x07]) + rand_bytes(14),
              note="the salt's number has an odd hex length: padded to 0x07…"),
    make_case("sub and unicode password", "us-east-1_AbCdEf123", "7c1e4d2a-5b6f-4c3e-9a8b-1f2e3d4c5b6a", "pässwörd ✓ 密码",
              rand_bytes(16), note="USER_ID_FOR_SRP as a sub; UTF-8 password"),
    make_case("u high bit", "us-east-1_AbCdEf123", "erin", "pw", rand_bytes(16), want=lambda u, s: top(u) == 256,
              note="PAD(u) is 33 bytes"),
    make_case("u short", "us-east-1_AbCdEf123", "frank", "pw", rand_bytes(16), want=lambda u, s: top(u) <= 248,
              note="u's hash starts with a zero byte: PAD(u) is 31 or fewer bytes"),
    make_case("S short", "us-east-1_AbCdEf123", "grace", "pw", rand_bytes(16), want=lambda u, s: top(s) <= 3064,
              note="S < 2^3064: PAD(S) is shorter than 384 bytes"),
    make_case("S high bit", "us-east-1_AbCdEf123", "heidi", "pw", rand_bytes(16), want=lambda u, s: top(s) == 3072,
              note="PAD(S) is 385 bytes"),
]

stamps = []
for when in [datetime.datetime(2026, 11, 3, 8, 5, 9), datetime.datetime(2026, 1, 1, 0, 0, 0),
             datetime.datetime(2024, 2, 29, 23, 59, 59), datetime.datetime(2025, 12, 31, 12, 0, 0),
             datetime.datetime(1999, 12, 31, 23, 59, 59), datetime.datetime(2038, 1, 19, 3, 14, 8)]:
    unix = int(when.replace(tzinfo=datetime.timezone.utc).timestamp())
    stamps.append({"unix": unix, "formatted": AWSSRP.get_cognito_formatted_timestamp(when)})

pads = [{"hex": h, "padded": pad_hex(hex_to_long(h))} for h in ["0", "1", "7f", "80", "ff", "100", "0080", "00ff00", "abc", "123"]]

out = {
    "source": f"pycognito {metadata.version('pycognito')} aws_srp (client) "
              "+ scripts/srp_reference.py (server); scripts/make_vectors.py",
    "N": N_HEX.lower(), "g": "2", "kHex": long_to_hex(k_value()),
    "cases": cases, "timestamps": stamps, "pad": pads,
}
path = Path(__file__).resolve().parent.parent / "Tests" / "cognito" / "srp-vectors.json"
path.write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n")
print(f"wrote {path}: {len(cases)} cases " + ", ".join(f"{c['name']}({c['searchTries']})" for c in cases))
