import Foundation
import Testing

@testable import Gatehouse

/// The session list's and the email change's requests and answers against openapi.yaml, as ``ContractTests``
/// checks the others.
@Suite("Contract: the SDK's session-list and email-change requests and models match openapi.yaml")
struct AccountContractTests {
    let contract: ContractTests

    init() throws {
        contract = try ContractTests()
    }

    static let id = "0193a0b1-7c2d-7e3f-8a4b-5c6d7e8f9a0b"

    static let calls: [(name: String, call: @Sendable (GatehouseClient) async throws -> Void)] = [
        ("sessions", { _ = try await $0.sessions() }),
        ("endSession", { try await $0.endSession(id: AccountContractTests.id) }),
        ("changeEmail", { _ = try await $0.changeEmail(to: "new@example.com", currentPassword: "pw 123456") }),
        ("changeEmail(no password)", { _ = try await $0.changeEmail(to: "new@example.com", currentPassword: nil) }),
        ("verifyEmailChange", { _ = try await $0.verifyEmailChange(code: "123456") }),
    ]

    static let probes: [ContractTests.ResponseProbe] = [
        .init(method: "GET", path: "/me/sessions", status: 200) { try await $0.sessions() },
        .init(method: "POST", path: "/me/email", status: 200) { try await $0.changeEmail(to: "new@example.com", currentPassword: "pw") },
        .init(method: "POST", path: "/me/email/verify", status: 200) { try await $0.verifyEmailChange(code: "123456") },
    ]

    @Test func everyAccountRequestUsesDocumentedFieldsAndSendsTheRequiredOnes() async {
        let covered = await contract.checkRequests(Self.calls)
        #expect(covered == ["GET /me/sessions", "DELETE /me/sessions/\(Self.id)", "POST /me/email", "POST /me/email/verify"])
    }

    @Test(arguments: AccountContractTests.probes.indices)
    func everyDocumentedResponseFieldIsRead(_ index: Int) async throws {
        try await contract.checkReads(Self.probes[index])
    }
}
