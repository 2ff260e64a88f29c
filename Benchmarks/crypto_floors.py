#!/usr/bin/env python3
"""The cryptographic floors the flows are measured against, in µs of one core, on this machine now.

    rsa2048_sign     one RSA-2048 signature     openssl speed rsa2048 (the server signs RS256 through
                                                this same system libcrypto.so.3, Core/Tokens/SigningKey)
    ecdsap256_sign   one ECDSA P-256 signature  openssl speed ecdsap256
    ecdsap256_verify one ECDSA P-256 verify     openssl speed ecdsap256
    modexp3072_ct    one 3072-bit modexp, 256-bit secret exponent, BN_mod_exp_mont_consttime
    modexp3072       one 3072-bit modexp, 256-bit public exponent, BN_mod_exp
                     (both called through ctypes on libcrypto.so.3: the functions, library and operand
                     sizes Infrastructure/Crypto/SystemBigNum uses for SRP; Python's pow() is printed
                     beside them as a cross-check)
    hmac_sha1        one HMAC-SHA1 of an 8-byte counter under a 20-byte key (Python's hmac.digest over
                     OpenSSL: an upper bound, the call overhead included)

The server signs ES256 and verifies P-256 with swift-crypto (BoringSSL), not OpenSSL: the ECDSA floors
are OpenSSL's (Benchmarks/Microbench prints BoringSSL's ES256 signing rate beside it).

    crypto_floors.py [SECONDS]     # prints the floors as JSON
"""
import ctypes
import ctypes.util
import hmac
import json
import os
import re
import subprocess
import sys
import time

# RFC 5054's 3072-bit group, the one Cognito uses (Core/Cognito/CognitoSRP.prime).
N_HEX = (
    "FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22514A08798E3404DD"
    "EF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B0BFF5CB6F406B7ED"
    "EE386BFB5A899FA5AE9F24117C4B1FE649286651ECE45B3DC2007CB8A163BF0598DA48361C55D39A69163FA8FD24CF5F"
    "83655D23DCA3AD961C62F356208552BB9ED529077096966D670C354E4ABC9804F1746C08CA18217C32905E462E36CE3B"
    "E39E772C180E86039B2783A2EC07A28FB5C55DF06F4C52C9DE2BCBF6955817183995497CEA956AE515D2261898FA0510"
    "15728E5A8AAAC42DAD33170D04507A33A85521ABDF1CBA64ECFB850458DBEF0A8AEA71575D060C7DB3970F85A6E1E4C7"
    "ABF5AE8CDB0933D71E8C94E04A25619DCEE3D2261AD2EE6BF12FFA06D98A0864D87602733EC86A64521F2B18177B200C"
    "BBE117577A615D6C770988C0BAD946E208E24FA074E5AB3143DB5BFCE0FD108E4B82D120A93AD2CAFFFFFFFFFFFFFFFF"
)


def openssl_speed(algorithm, seconds):
    """(sign µs, verify µs) from `openssl speed -seconds S <algorithm>`, one core."""
    out = subprocess.run(["openssl", "speed", "-seconds", str(max(1, round(seconds))), algorithm], capture_output=True, text=True, check=True).stdout
    line = [l for l in out.splitlines() if re.match(r"^\s*(rsa|\d+ bits ecdsa)", l) and "/s" not in l][-1]
    sign_s, verify_s = [float(x) for x in line.split()[-2:]]
    return 1e6 / sign_s, 1e6 / verify_s


def timed(seconds, one):
    n, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(8):
            one()
        n += 8
    return (time.perf_counter() - start) / n * 1e6


