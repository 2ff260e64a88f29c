"""Cognito SRP as pycognito computes it: the client is pycognito's own AWSSRP, the server side is
written here on pycognito's helpers (pad_hex, hex_hash, hex_to_long, compute_hkdf, calculate_u)."""
import base64
import hashlib
import hmac

from pycognito import aws_srp
from pycognito.aws_srp import (
    AWSSRP, N_HEX, G_HEX, calculate_u, compute_hkdf, hash_sha256, hex_hash, hex_to_long, long_to_hex, pad_hex,
)

N = hex_to_long(N_HEX)
G = hex_to_long(G_HEX)


class NoClient:
    """AWSSRP wants a boto3 client; process_challenge never calls it."""


def k_value():
    return hex_to_long(hex_hash("00" + N_HEX + "0" + G_HEX))


def x_value(pool_name, user_id_for_srp, password, salt_hex):
    """As get_password_authentication_key: pad_hex of the SALT *string*, kept verbatim."""
    user_hash = hash_sha256(f"{pool_name}{user_id_for_srp}:{password}".encode("utf-8"))
    return hex_to_long(hex_hash(pad_hex(salt_hex) + user_hash))


def server_verifier(pool_name, user_id_for_srp, password, salt_hex):
    return pow(G, x_value(pool_name, user_id_for_srp, password, salt_hex), N)


def server_b(v, b):
    return (k_value() * v + pow(G, b, N)) % N


def server_key(big_a, big_b, v, b):
    u = calculate_u(big_a, big_b)
    assert u != 0
    s = pow(big_a * pow(v, u, N), b, N)
    key = compute_hkdf(bytearray.fromhex(pad_hex(s)), bytearray.fromhex(pad_hex(long_to_hex(u))))
    return key, u, s


def client(pool_id, user_id_for_srp, password, small_a=None):
    srp = AWSSRP(username=user_id_for_srp, password=password, pool_id=pool_id, client_id="client", client=NoClient())
    if small_a is not None:
        srp.small_a_value = small_a
        srp.large_a_value = srp.calculate_a()
    return srp


def client_response(srp, user_id_for_srp, salt_hex, srp_b_hex, secret_block_b64, timestamp=None):
    """pycognito's process_challenge; with `timestamp`, its timestamp formatter is pinned."""
    params = {"USER_ID_FOR_SRP": user_id_for_srp, "SALT": salt_hex, "SRP_B": srp_b_hex, "SECRET_BLOCK": secret_block_b64}
    if timestamp is None:
        return srp.process_challenge(params, {"USERNAME": user_id_for_srp})
    original = AWSSRP.get_cognito_formatted_timestamp
    AWSSRP.get_cognito_formatted_timestamp = staticmethod(lambda _: timestamp)
    try:
        return srp.process_challenge(params, {"USERNAME": user_id_for_srp})
    finally:
        AWSSRP.get_cognito_formatted_timestamp = original


def signature(key, pool_name, user_id_for_srp, secret_block, timestamp):
    msg = pool_name.encode() + user_id_for_srp.encode() + secret_block + timestamp.encode()
    return base64.standard_b64encode(hmac.new(key, msg, hashlib.sha256).digest()).decode()
