import Foundation
import Testing

@testable import Gatehouse

/// The authenticator app against the real server, with the tests' own RFC 6238 app (``AuthenticatorApp``): enrolment,
/// the `mfa_required` refusal and its second step, recovery codes, new codes, removal. The server accepts each
/// app code once and only for a later time step than the last, so the test waits for the clock (up to a minute in all).
@Suite("Second factor end to end against a real server", .enabled(if: GatehouseServerProcess.isAvailable), .timeLimit(.minutes(3)))
struct SecondFactorEndToEndTests {
    @Test func enrolSignInWithACodeOrARecoveryCodeThenRemove() async throws {
        let server = try GatehouseServerProcess()
        defer { server.stop() }
        let storeURL = server.dataDirectory.appendingPathComponent("client/session.json")
        let client = GatehouseClient(configuration: .init(baseURL: server.baseURL), store: FileTokenStore(url: storeURL))
        let email = EndToEndTests.email("mfa")
        try await EndToEndTests().signedUp(server, client, email)
        try await client.signIn(email: email, password: "correct horse 9")

        // Enrolment: the secret, a wrong first code, the right one, ten recovery codes.
        let enrolment = try await client.enrolAuthenticatorApp()
        #expect(enrolment.url?.scheme == "otpauth" && enrolment.otpauthURI.contains("secret=\(enrolment.secret)"))
        var app = try AuthenticatorApp(secret: enrolment.secret)
        await expectError(.codeMismatch) { _ = try await client.confirmAuthenticatorApp(code: "12345") }
        let recoveryCodes = try await client.confirmAuthenticatorApp(code: try await app.nextCode())
        #expect(recoveryCodes.count == 10 && Set(recoveryCodes).count == 10)
        await expectError(.conflict) { _ = try await client.enrolAuthenticatorApp() }

        // A password sign-in now asks for a code: the refusal carries the token and stores nothing.
        try await client.signOut()
        var token = try await mfaToken { try await client.signIn(email: email, password: "correct horse 9") }
        #expect(client.currentSession == nil)
        #expect(try FileTokenStore(url: storeURL).load() == nil, "nothing is stored before the second step")
        await expectError(.codeMismatch) { try await client.completeSecondFactor(mfaToken: token, code: "000000") }
        let result = try await client.completeSecondFactor(mfaToken: token, code: try await app.nextCode())
        #expect(result.session.signInMethod == .password, "the first step's method")
        #expect(try FileTokenStore(url: storeURL).load() == result.session)
        let profile = try await client.profile()
        #expect(profile.email == email, "the profile loads with the two-factor session")
        let spent: (GatehouseError) -> Bool = { $0.code == .invalidGrant || $0.code == .codeMismatch }
        await expectError(spent) { try await client.completeSecondFactor(mfaToken: token, code: recoveryCodes[0]) }  // used

        // A recovery code works once.
        try await client.signOut()
        token = try await mfaToken { try await client.signIn(email: email, password: "correct horse 9") }
        try await client.completeSecondFactor(mfaToken: token, code: recoveryCodes[1])
        #expect(try await client.profile().sub == profile.sub)
        try await client.signOut()
        token = try await mfaToken { try await client.signIn(email: email, password: "correct horse 9") }
        await expectError(.codeMismatch) { try await client.completeSecondFactor(mfaToken: token, code: recoveryCodes[1]) }
        try await client.completeSecondFactor(mfaToken: token, code: recoveryCodes[2])

        // New recovery codes replace the old ones; removing the app (with a current code) ends the second step.
        let fresh = try await client.regenerateRecoveryCodes(code: try await app.nextCode())
        #expect(fresh.count == 10 && Set(fresh).isDisjoint(with: recoveryCodes))
        await expectError(.codeMismatch) { try await client.removeAuthenticatorApp(code: "000000") }
        try await client.removeAuthenticatorApp(code: try await app.nextCode())
        try await client.signOut()
        let plain = try await client.signIn(email: email, password: "correct horse 9")
        #expect(plain.signInMethod == .password && client.currentSession == plain)
    }

    /// The `mfa_token` of the `mfa_required` refusal `signIn` must throw.
    func mfaToken(_ signIn: () async throws -> Void) async throws -> String {
        do {
            try await signIn()
        } catch let error as GatehouseError where error.code == .mfaRequired {
            return try #require(error.mfaToken)
        }
        throw GatehouseError.invalidResponse("the sign-in did not ask for a second factor")
    }
}
