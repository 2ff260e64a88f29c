import Foundation
import Testing

@testable import Gatehouse

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The passkey calls' requests and the passkey record against openapi.yaml, as ``ContractTests`` checks the others.
/// The options and the credentials are WebAuthn's own JSON forms: the credential's members, and those of its
/// `response`, must be ones the document declares (with every required one sent); the options are kept as the
/// server's JSON for the authenticator and are checked end to end instead (``PasskeyEndToEndTests``).
@Suite("Contract: the SDK's passkey requests and models match openapi.yaml")
struct PasskeyContractTests {
    let contract: ContractTests

    init() throws {
        contract = try ContractTests()
    }

    static let credential = Data(repeating: 0xAB, count: 32)

    static let registration = PasskeyRegistration(
        credentialID: credential,
        clientDataJSON: Data(#"{"type":"webauthn.create"}"#.utf8),
        attestationObject: Data([0xA0]),
        transports: ["internal"],
        authenticatorAttachment: "platform"
    )

    static let assertion = PasskeyAssertion(
        credentialID: credential,
        clientDataJSON: Data(#"{"type":"webauthn.get"}"#.utf8),
        authenticatorData: Data(repeating: 1, count: 37),
        signature: Data([0x30, 0x00]),
        userHandle: Data("user".utf8),
        authenticatorAttachment: "platform"
    )

    static let calls: [(name: String, call: @Sendable (GatehouseClient) async throws -> Void)] = [
        ("passkeyRegistrationOptions", { _ = try await $0.passkeyRegistrationOptions() }),
        ("registerPasskey", { _ = try await $0.registerPasskey(PasskeyContractTests.registration, name: "iPhone") }),
        ("passkeys", { _ = try await $0.passkeys() }),
        ("deletePasskey", { try await $0.deletePasskey(id: Base64URL.encode(PasskeyContractTests.credential)) }),
        ("passkeySignInOptions(email)", { _ = try await $0.passkeySignInOptions(email: "a@example.com") }),
        ("passkeySignInOptions", { _ = try await $0.passkeySignInOptions() }),
        ("signInWithPasskey", { _ = try await $0.signInWithPasskey(PasskeyContractTests.assertion) }),
    ]

    static let probes: [ContractTests.ResponseProbe] = [
        .init(method: "GET", path: "/me/passkeys", status: 200) { try await $0.passkeys() },
        .init(method: "POST", path: "/me/passkeys", status: 201) { try await $0.registerPasskey(PasskeyContractTests.registration) },
        .init(method: "POST", path: "/auth/passkey/signin", status: 200, unread: ContractTests.tokensUnreadBySession) {
            try await $0.signInWithPasskey(PasskeyContractTests.assertion)
        },
    ]

    @Test func everyPasskeyRequestUsesDocumentedFieldsAndSendsTheRequiredOnes() async {
        let covered = await contract.checkRequests(Self.calls)
        #expect(
            covered == [
                "POST /me/passkeys/options", "POST /me/passkeys", "GET /me/passkeys", "DELETE /me/passkeys/\(Base64URL.encode(Self.credential))",
                "POST /auth/passkey/options", "POST /auth/passkey/signin",
            ]
        )
    }

    /// The credential's `response` member, which ``ContractTests/check(_:from:)`` does not reach.
    @Test(arguments: ["/me/passkeys", "/auth/passkey/signin"])
    func theCredentialsResponseMembersAreDocumented(_ path: String) throws {
        let json = path == "/me/passkeys" ? Self.registration.responseJSON : Self.assertion.responseJSON
        let body = try #require(contract.document.requestBody("POST", path), "POST \(path) has no JSON body in openapi.yaml")
        let properties = body.schema["properties"] as? [String: Any] ?? [:]
        let schema = contract.document.schema(properties["response"])
        let documented = Set((schema["properties"] as? [String: Any] ?? [:]).keys)
        let sent = Set((json["response"] as? [String: Any] ?? [:]).keys)
        #expect(sent.subtracting(documented).isEmpty, "POST \(path) sends response members \(sent.subtracting(documented).sorted()), not documented")
        let required = Set(schema["required"] as? [String] ?? [])
        #expect(required.isSubset(of: sent), "POST \(path) leaves out the required response members \(required.subtracting(sent).sorted())")
    }

    @Test(arguments: PasskeyContractTests.probes.indices)
    func everyDocumentedResponseFieldIsRead(_ index: Int) async throws {
        try await contract.checkReads(Self.probes[index])
    }
}
