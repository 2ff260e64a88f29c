"""Stand-ins for API endpoints that openapi.yaml does not describe yet, which test_contract.py adds to the document
before checking app.js against it.

Why: the passkey endpoints (docs/passkeys.md) are not in openapi.yaml. Rather than let app.js call them
unchecked, the checker adds these stand-ins to the document, transcribed from docs/passkeys.md, and checks app.js
against them like any operation. One exception: a body marked WEBAUTHN is WebAuthn's own JSON form (W3C WebAuthn
Level 3: PublicKeyCredentialRequestOptionsJSON, ...CreationOptionsJSON, RegistrationResponseJSON,
AuthenticationResponseJSON), which app.js passes whole between the server and the browser
(PublicKeyCredential.parse*OptionsFromJSON and credential.toJSON(), or app.js's fallback converter, which reads
WebAuthn's field names, not Gatehouse's): its fields are not followed; fields app.js adds to one (`body.name = ...`)
are. The rules that keep this honest: every stand-in must be called by app.js, and none may be in openapi.yaml (once
the document describes an endpoint, delete its stand-in so the document is what app.js is checked against).
Nothing else is exempt: any other endpoint missing from the document still fails.
"""
from openapi_document import Document

WEBAUTHN = {"x-webauthn": True}
PASSKEY = {"type": "object", "properties": {
    "id": {"type": "string"}, "name": {"type": "string"}, "created_at": {"type": "string"}, "last_used_at": {"type": ["string", "null"]},
    "transports": {"type": "array", "items": {"type": "string"}}, "backed_up": {"type": "boolean"}, "flagged": {"type": "boolean"},
}}


def _json(schema, required=False, **more):
    return dict(content={"application/json": {"schema": schema}}, **({"required": True} if required else {}), **more)


ERRORS = {"400": {"$ref": "#/components/responses/InvalidRequest"}, "429": {"$ref": "#/components/responses/TooManyRequests"}}
SIGNED_IN = {"401": {"$ref": "#/components/responses/Unauthorized"}}
STAND_INS = {
    "/auth/passkey/options": {"post": {"requestBody": _json({"type": "object", "properties": {"email": {"type": "string"}}}),
                                       "responses": {"200": _json(WEBAUTHN), **ERRORS}}},
    "/auth/passkey/signin": {"post": {"requestBody": _json(WEBAUTHN, required=True),  # answered like POST /auth/signin
                                      "responses": {"200": {"$ref": "#/components/responses/Tokens"},
                                                    "401": {"$ref": "#/components/responses/InvalidCredentials"}, **ERRORS}}},
    "/me/passkeys/options": {"post": {"responses": {"200": _json(WEBAUTHN), **SIGNED_IN}}},
    "/me/passkeys": {
        "post": {"requestBody": _json(dict(WEBAUTHN, type="object", properties={"name": {"type": "string"}}), required=True),
                 "responses": {"201": _json(PASSKEY), **SIGNED_IN, **ERRORS}},
        "get": {"responses": {"200": _json({"type": "object", "properties": {"passkeys": {"type": "array", "items": PASSKEY}}}), **SIGNED_IN}},
    },
    "/me/passkeys/{id}": {"delete": {"responses": {"204": {"description": "removed"}, **SIGNED_IN,
                                                   "404": {"$ref": "#/components/responses/NotFound"}}}},
}


def add_stand_ins(document):
    """Adds STAND_INS to the document's paths; (problems, the (method, path) pairs added)."""
    problems, added = [], []
    paths = document.root.setdefault("paths", {})
    for path, item in STAND_INS.items():
        for method, operation in item.items():
            if document.operation(method, path) is not None:
                problems.append(f"contract_stand_ins.py: openapi.yaml now describes {method.upper()} {path}: delete its stand-in")
                continue
            paths.setdefault(path, {})[method] = operation
            added.append((method.upper(), path))
    return problems, added


def uncalled(added, calls):
    """A problem for each stand-in that none of app.js's API calls (method, path, body, chain) is to."""
    called = {(method, Document.shape(path)) for method, path, _, _ in calls}
    return [f"contract_stand_ins.py: app.js no longer calls {method} {path}: delete its stand-in"
            for method, path in added if (method, Document.shape(path)) not in called]
