import Foundation
import Testing

@testable import Gatehouse

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The second factor without a server: the `mfa_required` refusal and its token, the second step, and enrolment
/// (``StubTransport``); and the tests' own authenticator app against RFC 6238's vectors.
@Suite("Second factor: the mfa_required refusal, the second step and enrolment")
struct SecondFactorTests {
    static let message = "Enter the code from your authenticator app (or a recovery code) to finish signing in."

    static func mfaRequired(_ token: String = "v1.challenge") -> Data {
        StubTransport.json(["error": ["code": "mfa_required", "message": message, "mfa_token": token]])
    }

    /// A server whose first factors all answer `mfa_required`, and whose second step takes `123456` for `v1.challenge`.
    static func server() -> StubTransport {
        StubTransport { request in
            let body = request.jsonBody
            switch request.url!.path {
            case "/auth/signin", "/auth/apple", "/auth/google", "/auth/phone/verify", "/auth/handoff":
                return (403, ["X-Request-Id": "req-9"], mfaRequired())
            case "/auth/mfa/verify":
                guard body["mfa_token"] as? String == "v1.challenge" || body["mfa_token"] as? String == "v1.other" else {
                    return (401, [:], StubTransport.error("invalid_grant", "This sign-in step expired or was used. Sign in again."))
                }
                return body["code"] as? String == "123456"
                    ? (200, [:], StubTransport.tokens("mfa")) : (400, [:], StubTransport.error("code_mismatch"))
            case "/me/mfa/totp" where request.httpMethod == "POST":
                return (
                    200, [:],
                    StubTransport.json(["secret": "JBSWY3DPEHPK3PXP", "otpauth_uri": "otpauth://totp/Gatehouse:ann?secret=JBSWY3DPEHPK3PXP"])
                )
            case "/me/mfa/totp" where request.httpMethod == "DELETE": return (204, [:], Data())
            case "/me/mfa/totp/verify", "/me/mfa/recovery-codes":
                return (200, [:], StubTransport.json(["recovery_codes": (0..<10).map { "code\($0)-abcde" }]))
            default: return (404, [:], StubTransport.error("not_found"))
            }
        }
    }

    @Test func theRefusalCarriesTheTokenAndWordsForPeople() async throws {
        let client = GatehouseClient(configuration: .init(baseURL: base), transport: Self.server())
        var thrown: GatehouseError?
        do {
            try await client.signIn(email: "ann@example.com", password: "correct horse 9")
        } catch let error as GatehouseError {
            thrown = error
        }
        let error = try #require(thrown)
        #expect(error.code == .mfaRequired && error.code?.isKnown == true && error.mfaToken == "v1.challenge")
        guard case .server(let server) = error else { throw error }
        #expect(server.status == 403 && server.mfaToken == "v1.challenge" && server.requestID == "req-9" && server.rawBody == nil)
        #expect(error.localizedDescription == Self.message)
        #expect(!error.description.contains("v1.challenge") && !error.debugDescription.contains("v1.challenge"), "the token is not logged")
        #expect(client.currentSession == nil, "no session until the second step")

        // Other errors have no token, and a token is read whatever the code (the contract sends it with mfa_required only).
        let response = HTTPURLResponse(url: base, statusCode: 401, httpVersion: nil, headerFields: nil)!
        #expect(ServerError.decode(StubTransport.error("invalid_credentials"), response).mfaToken == nil)
        #expect(ServerError.decode(StubTransport.json(["error": ["code": "x", "message": "m", "mfa_token": ""]]), response).mfaToken == nil)
        #expect(ServerError.decode(StubTransport.json(["error": ["code": "x", "message": "m", "mfa_token": 7]]), response).mfaToken == nil)
        #expect(GatehouseError.notSignedIn.mfaToken == nil && ErrorCode(rawValue: "mfa_required") == .mfaRequired)
    }

