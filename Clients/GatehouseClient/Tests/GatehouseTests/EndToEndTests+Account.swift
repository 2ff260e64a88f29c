import Foundation
import Testing

@testable import Gatehouse

/// Issue 29 against the real server: two devices, the list, one device signed out from the other, and an email
/// change read from the outbox (part of the end-to-end suite).
extension EndToEndTests {
    @Test func aUserSeesTheirDevicesEndsOneAndChangesTheirEmail() async throws {
        let server = try GatehouseServerProcess()
        defer { server.stop() }
        let phone = GatehouseClient(configuration: .init(baseURL: server.baseURL))
        let laptop = GatehouseClient(configuration: .init(baseURL: server.baseURL))
        let email = Self.email("dev")
        try await signedUp(server, phone, email)
        try await phone.signIn(email: email, password: "correct horse 9")
        try await laptop.signIn(email: email, password: "correct horse 9")

        let listed = try await phone.sessions()
        #expect(listed.count == 2 && listed.filter(\.current).count == 1)
        let own = try #require(listed.first { $0.current })
        #expect(own.device.hasPrefix("Gatehouse SDK") && own.clientAddress == "127.0.0.0/24" && own.amr == ["pwd"])
        let other = try #require(listed.first { !$0.current })
        try await phone.endSession(id: other.id)
        await expectError(.invalidGrant) { _ = try await laptop.profile() }
        #expect(laptop.currentSession == nil, "the laptop's session ended and was cleared")
        #expect(try await phone.sessions().map(\.id) == [own.id])
        await expectError(.notFound) { try await phone.endSession(id: other.id) }

        let newEmail = Self.email("moved")
        await expectError(.reauthenticationRequired) { try await phone.changeEmail(to: newEmail, currentPassword: nil) }
        let sent = Date()
        let delivery = try await phone.changeEmail(to: newEmail, currentPassword: "correct horse 9")
        #expect(delivery.medium == "EMAIL" && delivery.destination.hasPrefix(String(newEmail.prefix(1))))
        let code = try await server.latestCode("confirm_email_change", for: newEmail, since: sent)
        let profile = try await phone.verifyEmailChange(code: code)
        #expect(profile.email == newEmail && profile.emailVerified)
        try await phone.refresh()
        #expect(phone.currentUser?.email == newEmail, "the ID token follows at the refresh")

        try await phone.endSession(id: own.id)
        #expect(phone.currentSession == nil, "ending its own session signed this client out")
    }
}
