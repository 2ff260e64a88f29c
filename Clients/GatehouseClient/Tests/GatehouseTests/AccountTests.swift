import Foundation
import Testing

@testable import Gatehouse

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The session list and the email change without a server (``StubTransport``): what is sent, what is read, and
/// ending this client's own session signing it out.
@Suite("Account: sessions and email change (stub transport)")
struct AccountTests {
    /// An access token whose session (`origin_jti`) is `own`.
    static func accessToken(session: String) -> String {
        let payload = try! JSONSerialization.data(withJSONObject: ["sub": "u1", "origin_jti": session, "token_use": "access"])
        let encoded = payload.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
        return "eyJhbGciOiJSUzI1NiJ9.\(encoded).c2ln"
    }

    static var list: [String: Any] {
        [
            "sessions": [
                [
                    "id": "own", "created_at": "2026-11-20T10:00:00Z", "last_refreshed_at": "2026-11-27T09:00:00Z", "device": "Gatehouse SDK on iOS",
                    "client_address": "203.0.113.0/24", "method": "password+otp", "amr": ["pwd", "otp", "mfa"], "current": true,
                ],
                [
                    "id": "other", "created_at": "2026-11-01T10:00:00Z", "last_refreshed_at": NSNull(), "device": "Unknown device",
                    "client_address": NSNull(), "method": "google", "amr": ["fed"], "current": false,
                ],
            ]
        ]
    }

    static func server() -> StubTransport {
        StubTransport { request in
            switch (request.httpMethod ?? "GET", request.url!.path) {
            case ("GET", "/me/sessions"): return (200, [:], StubTransport.json(list))
            case ("DELETE", "/me/sessions/own"), ("DELETE", "/me/sessions/other"): return (204, [:], Data())
            case ("POST", "/me/email"):
                guard request.jsonBody["current_password"] as? String == "pw 123456" else {
                    return (403, [:], StubTransport.error("reauthentication_required", "Send your current password."))
                }
                return (200, [:], StubTransport.json(["code_delivery": ["medium": "EMAIL", "destination": "n***@e***.com"]]))
            default: return (404, [:], StubTransport.error("not_found", "No such session."))
            }
        }
    }

    static func client(_ transport: StubTransport) -> GatehouseClient {
        let session = Session(idToken: "i", accessToken: accessToken(session: "own"), refreshToken: "r", expiresAt: .distantFuture)
        return GatehouseClient(configuration: .init(baseURL: base), store: InMemoryTokenStore(session), transport: transport)
    }

    @Test func theListDecodesEveryDeviceAndMarksTheCurrentOne() async throws {
        let client = Self.client(Self.server())
        let sessions = try await client.sessions()
        #expect(sessions.map(\.id) == ["own", "other"] && sessions.map(\.current) == [true, false])
        #expect(
            sessions[0].device == "Gatehouse SDK on iOS" && sessions[0].amr == ["pwd", "otp", "mfa"] && sessions[0].clientAddress == "203.0.113.0/24"
        )
        #expect(sessions[0].lastActiveAt == RFC3339.parse("2026-11-27T09:00:00Z"))
        #expect(sessions[1].lastRefreshedAt == nil && sessions[1].clientAddress == nil && sessions[1].lastActiveAt == sessions[1].createdAt)
    }

    @Test func endingAnotherSessionKeepsThisOneAndEndingThisOneSignsOut() async throws {
        let transport = Self.server()
        let client = Self.client(transport)
        try await client.restore()
        var events = client.events.makeAsyncIterator()
        try await client.endSession(id: "other")
        #expect(client.currentSession != nil, "another device's session: this one goes on")
        await expectError(.notFound) { try await client.endSession(id: "gone") }
        await expectError(.notFound) { try await client.endSession(id: "") }
        #expect(transport.requests.filter { $0.httpMethod == "DELETE" }.map { $0.url!.path } == ["/me/sessions/other", "/me/sessions/gone"])
        try await client.endSession(id: "own")
        #expect(client.currentSession == nil, "ending its own session is signing out")
        #expect(await events.next() == .signedOut)
        // A hostile id never reaches the path.
        let hostile = Self.server()
        let other = Self.client(hostile)
        try await other.restore()
        for id in ["../me", "own/../../me", "own?x=1", "own%2F", "ówn"] {
            await expectError(.notFound) { try await other.endSession(id: id) }
        }
        #expect(hostile.requests.isEmpty && other.currentSession != nil)
    }

    @Test func anEmailChangeSendsThePasswordOnlyWhenGiven() async throws {
        let transport = Self.server()
        let client = Self.client(transport)
        try await client.restore()
        await expectError(.reauthenticationRequired) { try await client.changeEmail(to: "new@example.com", currentPassword: nil) }
        let delivery = try await client.changeEmail(to: "new@example.com", currentPassword: "pw 123456")
        #expect(delivery == CodeDelivery(medium: "EMAIL", destination: "n***@e***.com"))
        let bodies = transport.requests(to: "/me/email").map { $0.jsonBody as? [String: String] }
        #expect(bodies == [["email": "new@example.com"], ["email": "new@example.com", "current_password": "pw 123456"]])
    }

    @Test func notSupportedIsAKnownCodeWithWordsForPeople() async throws {
        let client = Self.client(StubTransport { _ in (501, [:], StubTransport.error("not_supported", "Cognito keeps no list.")) })
        try await client.restore()
        var thrown: GatehouseError?
        do { _ = try await client.sessions() } catch let error as GatehouseError { thrown = error }
        let error = try #require(thrown)
        #expect(error.code == .notSupported && error.code?.isKnown == true)
        #expect(error.localizedDescription == "This isn't available on this server.")
    }
}
