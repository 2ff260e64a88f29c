import Foundation
import Testing

@testable import Gatehouse

/// The phone calls' requests and answers against openapi.yaml, as ``ContractTests`` checks the others. It runs once
/// the document describes phone sign-in; before that it is skipped with a note (in CI, `GATEHOUSE_REQUIRE_ALL_SUITES=1`,
/// it always runs, so a document without the phone operations fails it).
@Suite(
    "Contract: the SDK's phone requests and models match openapi.yaml",
    .enabled("openapi.yaml describes phone sign-in") { OpenAPIDocument.describesPhoneSignIn }
)
struct PhoneContractTests {
    let contract: ContractTests

    init() throws {
        contract = try ContractTests()
    }

    static let calls: [(name: String, call: @Sendable (GatehouseClient) async throws -> Void)] = [
        ("sendPhoneCode", { _ = try await $0.sendPhoneCode(to: "+14155550123") }),
        ("signInWithPhone", { _ = try await $0.signInWithPhone("+14155550123", code: "123456") }),
        ("addPhone", { _ = try await $0.addPhone("+14155550123") }),
        ("verifyPhone", { _ = try await $0.verifyPhone("+14155550123", code: "123456") }),
    ]

    static let probes: [ContractTests.ResponseProbe] = [
        .init(method: "POST", path: "/auth/phone/send", status: 200) { try await $0.sendPhoneCode(to: "+14155550123") },
        .init(method: "POST", path: "/auth/phone/verify", status: 200, unread: ["token_type"]) {
            try await $0.signInWithPhone("+14155550123", code: "123456")
        },
        .init(method: "POST", path: "/me/phone", status: 200) { try await $0.addPhone("+14155550123") },
        .init(method: "POST", path: "/me/phone/verify", status: 200) { try await $0.verifyPhone("+14155550123", code: "123456") },
    ]

    @Test func everyPhoneRequestUsesDocumentedFieldsAndSendsTheRequiredOnes() async {
        let covered = await contract.checkRequests(Self.calls)
        #expect(covered == ["POST /auth/phone/send", "POST /auth/phone/verify", "POST /me/phone", "POST /me/phone/verify"])
    }

    @Test(arguments: PhoneContractTests.probes.indices)
    func everyDocumentedResponseFieldIsRead(_ index: Int) async throws {
        try await contract.checkReads(Self.probes[index])
    }
}

extension OpenAPIDocument {
    /// Whether the repository's openapi.yaml has the phone operations yet (always `true` in CI, so that a document
    /// without them fails the phone contract suite instead of skipping it).
    static let describesPhoneSignIn: Bool = {
        if ProcessInfo.processInfo.environment["GATEHOUSE_REQUIRE_ALL_SUITES"] == "1" { return true }
        if let document = try? OpenAPIDocument.load(), document.operation("POST", "/auth/phone/send") != nil { return true }
        FileHandle.standardError.write(
            Data("note: GatehouseClient phone contract suite skipped: openapi.yaml does not describe POST /auth/phone/send yet\n".utf8)
        )
        return false
    }()
}
