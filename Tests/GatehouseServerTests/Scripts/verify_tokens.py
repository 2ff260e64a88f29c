#!/usr/bin/env python3
"""Verifies Gatehouse tokens with PyJWT, independently of Gatehouse's own token code.

Usage: verify_tokens.py JWKS_URL ISSUER CLIENT_ID ID_TOKEN ACCESS_TOKEN [ALG]

It does what a Cognito verifier (or an API Gateway JWT authorizer) does: fetches the JWKS, picks
the key by `kid`, checks the algorithm (ALG: RS256, the default, or ES256 for GATEHOUSE_TOKEN_ALG=ES256),
issuer, expiry, the ID token's `aud` and `token_use`, and the access token's `client_id` and
`token_use`. Prints OK and exits 0 when both verify.
"""
import sys

import jwt
from jwt import PyJWKClient


def main():
    jwks_url, issuer, client_id, id_token, access_token = sys.argv[1:6]
    alg = sys.argv[6] if len(sys.argv) > 6 else "RS256"
    keys = PyJWKClient(jwks_url)
    id_jwk = keys.get_signing_key_from_jwt(id_token)
    access_jwk = keys.get_signing_key_from_jwt(access_token)
    id_key, access_key = id_jwk.key, access_jwk.key
    for token, jwk in ((id_token, id_jwk), (access_token, access_jwk)):
        assert jwt.get_unverified_header(token)["alg"] == alg, jwt.get_unverified_header(token)
        assert jwk.key_type == ("EC" if alg == "ES256" else "RSA"), jwk.key_type
        if alg == "ES256":
            assert jwk._jwk_data["crv"] == "P-256" and jwk._jwk_data["alg"] == "ES256", jwk._jwk_data
    id_claims = jwt.decode(id_token, id_key, algorithms=[alg], audience=client_id, issuer=issuer,
                           options={"require": ["exp", "iat", "sub", "aud", "iss"]})
    assert id_claims["token_use"] == "id", id_claims
    assert isinstance(id_claims["email_verified"], bool)
    assert isinstance(id_claims["exp"], int) and isinstance(id_claims["iat"], int)
    access_claims = jwt.decode(access_token, access_key, algorithms=[alg], issuer=issuer,
                               options={"require": ["exp", "iat", "sub", "iss"], "verify_aud": False})
    assert access_claims["token_use"] == "access", access_claims
    assert access_claims["client_id"] == client_id
    assert "aud" not in access_claims
    assert access_claims["origin_jti"] == id_claims["origin_jti"]
    assert jwt.get_unverified_header(id_token)["kid"] != jwt.get_unverified_header(access_token)["kid"]
    # A token signed by the ID-token key must not pass as an access token under the access key.
    try:
        jwt.decode(id_token, access_key, algorithms=[alg], options={"verify_aud": False})
        raise SystemExit("ID token verified under the access-token key")
    except jwt.InvalidSignatureError:
        pass
    # The algorithm is pinned: the same token offered under the other algorithm does not verify.
    other = "RS256" if alg == "ES256" else "ES256"
    try:
        jwt.decode(access_token, access_key, algorithms=[other], options={"verify_aud": False})
        raise SystemExit(f"{alg} token verified as {other}")
    except (jwt.InvalidAlgorithmError, jwt.InvalidSignatureError, jwt.InvalidKeyError, TypeError, ValueError):
        pass
    print("OK")


if __name__ == "__main__":
    main()
