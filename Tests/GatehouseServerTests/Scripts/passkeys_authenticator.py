"""A software WebAuthn authenticator for the passkey checks (passkeys_clients.py): keys from
`cryptography`, CBOR and COSE from python-fido2 (an encoder no one here wrote), the WebAuthn JSON
forms a browser's `toJSON()` produces. Its knobs make the hostile cases: user verification off, a
counter that goes backwards, another origin or RP id, tampered bytes.
"""
import base64
import hashlib
import json
import os
import struct

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, padding, rsa
from fido2 import cbor
from fido2.cose import ES256, RS256, EdDSA


def b64(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Authenticator:
    """One discoverable credential per RP id and user, like a platform authenticator."""

    def __init__(self, algorithm=-7):
        self.algorithm = algorithm
        self.credentials = {}  # credential id -> (private key, rp id, user handle, counter)

    def _key(self):
        if self.algorithm == -7:
            key = ec.generate_private_key(ec.SECP256R1())
            return key, ES256.from_cryptography_key(key.public_key())
        if self.algorithm == -8:
            key = ed25519.Ed25519PrivateKey.generate()
            return key, EdDSA.from_cryptography_key(key.public_key())
        key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        return key, RS256.from_cryptography_key(key.public_key())

    def _sign(self, key, data):
        if self.algorithm == -7:
            return key.sign(data, ec.ECDSA(hashes.SHA256()))
        if self.algorithm == -8:
            return key.sign(data)
        return key.sign(data, padding.PKCS1v15(), hashes.SHA256())

    @staticmethod
    def flags(uv=True, attested=False, backup=False):
        value = 0x01 | (0x04 if uv else 0) | (0x40 if attested else 0)
        return value | (0x18 if backup else 0)

    def create(self, options, origin, uv=True, rp_id=None, challenge=None, kind="webauthn.create"):
        """navigator.credentials.create(): the RegistrationResponseJSON."""
        rp = rp_id or options["rp"]["id"]
        check = [p["alg"] for p in options["pubKeyCredParams"]]
        assert self.algorithm in check, check
        key, cose = self._key()
        credential_id = os.urandom(32)
        client_data = json.dumps({"type": kind, "challenge": challenge or options["challenge"], "origin": origin,
                                  "crossOrigin": False}).encode()
        auth_data = (hashlib.sha256(rp.encode()).digest() + bytes([self.flags(uv, attested=True, backup=True)]) + struct.pack(">I", 0)
                     + b"\x00" * 16 + struct.pack(">H", len(credential_id)) + credential_id + cbor.encode(cose))
        attestation = cbor.encode({"fmt": "none", "attStmt": {}, "authData": auth_data})
        self.credentials[credential_id] = [key, rp, options["user"]["id"], 0]
        return {"id": b64(credential_id), "rawId": b64(credential_id), "type": "public-key",
                "response": {"clientDataJSON": b64(client_data), "attestationObject": b64(attestation), "transports": ["internal", "hybrid"]},
                "clientExtensionResults": {}, "authenticatorAttachment": "platform"}

    def get(self, options, origin, credential_id=None, uv=True, rp_id=None, counter=None, kind="webauthn.get"):
        """navigator.credentials.get(): the AuthenticationResponseJSON (the newest credential by default)."""
        if credential_id is None:
            allowed = [unb64(c["id"]) for c in options.get("allowCredentials", [])]
            candidates = [c for c in self.credentials if not allowed or c in allowed]
            credential_id = candidates[-1]
        key, rp, user_handle, count = self.credentials[credential_id]
        count = count + 1 if counter is None else counter
        self.credentials[credential_id][3] = count
        client_data = json.dumps({"type": kind, "challenge": options["challenge"], "origin": origin}).encode()
        auth_data = hashlib.sha256((rp_id or rp).encode()).digest() + bytes([self.flags(uv, backup=True)]) + struct.pack(">I", count)
        signature = self._sign(key, auth_data + hashlib.sha256(client_data).digest())
        return {"id": b64(credential_id), "rawId": b64(credential_id), "type": "public-key",
                "response": {"clientDataJSON": b64(client_data), "authenticatorData": b64(auth_data), "signature": b64(signature),
                             "userHandle": user_handle},
                "clientExtensionResults": {}, "authenticatorAttachment": "platform"}
