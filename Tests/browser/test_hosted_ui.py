"""The hosted UI end to end, with clients no one here wrote: Authlib's OAuth 2 client for the code flow
and the refresh grant, requests for the refusals, headless Chromium (JavaScript on and off) for the
pages, a fake Google for the redirect sign-in, and Chromium's virtual authenticator for passkeys on the
sign-in page (hosted_ui_passkeys.py). Run by .ci/run after test_web.py; needs the server
binary (`swift build --product gatehouse`).

OpenID Foundation Basic-OP modules (oidcc-*), as a checklist (the suite itself needs Docker and Maven):
  oidcc-server ............................ protocol.journey (code flow, ID token, userinfo)
  oidcc-response-type-missing ............. hostile.refusals
  oidcc-ensure-registered-redirect-uri .... hostile.refusals (a page, never a redirect)
  oidcc-codereuse ......................... protocol.journey (second use refused, first use's session ended)
  oidcc-ensure-request-with-valid-pkce-succeeds / invalid PKCE ... protocol.journey, hostile.codes
  oidcc-ensure-request-without-nonce-succeeds-for-code-flow ...... protocol.journey
  oidcc-idtoken-rs256, oidcc-idtoken-signature .................... protocol.validate_id_token (Authlib)
  oidcc-userinfo-get, oidcc-userinfo-post-header .................. protocol.journey
  oidcc-userinfo-post-body ......................................... not offered (Cognito does not either)
  oidcc-discovery-endpoint-verification ............................ protocol.discovery
  oidcc-prompt-none-not-logged-in, oidcc-prompt-none-logged-in ..... protocol.journey, hostile.refusals
  oidcc-prompt-login ............................................... pages (prompt=login shows the form)
  oidcc-scope-* .................................................... hostile.refusals (invalid_scope), protocol (email, profile)
"""
import os
import sys

os.environ.setdefault("AUTHLIB_INSECURE_TRANSPORT", "1")  # the server is on plain http on loopback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import hosted_ui_hostile  # noqa: E402
import hosted_ui_pages  # noqa: E402
import hosted_ui_passkeys  # noqa: E402
import hosted_ui_protocol  # noqa: E402
from hosted_ui_harness import FakeApple, FakeGoogle, hosted_server  # noqa: E402


def main():
    google, apple = FakeGoogle(), FakeApple()
    server = hosted_server(google, apple)
    try:
        hosted_ui_protocol.journey(server, google)
        hosted_ui_protocol.apple_flow(server, apple)
        hosted_ui_protocol.google_with_second_factor(server, google)
        hosted_ui_hostile.run(server)
        for javascript in (True, False):
            hosted_ui_pages.journey(server, javascript)
            hosted_ui_pages.apple_button(server, javascript)
        hosted_ui_passkeys.off(server)
    except BaseException:
        server.log.seek(0)
        print(server.log.read()[-6000:], file=sys.stderr)
        raise
    finally:
        server.stop()
        google.stop()
        apple.stop()
    hosted_ui_passkeys.run()  # a server of its own: passkeys need the issuer on localhost
    print("hosted UI: ALL OK")


if __name__ == "__main__":
    main()