def modexp_floors(seconds):
    crypto = ctypes.CDLL(ctypes.util.find_library("crypto") or "libcrypto.so.3")
    crypto.BN_new.restype = ctypes.c_void_p
    crypto.BN_CTX_new.restype = ctypes.c_void_p
    crypto.BN_bin2bn.restype = ctypes.c_void_p
    crypto.BN_bin2bn.argtypes = [ctypes.c_char_p, ctypes.c_int, ctypes.c_void_p]
    for name in ("BN_mod_exp", "BN_mod_exp_mont_consttime"):
        getattr(crypto, name).restype = ctypes.c_int
    crypto.BN_mod_exp.argtypes = [ctypes.c_void_p] * 5
    crypto.BN_mod_exp_mont_consttime.argtypes = [ctypes.c_void_p] * 6

    def bn(data):
        return crypto.BN_bin2bn(data, len(data), None)

    modulus = bytes.fromhex(N_HEX)
    base = bytes([0x5A]) + os.urandom(len(modulus) - 1)  # < N, a full-size base as A·v^u is
    exponent = os.urandom(32)  # b and u are 256 bits (CognitoSRP.privateBByteCount, SHA-256)
    r, a, p, m, ctx = crypto.BN_new(), bn(base), bn(exponent), bn(modulus), crypto.BN_CTX_new()
    consttime = timed(seconds, lambda: crypto.BN_mod_exp_mont_consttime(r, a, p, m, ctx, None))
    public = timed(seconds, lambda: crypto.BN_mod_exp(r, a, p, m, ctx))
    b, e, n = int.from_bytes(base, "big"), int.from_bytes(exponent, "big"), int.from_bytes(modulus, "big")
    python = timed(seconds, lambda: pow(b, e, n))
    return consttime, public, python


def floors(seconds=2):
    rsa_sign, _ = openssl_speed("rsa2048", seconds)
    ec_sign, ec_verify = openssl_speed("ecdsap256", seconds)
    consttime, public, python = modexp_floors(seconds)
    key, counter = os.urandom(20), (123456).to_bytes(8, "big")
    mac = timed(seconds / 2, lambda: hmac.digest(key, counter, "sha1"))
    return {"rsa2048_sign": rsa_sign, "ecdsap256_sign": ec_sign, "ecdsap256_verify": ec_verify,
            "modexp3072_ct": consttime, "modexp3072": public, "modexp3072_python_pow": python, "hmac_sha1": mac}


def averaged(before, after):
    return {k: (before[k] + after[k]) / 2 for k in before}


if __name__ == "__main__":
    print(json.dumps(floors(float(sys.argv[1]) if len(sys.argv) > 1 else 2), indent=1))


def print_floor_rows(rows, before, after):
    """Prints each flow's server CPU beside its floor (measured `before` and `after` the flows, averaged)
    as a table, and one machine-readable `FLOOR_ROW|flow|cpu µs|floor µs|multiple|floor` line per
    flow for Benchmarks/floors.sh. `rows`: (flow, server CPU ms, floor: {floor key: count}, note)."""
    mean = averaged(before, after)
    print("floors (µs, one core; before → after): " + ", ".join(
        f"{k} {before[k]:.1f} → {after[k]:.1f}" for k in before))
    print(f"{'flow':<52} {'server CPU µs':>14} {'floor µs':>9} {'multiple':>9}  floor")
    for flow, cpu_ms, parts, note in rows:
        floor = sum(mean[k] * count for k, count in parts.items())
        text = " + ".join(f"{count} × {k}" for k, count in parts.items()) + (f" ({note})" if note else "")
        print(f"{flow:<52} {cpu_ms * 1000:>14.0f} {floor:>9.0f} {cpu_ms * 1000 / floor:>8.2f}x  {text}")
    for flow, cpu_ms, parts, note in rows:
        floor = sum(mean[k] * count for k, count in parts.items())
        text = " + ".join(f"{count} × {k}" for k, count in parts.items()) + (f" ({note})" if note else "")
        print(f"FLOOR_ROW|{flow}|{cpu_ms * 1000:.0f}|{floor:.0f}|{cpu_ms * 1000 / floor:.2f}|{text}")
