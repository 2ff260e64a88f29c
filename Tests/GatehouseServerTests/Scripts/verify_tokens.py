#!/usr/bin/env python3
"""Verifies Gatehouse tokens with PyJWT, independently of Gatehouse's own token code.

Usage: verify_tokens.py JWKS_URL ISSUER CLIENT_ID ID_TOKEN ACCESS_TOKEN

It does what a Cognito verifier (or an API Gateway JWT authorizer) does: fetches the JWKS, picks
the key by `kid`, checks RS256, issuer, expiry, the ID token's `aud` and `token_use`, and the access
token's `client_id` and `token_use`. Prints OK and exits 0 when both verify.
"""
import sys

import jwt
from jwt import PyJWKClient


def main():
    jwks_url, issuer, client_id, id_token, access_token = sys.argv[1:6]
    keys = PyJWKClient(jwks_url)
    id_key = keys.get_signing_key_from_jwt(id_token).key
    access_key = keys.get_signing_key_from_jwt(access_token).key
    id_claims = jwt.decode(id_token, id_key, algorithms=["RS256"], audience=client_id, issuer=issuer,
                           options={"require": ["exp", "iat", "sub", "aud", "iss"]})
    assert id_claims["token_use"] == "id", id_claims
    assert isinstance(id_claims["email_verified"], bool)
    assert isinstance(id_claims["exp"], int) and isinstance(id_claims["iat"], int)
    access_claims = jwt.decode(access_token, access_key, algorithms=["RS256"], issuer=issuer,
                               options={"require": ["exp", "iat", "sub", "iss"], "verify_aud": False})
    assert access_claims["token_use"] == "access", access_claims
    assert access_claims["client_id"] == client_id
    assert "aud" not in access_claims
    assert access_claims["origin_jti"] == id_claims["origin_jti"]
    assert jwt.get_unverified_header(id_token)["kid"] != jwt.get_unverified_header(access_token)["kid"]
    # A token signed by the ID-token key must not pass as an access token under the access key.
    try:
        jwt.decode(id_token, access_key, algorithms=["RS256"], options={"verify_aud": False})
        raise SystemExit("ID token verified under the access-token key")
    except jwt.InvalidSignatureError:
        pass
    print("OK")


if __name__ == "__main__":
    main()