    @Test func theSecondStepSignsInAndRecordsTheFirstStepsMethod() async throws {
        let transport = Self.server()
        let client = GatehouseClient(configuration: .init(baseURL: base), transport: transport)
        var events = client.events.makeAsyncIterator()
        await expectError(.mfaRequired) { try await client.signInWithApple(identityToken: "jwt", authorizationCode: nil, rawNonce: nil) }
        await expectError(.codeMismatch) { try await client.completeSecondFactor(mfaToken: "v1.challenge", code: "000000") }
        #expect(client.currentSession == nil)
        let result = try await client.completeSecondFactor(mfaToken: "v1.challenge", code: "123456")
        #expect(result.session.accessToken == "access-mfa" && client.currentSession == result.session)
        #expect(result.session.signInMethod == .apple, "an Apple sign-in stays one, so the credential check still applies to it")
        #expect(await events.next() == .signedIn)
        #expect(transport.requests(to: "/auth/mfa/verify").last?.jsonBody as? [String: String] == ["mfa_token": "v1.challenge", "code": "123456"])

        let firstSteps: [(SignInMethod, () async throws -> Void)] = [
            (.password, { _ = try await client.signIn(email: "a@example.com", password: "pw") }),
            (.phone, { _ = try await client.signInWithPhone("+14155550123", code: "123456") }),
        ]
        for (method, first) in firstSteps {
            try await client.signOut()
            await expectError(.mfaRequired, first)
            #expect(try await client.completeSecondFactor(mfaToken: "v1.challenge", code: "123456").session.signInMethod == method)
        }
        // A token this client did not receive: signed in, the method unknown.
        #expect(try await client.completeSecondFactor(mfaToken: "v1.other", code: "123456").session.signInMethod == nil)
        await expectError(.invalidGrant) { try await client.completeSecondFactor(mfaToken: "v1.expired", code: "123456") }
    }

    @Test func enrolmentConfirmationNewCodesAndRemoval() async throws {
        let transport = Self.server()
        let session = Session(idToken: "i", accessToken: "a", refreshToken: "r", expiresAt: .distantFuture)
        let client = GatehouseClient(configuration: .init(baseURL: base), store: InMemoryTokenStore(session), transport: transport)
        let enrolment = try await client.enrolAuthenticatorApp()
        #expect(
            enrolment == AuthenticatorAppEnrolment(secret: "JBSWY3DPEHPK3PXP", otpauthURI: "otpauth://totp/Gatehouse:ann?secret=JBSWY3DPEHPK3PXP")
        )
        #expect(enrolment.url?.scheme == "otpauth")
        let codes = try await client.confirmAuthenticatorApp(code: "123456")
        #expect(codes.count == 10 && codes[0] == "code0-abcde")
        #expect(try await client.regenerateRecoveryCodes(code: "234567").count == 10)
        try await client.removeAuthenticatorApp(code: "345678")
        let sent = transport.requests.map { "\($0.httpMethod ?? "") \($0.url!.path) \($0.jsonBody["code"] as? String ?? "-")" }
        #expect(
            sent == ["POST /me/mfa/totp -", "POST /me/mfa/totp/verify 123456", "POST /me/mfa/recovery-codes 234567", "DELETE /me/mfa/totp 345678"]
        )
        #expect(transport.requests[0].httpBody == nil && transport.requests.dropFirst().allSatisfy { $0.jsonBody.count == 1 })
        #expect(transport.requests.allSatisfy { $0.value(forHTTPHeaderField: "Authorization") == "Bearer a" })
    }

    @Test func theTestsAuthenticatorAppMatchesRFC6238() throws {
        // RFC 6238 appendix B, SHA-1: the secret "12345678901234567890", 8 digits.
        let key = Array("12345678901234567890".utf8)
        let vectors: [(Double, String)] = [
            (59, "94287082"), (1_111_111_109, "07081804"), (1_111_111_111, "14050471"), (1_234_567_890, "89005924"),
            (2_000_000_000, "69279037"), (20_000_000_000, "65353130"),
        ]
        for (time, code) in vectors {
            #expect(TOTPGenerator.code(key: key, step: TOTPGenerator.step(at: Date(timeIntervalSince1970: time)), digits: 8) == code)
        }
        #expect(TOTPGenerator.code(key: key, step: 1) == "287082", "six digits: the last six of the eight")
        #expect(TOTPGenerator.base32Decode("GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ") == key)
        let sha1 = TOTPGenerator.sha1(Array("abc".utf8)).map { String(format: "%02x", $0) }.joined()
        #expect(sha1 == "a9993e364706816aba3e25717850c26c9cd0d89d")
    }
}
