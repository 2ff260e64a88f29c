import Foundation
import Testing

@testable import Gatehouse

/// The second factor's requests and answers against openapi.yaml, as ``ContractTests`` checks the others (the
/// `mfa_token` of the error body is checked there, with every error's fields). Passkeys' bodies are WebAuthn's own
/// JSON forms (marked `x-webauthn` in the document), checked against the server and its software authenticator
/// (``PasskeyEndToEndTests``).
@Suite("Contract: the SDK's second-factor requests and models match openapi.yaml")
struct SecondFactorContractTests {
    let contract: ContractTests

    init() throws {
        contract = try ContractTests()
    }

    static let calls: [(name: String, call: @Sendable (GatehouseClient) async throws -> Void)] = [
        ("completeSecondFactor", { _ = try await $0.completeSecondFactor(mfaToken: "v1.challenge", code: "123456") }),
        ("enrolAuthenticatorApp", { _ = try await $0.enrolAuthenticatorApp() }),
        ("confirmAuthenticatorApp", { _ = try await $0.confirmAuthenticatorApp(code: "123456") }),
        ("regenerateRecoveryCodes", { _ = try await $0.regenerateRecoveryCodes(code: "123456") }),
        ("removeAuthenticatorApp", { try await $0.removeAuthenticatorApp(code: "123456") }),
    ]

    static let probes: [ContractTests.ResponseProbe] = [
        .init(method: "POST", path: "/auth/mfa/verify", status: 200, unread: ContractTests.tokensUnreadBySession) {
            try await $0.completeSecondFactor(mfaToken: "v1.challenge", code: "123456")
        },
        .init(method: "POST", path: "/me/mfa/totp", status: 200) { try await $0.enrolAuthenticatorApp() },
        .init(method: "POST", path: "/me/mfa/totp/verify", status: 200) { try await $0.confirmAuthenticatorApp(code: "123456") },
        .init(method: "POST", path: "/me/mfa/recovery-codes", status: 200) { try await $0.regenerateRecoveryCodes(code: "123456") },
    ]

    @Test func everySecondFactorRequestUsesDocumentedFieldsAndSendsTheRequiredOnes() async {
        let covered = await contract.checkRequests(Self.calls)
        #expect(
            covered == [
                "POST /auth/mfa/verify", "POST /me/mfa/totp", "POST /me/mfa/totp/verify", "POST /me/mfa/recovery-codes", "DELETE /me/mfa/totp",
            ]
        )
    }

    @Test(arguments: SecondFactorContractTests.probes.indices)
    func everyDocumentedResponseFieldIsRead(_ index: Int) async throws {
        try await contract.checkReads(Self.probes[index])
    }
}
