import Foundation
import Testing

@testable import Gatehouse

/// Passkeys against the real server, with the repository's software authenticator (``SoftwareAuthenticator``) in the
/// system sheet's place: the SDK decodes the options, the authenticator answers, and the SDK rebuilds the answer's JSON
/// from its raw bytes (as ``PasskeyAuthorization`` does with the sheet's) before posting it.
@Suite(
    "Passkeys end to end against a real server",
    .enabled(if: GatehouseServerProcess.isAvailable && SoftwareAuthenticator.isAvailable),
    .timeLimit(.minutes(3))
)
struct PasskeyEndToEndTests {
    static let origin = "http://gatehouse.test"
    static let environment = ["GATEHOUSE_PASSKEY_RP_ID": "gatehouse.test", "GATEHOUSE_PASSKEY_ORIGINS": origin]

    @Test func registerAPasskeySignInWithItAndRemoveIt() async throws {
        let server = try GatehouseServerProcess(environment: Self.environment)
        defer { server.stop() }
        let client = GatehouseClient(configuration: .init(baseURL: server.baseURL))
        let email = EndToEndTests.email("pk")
        try await EndToEndTests().signedUp(server, client, email)
        try await client.signIn(email: email, password: "correct horse 9")
        let authenticator = try SoftwareAuthenticator(origin: Self.origin)
        defer { authenticator.stop() }

        // Registration: the options decoded, the answer's JSON rebuilt from its bytes field for field.
        #expect(try await client.passkeys().isEmpty)
        let options = try await client.passkeyRegistrationOptions()
        #expect(options.relyingPartyID == "gatehouse.test" && options.userName == email && options.excludedCredentialIDs.isEmpty)
        #expect(options.challenge.count >= 16 && !options.userID.isEmpty)
        let created = try authenticator.create(options.json)
        let registration = try PasskeyRegistration(responseJSON: created)
        #expect(try canonicalJSON(registration.responseJSON) == canonicalJSON(created), "the SDK's JSON is the authenticator's own")
        let passkey = try await client.registerPasskey(registration, name: "Test key")
        #expect(passkey.id == Base64URL.encode(registration.credentialID) && passkey.name == "Test key" && passkey.lastUsedAt == nil)
        #expect(passkey.transports == ["internal", "hybrid"] && passkey.backedUp && !passkey.flagged)
        #expect(try await client.passkeys() == [passkey])
        let replayed: (GatehouseError) -> Bool = { $0.code == .invalidCredentials || $0.code == .conflict }
        await expectError(replayed) { try await client.registerPasskey(registration) }
        #expect(try await client.passkeyRegistrationOptions().excludedCredentialIDs == [registration.credentialID])

        // Sign-in on another client: discoverable (no address), stored as a passkey session.
        let other = GatehouseClient(configuration: .init(baseURL: server.baseURL))
        let signInOptions = try await other.passkeySignInOptions()
        #expect(signInOptions.relyingPartyID == "gatehouse.test" && signInOptions.allowedCredentialIDs.isEmpty)
        let answer = try authenticator.get(signInOptions.json)
        let assertion = try PasskeyAssertion(responseJSON: answer)
        #expect(try canonicalJSON(assertion.responseJSON) == canonicalJSON(answer))
        #expect(assertion.userHandle == options.userID, "the user handle is the one registered")
        let result = try await other.signInWithPasskey(assertion)
        #expect(result.session.signInMethod == .passkey && other.currentSession == result.session)
        let profile = try await other.profile()
        #expect(profile.email == email)
        await expectError(.invalidCredentials) { try await other.signInWithPasskey(assertion) }  // a replay
        #expect(try await client.passkeys().first?.lastUsedAt != nil)

        // With the address, the options name the account's passkey.
        #expect(try await other.passkeySignInOptions(email: email).allowedCredentialIDs == [registration.credentialID])

        // A passkey is both factors: with an authenticator app on, it still signs in at once.
        let enrolment = try await client.enrolAuthenticatorApp()
        var app = try AuthenticatorApp(secret: enrolment.secret)
        _ = try await client.confirmAuthenticatorApp(code: try await app.nextCode())
        await expectError(.mfaRequired) { try await other.signIn(email: email, password: "correct horse 9") }
        let again = try await other.signInWithPasskey(PasskeyAssertion(responseJSON: authenticator.get(other.passkeySignInOptions().json)))
        #expect(again.session.signInMethod == .passkey)

        // Removed: it can no longer sign in.
        try await client.deletePasskey(id: passkey.id)
        #expect(try await client.passkeys().isEmpty)
        await expectError(.notFound) { try await client.deletePasskey(id: passkey.id) }
        let stale = try await PasskeyAssertion(responseJSON: authenticator.get(other.passkeySignInOptions().json))
        await expectError(.invalidCredentials) { try await other.signInWithPasskey(stale) }
    }

    @Test func aServerWithoutPasskeysRefusesTheOptions() async throws {
        // Without GATEHOUSE_PASSKEY_RP_ID the routes are not there (not_found); with Cognito they say provider_disabled.
        let server = try GatehouseServerProcess()
        defer { server.stop() }
        let client = GatehouseClient(configuration: .init(baseURL: server.baseURL))
        let off: (GatehouseError) -> Bool = { $0.code == .notFound || $0.code == .providerDisabled }
        await expectError(off) { _ = try await client.passkeySignInOptions() }
        let email = EndToEndTests.email("nopk")
        try await EndToEndTests().signedUp(server, client, email)
        try await client.signIn(email: email, password: "correct horse 9")
        await expectError(off) { _ = try await client.passkeyRegistrationOptions() }
    }
}
