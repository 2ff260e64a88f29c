/// The OpenAPI 3.1 document of every endpoint, served at `/openapi.yaml`. It is compiled into the
/// binary so a copied executable still serves it; `OpenAPIDocumentTests` keeps it true to the routes
/// and valid (openapi-spec-validator).
enum OpenAPIDocument {
    static let bytes: [UInt8] = Array(yaml.utf8)

    static let yaml = #"""
openapi: 3.1.0
info:
  title: Gatehouse
  version: 0.1.0
  summary: Authentication backend for native and web apps.
  description: |
    Email and password sign-up and sign-in with verification codes, Cognito-shaped JWTs, protected
    profile endpoints with just-in-time provisioning, and account deletion. The same contract is served
    with the embedded user pool or with Amazon Cognito behind it.

    Conventions: JSON bodies must be sent with `Content-Type: application/json` (else 415), are capped
    (64 KiB by default; larger gets 413), must be a UTF-8 JSON object without duplicate member names
    (else 400). Unknown fields are ignored. Every response carries `X-Request-Id`. Errors always have
    the body `{"error": {"code", "message"}}`. Bearer tokens are read only from the `Authorization`
    header. Unknown paths answer 404, known paths with another method 405 with an `Allow` header.
  license:
    name: Apache-2.0
servers:
  - url: http://localhost:8080
tags:
  - name: email
    description: Email and password accounts.
  - name: social
    description: Sign in with Google and Apple.
  - name: profile
    description: The signed-in user's app profile.
  - name: discovery
    description: Keys and metadata for token verifiers.
  - name: operations
    description: Health, readiness, metrics and this document.
  - name: web
    description: The web app served by Gatehouse itself.
paths:
  /auth/signup:
    post:
      tags: [email]
      operationId: signUp
      summary: Create an account and mail a confirmation code.
      description: |
        Answers 201 with the same shape for an address that is already registered (the owner gets a
        notice by mail instead of a code, and `user_sub` is then a random id), so the endpoint does not
        reveal which addresses have accounts.
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [email, password]
              properties:
                email: {$ref: '#/components/schemas/Email'}
                password: {$ref: '#/components/schemas/Password'}
                full_name: {type: [string, 'null'], maxLength: 256, description: Display name.}
      responses:
        '201':
          description: Account created (or address already registered; see above).
          content:
            application/json:
              schema: {$ref: '#/components/schemas/SignUpResult'}
        '400': {$ref: '#/components/responses/InvalidRequestOrPassword'}
        '413': {$ref: '#/components/responses/PayloadTooLarge'}
        '415': {$ref: '#/components/responses/UnsupportedMediaType'}
        '429': {$ref: '#/components/responses/TooManyRequests'}
        '503': {$ref: '#/components/responses/UpstreamUnavailable'}
  /auth/confirm:
    post:
      tags: [email]
      operationId: confirmSignUp
      summary: Confirm the email address with the code from the sign-up mail.
      description: A code survives 5 wrong guesses and expires after 24 hours.
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [email, code]
              properties:
                email: {$ref: '#/components/schemas/Email'}
                code: {$ref: '#/components/schemas/Code'}
      responses:
        '200':
          description: Confirmed.
          content:
            application/json:
              schema:
                type: object
                required: [confirmed]
                properties:
                  confirmed: {type: boolean, const: true}
        '400': {$ref: '#/components/responses/CodeError'}
        '413': {$ref: '#/components/responses/PayloadTooLarge'}
        '415': {$ref: '#/components/responses/UnsupportedMediaType'}
        '429': {$ref: '#/components/responses/TooManyRequests'}
        '503': {$ref: '#/components/responses/UpstreamUnavailable'}
  /auth/resend-code:
    post:
      tags: [email]
      operationId: resendConfirmationCode
      summary: Mail a new confirmation code.
      description: Identical answer for unknown addresses. At most one code mail per address per minute (shared with forgot-password); the cool-down answers 429 for every address alike.
      requestBody: {$ref: '#/components/requestBodies/EmailOnly'}
      responses:
        '200': {$ref: '#/components/responses/CodeDelivery'}
        '400': {$ref: '#/components/responses/InvalidRequest'}
        '413': {$ref: '#/components/responses/PayloadTooLarge'}
        '415': {$ref: '#/components/responses/UnsupportedMediaType'}
        '429': {$ref: '#/components/responses/TooManyRequests'}
        '503': {$ref: '#/components/responses/UpstreamUnavailable'}
  /auth/signin:
    post:
      tags: [email]
      operationId: signIn
      summary: Sign in with email and password.
      description: |
        Unknown address and wrong password give the same 401. `user_not_confirmed` (403) comes only
        after the password was verified. Failed attempts are throttled per account and per client
        address with back-off (429 with `Retry-After`).
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [email, password]
              properties:
                email: {$ref: '#/components/schemas/Email'}
                password: {type: string, minLength: 1, maxLength: 1024}
      responses:
        '200': {$ref: '#/components/responses/Tokens'}
        '400': {$ref: '#/components/responses/InvalidRequest'}
        '401': {$ref: '#/components/responses/InvalidCredentials'}
        '403':
          description: The email address is not confirmed yet (`user_not_confirmed`); with Cognito also `forbidden` when the account needs a step this API does not offer (a new-password challenge, a required reset).
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Error'}
        '413': {$ref: '#/components/responses/PayloadTooLarge'}
        '415': {$ref: '#/components/responses/UnsupportedMediaType'}
        '429': {$ref: '#/components/responses/TooManyRequests'}
        '503': {$ref: '#/components/responses/UpstreamUnavailable'}
  /auth/refresh:
    post:
      tags: [email]
      operationId: refresh
      summary: Exchange a refresh token for new tokens; the refresh token rotates.
      description: |
        Each use returns a new `refresh_token`. Presenting a rotated-out token again ends the whole
        session (`invalid_grant`), except within the grace window (10 s by default) while its successor
        is unused: then the same successor is returned again, so a client that lost a response can retry.
        A session ends its configured lifetime after the sign-in, however often it was refreshed. Well-formed
        tokens that are not this server's count against the client's address; past the limit they get 429.
      requestBody: {$ref: '#/components/requestBodies/RefreshToken'}
      responses:
        '200': {$ref: '#/components/responses/Tokens'}
        '400': {$ref: '#/components/responses/InvalidRequest'}
        '401': {$ref: '#/components/responses/InvalidGrant'}
        '413': {$ref: '#/components/responses/PayloadTooLarge'}
        '415': {$ref: '#/components/responses/UnsupportedMediaType'}
        '429': {$ref: '#/components/responses/TooManyRequests'}
        '503': {$ref: '#/components/responses/UpstreamUnavailable'}
  /auth/signout:
    post:
      tags: [email]
      operationId: signOut
      summary: End the session a refresh token belongs to.
      description: Its access tokens stop working on this server at once. An unknown token also answers 204 (as RFC 7009 revocation does).
      requestBody: {$ref: '#/components/requestBodies/RefreshToken'}
      responses:
        '204': {description: Signed out.}
        '400': {$ref: '#/components/responses/InvalidRequest'}
        '413': {$ref: '#/components/responses/PayloadTooLarge'}
        '415': {$ref: '#/components/responses/UnsupportedMediaType'}
        '503': {$ref: '#/components/responses/UpstreamUnavailable'}
  /auth/signout/all:
    post:
      tags: [email]
      operationId: signOutEverywhere
      summary: End every session of the signed-in user.
      security: [{bearer: []}]
      responses:
        '204': {description: Signed out everywhere.}
        '401': {$ref: '#/components/responses/Unauthorized'}
        '503': {$ref: '#/components/responses/UpstreamUnavailable'}
  /auth/password/forgot:
    post:
      tags: [email]
      operationId: forgotPassword
      summary: Mail a password reset code.
      description: Identical answer for unknown addresses; shares the one-mail-per-minute cool-down with resend-code.
      requestBody: {$ref: '#/components/requestBodies/EmailOnly'}
      responses:
        '200': {$ref: '#/components/responses/CodeDelivery'}
        '400': {$ref: '#/components/responses/InvalidRequest'}
        '413': {$ref: '#/components/responses/PayloadTooLarge'}
        '415': {$ref: '#/components/responses/UnsupportedMediaType'}
        '429': {$ref: '#/components/responses/TooManyRequests'}
        '503': {$ref: '#/components/responses/UpstreamUnavailable'}
  /auth/password/reset:
    post:
      tags: [email]
      operationId: resetPassword
      summary: Set a new password with the reset code.
      description: Ends every session of the user and does not sign in. It also confirms an unconfirmed account (the code proves the address).
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [email, code, new_password]
              properties:
                email: {$ref: '#/components/schemas/Email'}
                code: {$ref: '#/components/schemas/Code'}
                new_password: {$ref: '#/components/schemas/Password'}
      responses:
        '200':
          description: Password reset.
          content:
            application/json:
              schema:
                type: object
                required: [reset]
                properties:
                  reset: {type: boolean, const: true}
        '400': {$ref: '#/components/responses/CodeError'}
        '413': {$ref: '#/components/responses/PayloadTooLarge'}
        '415': {$ref: '#/components/responses/UnsupportedMediaType'}
        '429': {$ref: '#/components/responses/TooManyRequests'}
        '503': {$ref: '#/components/responses/UpstreamUnavailable'}
  /auth/password/change:
    post:
      tags: [email]
      operationId: changePassword
      summary: Change the password of the signed-in user.
      description: Ends the user's other sessions; the calling session stays signed in. A wrong `current_password` answers 401 `invalid_credentials` and counts as a failed sign-in.
      security: [{bearer: []}]
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [current_password, new_password]
              properties:
                current_password: {type: string, minLength: 1, maxLength: 1024}
                new_password: {$ref: '#/components/schemas/Password'}
      responses:
        '200':
          description: Password changed.
          content:
            application/json:
              schema:
                type: object
                required: [changed]
                properties:
                  changed: {type: boolean, const: true}
        '400': {$ref: '#/components/responses/InvalidRequestOrPassword'}
        '401': {$ref: '#/components/responses/InvalidCredentials'}
        '413': {$ref: '#/components/responses/PayloadTooLarge'}
        '415': {$ref: '#/components/responses/UnsupportedMediaType'}
        '429': {$ref: '#/components/responses/TooManyRequests'}
        '503': {$ref: '#/components/responses/UpstreamUnavailable'}
  /auth/google:
    post:
      tags: [social]
      operationId: signInWithGoogle
      summary: Exchange a Google ID token (from a native or web Google sign-in) for our tokens.
      description: |
        The token is verified against Google's keys: RS256 with a `kid` of Google's key set, issuer
        `accounts.google.com` or `https://accounts.google.com`, `aud` (and `azp`) one of the configured
        client ids, `exp`/`nbf`/`iat` within 60 s, and the nonce rule. The user is found by (google, sub);
        a new identity joins an existing account only when both sides have a verified email.
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [id_token]
              properties:
                id_token: {type: string}
                nonce: {type: string, maxLength: 256, description: 'The raw nonce; the token must carry its lowercase hex SHA-256. Both or neither.'}
                email: {type: string, description: A hint only; the email comes from the verified token.}
                full_name: {type: string, description: Used as the display name when none is known.}
      responses:
        '200': {$ref: '#/components/responses/SocialTokens'}
        '400': {$ref: '#/components/responses/InvalidRequest'}
        '401': {$ref: '#/components/responses/InvalidToken'}
        '403': {$ref: '#/components/responses/ProviderDisabled'}
        '409': {$ref: '#/components/responses/AccountExists'}
        '413': {$ref: '#/components/responses/PayloadTooLarge'}
        '415': {$ref: '#/components/responses/UnsupportedMediaType'}
        '429': {$ref: '#/components/responses/TooManyRequests'}
        '503': {$ref: '#/components/responses/UpstreamUnavailable'}
  /auth/apple:
    post:
      tags: [social]
      operationId: signInWithApple
      summary: Exchange an Apple identity token (native Sign in with Apple, or Sign in with Apple JS) for our tokens.
      description: |
        Verified like Google's (issuer `https://appleid.apple.com`, audiences = bundle ids and the services id;
        `email_verified` and `is_private_email` accepted as booleans or "true"/"false"). With Apple credentials
        configured, `authorization_code` is exchanged at Apple for a refresh token, kept sealed, and revoked
        with Apple when the account is deleted.
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [identity_token]
              properties:
                identity_token: {type: string}
                authorization_code: {type: string}
                nonce: {type: string, maxLength: 256}
                email: {type: string, description: A hint only.}
                full_name: {type: string, description: 'Apple sends the name once, outside the token: stored when none is known.'}
      responses:
        '200': {$ref: '#/components/responses/SocialTokens'}
        '400': {$ref: '#/components/responses/InvalidRequest'}
        '401': {$ref: '#/components/responses/InvalidToken'}
        '403': {$ref: '#/components/responses/ProviderDisabled'}
        '409': {$ref: '#/components/responses/AccountExists'}
        '413': {$ref: '#/components/responses/PayloadTooLarge'}
        '415': {$ref: '#/components/responses/UnsupportedMediaType'}
        '429': {$ref: '#/components/responses/TooManyRequests'}
        '503': {$ref: '#/components/responses/UpstreamUnavailable'}
  /auth/apple/authorize:
    get:
      tags: [social]
      operationId: appleAuthorize
      summary: Start Sign in with Apple in a browser (web, Android Custom Tab).
      description: Seals a single-use `state` (10 minutes; nothing is stored) bound to the PKCE challenge, the nonce and this browser, sets the `__Host-gatehouse-apple` cookie (Secure, HttpOnly, SameSite=None) that the callback requires, and redirects to Apple with `response_mode=form_post`. The flow must finish in the browser that opened this URL.
      parameters:
        - {name: code_challenge, in: query, required: true, schema: {type: string, minLength: 43, maxLength: 43}, description: 'base64url(SHA-256(code_verifier)), PKCE S256.'}
        - {name: code_challenge_method, in: query, required: false, schema: {type: string, const: S256}}
        - {name: nonce, in: query, required: false, schema: {type: string, maxLength: 256}, description: 'Raw nonce; Apple receives its SHA-256. Generated when absent.'}
      responses:
        '302':
          description: To Apple's authorize page.
          headers:
            Location: {schema: {type: string}}
            Set-Cookie: {schema: {type: string}, description: '`__Host-gatehouse-apple=…; Max-Age=600; Path=/; Secure; HttpOnly; SameSite=None`'}
        '400': {$ref: '#/components/responses/InvalidRequest'}
        '403': {$ref: '#/components/responses/ProviderDisabled'}
  /auth/apple/callback:
    post:
      tags: [social]
      operationId: appleCallback
      summary: Where Apple posts its answer (form_post); answers a page that opens the app.
      description: |
        Verifies the `state` (unexpired, unused, and presented with the `__Host-gatehouse-apple` cookie of the
        browser that started the flow; the cookie is cleared) and Apple's `id_token`, signs the user in, and answers a small HTML page (strict
        Content-Security-Policy) that sends the browser to `<app scheme>://apple-callback?code=<hand-off code>`,
        or `?error=<code>` (`invalid_state`, `invalid_token`, `invalid_request`, `provider_disabled`,
        `upstream_unavailable`, Apple's own error such as `user_cancelled_authorize`, or `apple_error`).
        In the seeds' forwarding mode (`GATEHOUSE_APPLE_CALLBACK_MODE=forward`, weaker) it sends
        `?id_token=…&code=…&email=…&name=…` instead.
      requestBody:
        required: true
        content:
          application/x-www-form-urlencoded:
            schema:
              type: object
              properties:
                code: {type: string}
                id_token: {type: string}
                state: {type: string}
                user: {type: string, description: 'JSON with name and email, sent by Apple on the first authorization only; unsigned, used as a display name at most.'}
                error: {type: string}
      responses:
        '200':
          description: The hand-off page.
          content:
            text/html:
              schema: {type: string}
  /auth/handoff:
    post:
      tags: [social]
      operationId: redeemHandoff
      summary: Redeem the hand-off code from the Apple callback with the PKCE verifier.
      description: The code is single use and lives 60 seconds; a wrong verifier spends it.
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [code, code_verifier]
              properties:
                code: {type: string}
                code_verifier: {type: string, minLength: 43, maxLength: 128}
      responses:
        '200': {$ref: '#/components/responses/SocialTokens'}
        '400': {$ref: '#/components/responses/InvalidRequest'}
        '401': {$ref: '#/components/responses/InvalidGrant'}
        '413': {$ref: '#/components/responses/PayloadTooLarge'}
        '415': {$ref: '#/components/responses/UnsupportedMediaType'}
  /me:
    get:
      tags: [profile]
      operationId: getProfile
      summary: The signed-in user's app profile, created just in time on the first call.
      security: [{bearer: []}]
      responses:
        '200': {$ref: '#/components/responses/Profile'}
        '401': {$ref: '#/components/responses/Unauthorized'}
        '503': {$ref: '#/components/responses/UpstreamUnavailable'}
    patch:
      tags: [profile]
      operationId: updateProfile
      summary: Update the profile. An absent field is left alone; `null` clears it.
      security: [{bearer: []}]
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              properties:
                full_name: {type: [string, 'null'], maxLength: 256}
      responses:
        '200': {$ref: '#/components/responses/Profile'}
        '400': {$ref: '#/components/responses/InvalidRequest'}
        '401': {$ref: '#/components/responses/Unauthorized'}
        '413': {$ref: '#/components/responses/PayloadTooLarge'}
        '415': {$ref: '#/components/responses/UnsupportedMediaType'}
        '503': {$ref: '#/components/responses/UpstreamUnavailable'}
    delete:
      tags: [profile]
      operationId: deleteAccount
      summary: Delete the account.
      description: Deletes the profile, the user, every session, code and linked identity. The user's tokens stop working at once.
      security: [{bearer: []}]
      responses:
        '204': {description: Deleted.}
        '401': {$ref: '#/components/responses/Unauthorized'}
        '503': {$ref: '#/components/responses/UpstreamUnavailable'}
  /.well-known/jwks.json:
    get:
      tags: [discovery]
      operationId: jwks
      summary: The public keys of the embedded pool (current and still-valid previous ones).
      responses:
        '200':
          description: 'A JWKS document, with Cache-Control: public, max-age=….'
          headers:
            Cache-Control: {schema: {type: string}}
          content:
            application/json:
              schema:
                type: object
                required: [keys]
                properties:
                  keys:
                    type: array
                    items:
                      type: object
                      required: [kty, kid, alg, use, n, e]
                      properties:
                        kty: {type: string, const: RSA}
                        kid: {type: string}
                        alg: {type: string, const: RS256}
                        use: {type: string, const: sig}
                        n: {type: string}
                        e: {type: string}
        '404': {$ref: '#/components/responses/NotFound'}
  /.well-known/openid-configuration:
    get:
      tags: [discovery]
      operationId: openIDConfiguration
      summary: Discovery metadata for JWT verifiers (issuer, jwks_uri, algorithms, claims).
      responses:
        '200':
          description: The metadata.
          content:
            application/json:
              schema:
                type: object
                required: [issuer, jwks_uri, id_token_signing_alg_values_supported]
                properties:
                  issuer: {type: string}
                  jwks_uri: {type: string}
                  id_token_signing_alg_values_supported: {type: array, items: {type: string}}
                  claims_supported: {type: array, items: {type: string}}
  /:
    get:
      tags: [web]
      operationId: webPage
      summary: The web app (sign-up, sign-in, password reset, profile), with a strict Content-Security-Policy.
      responses:
        '200':
          description: The page.
          content:
            text/html:
              schema: {type: string}
  /assets/{file}:
    get:
      tags: [web]
      operationId: webAsset
      summary: The web app's scripts and styles.
      parameters:
        - {name: file, in: path, required: true, schema: {type: string}}
      responses:
        '200':
          description: The file.
          content:
            text/javascript:
              schema: {type: string}
            text/css:
              schema: {type: string}
        '404': {$ref: '#/components/responses/NotFound'}
  /health:
    get:
      tags: [operations]
      operationId: health
      summary: 200 while the process runs.
      responses:
        '200':
          description: Alive.
          content:
            application/json:
              schema:
                type: object
                required: [status]
                properties:
                  status: {type: string, const: ok}
  /ready:
    get:
      tags: [operations]
      operationId: ready
      summary: 200 only when storage (and Cognito, if used) answers.
      responses:
        '200':
          description: Ready.
          content:
            application/json:
              schema:
                type: object
                required: [status]
                properties:
                  status: {type: string, const: ready}
        '503': {$ref: '#/components/responses/Unavailable'}
  /metrics:
    get:
      tags: [operations]
      operationId: metrics
      summary: Prometheus metrics (requests by route template and status, latency, sign-in outcomes).
      responses:
        '200':
          description: Prometheus text format.
          content:
            text/plain:
              schema: {type: string}
  /openapi.yaml:
    get:
      tags: [operations]
      operationId: openAPI
      summary: This document.
      responses:
        '200':
          description: OpenAPI 3.1 YAML.
          content:
            application/yaml:
              schema: {type: string}
components:
  securitySchemes:
    bearer:
      type: http
      scheme: bearer
      bearerFormat: JWT
      description: An access token (`token_use` access) from sign-in, refresh or a social exchange. ID tokens are refused.
  schemas:
    Email:
      type: string
      format: email
      maxLength: 254
    Password:
      type: string
      minLength: 8
      maxLength: 1024
      description: At least 8 characters with a digit by default (configurable); common passwords and the email address itself are refused (`invalid_password`).
    Code:
      type: string
      maxLength: 32
      description: The 6-digit code from the mail (spaces and a dash are ignored).
    Error:
      type: object
      required: [error]
      properties:
        error:
          type: object
          required: [code, message]
          properties:
            code:
              type: string
              enum: [invalid_request, invalid_password, code_mismatch, code_expired, invalid_credentials, invalid_token,
                     invalid_grant, unauthorized, user_not_confirmed, forbidden, provider_disabled, not_found, method_not_allowed,
                     conflict, payload_too_large, unsupported_media_type, too_many_requests, internal_error,
                     upstream_unavailable, unavailable]
            message: {type: string}
    CodeDelivery:
      type: object
      required: [medium, destination]
      properties:
        medium: {type: string, const: EMAIL}
        destination: {type: string, description: 'Masked, e.g. a***@e***.com'}
    SignUpResult:
      type: object
      required: [user_sub, user_confirmed, code_delivery]
      properties:
        user_sub: {type: string}
        user_confirmed: {type: boolean}
        code_delivery: {$ref: '#/components/schemas/CodeDelivery'}
    Tokens:
      type: object
      required: [id_token, access_token, refresh_token, expires_in, token_type]
      properties:
        id_token: {type: string, description: 'RS256 JWT, Cognito claim set (token_use id).'}
        access_token: {type: string, description: 'RS256 JWT, Cognito claim set (token_use access).'}
        refresh_token: {type: string, description: Opaque; rotates on every use.}
        expires_in: {type: integer, description: Seconds the access token lives.}
        token_type: {type: string, const: Bearer}
        is_new_user: {type: boolean, description: Present on social sign-in and the Apple hand-off.}
    Profile:
      type: object
      required: [sub, email, email_verified, full_name, identities, created_at, updated_at]
      properties:
        sub: {type: string}
        email: {type: [string, 'null']}
        email_verified: {type: boolean}
        full_name: {type: [string, 'null']}
        identities:
          type: array
          items:
            type: object
            required: [provider, linked_at]
            properties:
              provider: {type: string, examples: [password, google, apple]}
              linked_at: {type: string, format: date-time}
        created_at: {type: string, format: date-time}
        updated_at: {type: string, format: date-time}
  requestBodies:
    EmailOnly:
      required: true
      content:
        application/json:
          schema:
            type: object
            required: [email]
            properties:
              email: {$ref: '#/components/schemas/Email'}
    RefreshToken:
      required: true
      content:
        application/json:
          schema:
            type: object
            required: [refresh_token]
            properties:
              refresh_token: {type: string}
  headers:
    RetryAfter:
      description: Seconds to wait.
      schema: {type: integer}
  responses:
    Tokens:
      description: Signed in. `Cache-Control no-store`.
      content:
        application/json:
          schema: {$ref: '#/components/schemas/Tokens'}
    CodeDelivery:
      description: Where the code went (masked). The same for unknown addresses.
      content:
        application/json:
          schema:
            type: object
            required: [code_delivery]
            properties:
              code_delivery: {$ref: '#/components/schemas/CodeDelivery'}
    SocialTokens:
      description: Signed in; `is_new_user` says whether the account was just created.
      content:
        application/json:
          schema:
            allOf:
              - {$ref: '#/components/schemas/Tokens'}
              - {type: object, required: [is_new_user]}
    InvalidToken:
      description: The provider's ID token failed verification (`invalid_token`).
      content:
        application/json:
          schema: {$ref: '#/components/schemas/Error'}
    ProviderDisabled:
      description: This provider is not configured on the server (`provider_disabled`); with the Cognito provider also `forbidden` when the provider shared no verified email (a Cognito user needs one).
      content:
        application/json:
          schema: {$ref: '#/components/schemas/Error'}
    AccountExists:
      description: With the Cognito provider, the verified email belongs to an email-and-password account, which a provider sign-in never takes over (`conflict`); sign in with the password.
      content:
        application/json:
          schema: {$ref: '#/components/schemas/Error'}
    UpstreamUnavailable:
      description: An upstream could not be reached (`upstream_unavailable`) — Apple's or Google's keys with none cached, or, with the Cognito provider, Cognito — or the server cannot take the request now (`unavailable`) — storage down, or the password-hashing queue full, then with `Retry-After`. Nothing was changed; retry.
      headers:
        Retry-After: {$ref: '#/components/headers/RetryAfter'}
      content:
        application/json:
          schema: {$ref: '#/components/schemas/Error'}
    Profile:
      description: The profile. `Cache-Control no-store`.
      content:
        application/json:
          schema: {$ref: '#/components/schemas/Profile'}
    InvalidRequest:
      description: Malformed JSON, duplicate member names, a missing or ill-typed field, or a bad email (`invalid_request`).
      content:
        application/json:
          schema: {$ref: '#/components/schemas/Error'}
    InvalidRequestOrPassword:
      description: '`invalid_request`, or `invalid_password` when the password fails the policy.'
      content:
        application/json:
          schema: {$ref: '#/components/schemas/Error'}
    CodeError:
      description: '`invalid_request`, `invalid_password`, `code_mismatch` (wrong code, or no code pending) or `code_expired` (expired or used up: request a new one).'
      content:
        application/json:
          schema: {$ref: '#/components/schemas/Error'}
    InvalidCredentials:
      description: Wrong email or password (`invalid_credentials`); the same for unknown addresses.
      content:
        application/json:
          schema: {$ref: '#/components/schemas/Error'}
    InvalidGrant:
      description: The refresh token is unknown, expired, revoked or reused (`invalid_grant`).
      content:
        application/json:
          schema: {$ref: '#/components/schemas/Error'}
    Unauthorized:
      description: Missing or bad bearer token (`unauthorized`), one body for every reason.
      headers:
        WWW-Authenticate: {schema: {type: string}}
      content:
        application/json:
          schema: {$ref: '#/components/schemas/Error'}
    NotFound:
      description: '`not_found`.'
      content:
        application/json:
          schema: {$ref: '#/components/schemas/Error'}
    PayloadTooLarge:
      description: The body is larger than the cap (`payload_too_large`).
      content:
        application/json:
          schema: {$ref: '#/components/schemas/Error'}
    UnsupportedMediaType:
      description: The body was not sent as application/json (`unsupported_media_type`).
      content:
        application/json:
          schema: {$ref: '#/components/schemas/Error'}
    TooManyRequests:
      description: Throttled (`too_many_requests`) — failures past the per-account or per-client limits (IPv6 clients counted by their /64), the code-mail caps (one a minute, 5 an hour, 10 a day per address), a client's share of the password-hashing queue, or unknown refresh tokens from one client.
      headers:
        Retry-After: {$ref: '#/components/headers/RetryAfter'}
      content:
        application/json:
          schema: {$ref: '#/components/schemas/Error'}
    Unavailable:
      description: Storage (or Cognito) does not answer (`unavailable`).
      content:
        application/json:
          schema: {$ref: '#/components/schemas/Error'}
"""#
}
