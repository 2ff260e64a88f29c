import Foundation
import Testing

@testable import Gatehouse

/// The server's JSON as RFC 3339 allows it (issue 15, bug 6).
@Suite("Decoding: timestamps with and without fractional seconds")
struct DecodingTests {
    @Test(arguments: [
        ("2026-11-23T10:00:00Z", 1_795_428_000.0),
        ("2026-11-23T10:00:00.250Z", 1_795_428_000.25),
        ("2026-11-23T10:00:00.123456Z", 1_795_428_000.123456),
        ("2026-11-23T11:00:00+01:00", 1_795_428_000.0),
    ])
    func timestampsDecode(_ text: String, _ seconds: Double) async throws {
        let transport = StubTransport { _ in
            let profile: [String: Any] = [
                "sub": "u1", "email": "a@example.com", "email_verified": true, "full_name": NSNull(),
                "identities": [["provider": "password", "linked_at": text]], "created_at": text, "updated_at": text,
            ]
            return (200, [:], StubTransport.json(profile))
        }
        let store = InMemoryTokenStore(Session(idToken: "i", accessToken: "a", refreshToken: "r", expiresAt: .distantFuture))
        let client = GatehouseClient(configuration: .init(baseURL: base), store: store, transport: transport)
        let profile = try await client.profile()
        #expect(abs(profile.createdAt.timeIntervalSince1970 - seconds) < 0.001)
        #expect(abs(profile.identities[0].linkedAt.timeIntervalSince1970 - seconds) < 0.001)
    }

    @Test func appleRelayFlagsDecodeAndAreNilWhenAbsent() async throws {
        let transport = StubTransport { _ in
            let when = "2026-11-23T10:00:00Z"
            let profile: [String: Any] = [
                "sub": "u1", "email": "x@privaterelay.appleid.com", "email_verified": true, "created_at": when, "updated_at": when,
                "identities": [
                    ["provider": "password", "linked_at": when],
                    ["provider": "apple", "linked_at": when, "is_private_email": true, "email_forwarding": false],
                ],
            ]
            return (200, [:], StubTransport.json(profile))
        }
        let store = InMemoryTokenStore(Session(idToken: "i", accessToken: "a", refreshToken: "r", expiresAt: .distantFuture))
        let profile = try await GatehouseClient(configuration: .init(baseURL: base), store: store, transport: transport).profile()
        #expect(profile.identities[0].isPrivateEmail == nil && profile.identities[0].emailForwarding == nil)
        #expect(profile.identities[1].isPrivateEmail == true && profile.identities[1].emailForwarding == false)
    }

    @Test func theParserIsTheSameOnEveryPlatform() {
        // Apple's `.iso8601` strategy refuses the fractional forms; this parser is what the client uses everywhere.
        #expect(RFC3339.parse("2026-11-23T10:00:00.5Z")?.timeIntervalSince1970 == 1_795_428_000.5)
        #expect(RFC3339.parse("2026-11-23t09:30:00.000-00:30")?.timeIntervalSince1970 == 1_795_428_000)
        #expect(RFC3339.parse("1969-12-31T23:59:59Z")?.timeIntervalSince1970 == -1)
        #expect(RFC3339.parse("2000-02-29T00:00:00Z")?.timeIntervalSince1970 == 951_782_400)
        for bad in ["2026-11-23", "2026-11-23T10:00:00", "2026-11-23T10:00:00.Z", "2026-13-01T00:00:00Z", "2026-11-23T10:00:00+0100"] {
            #expect(RFC3339.parse(bad) == nil, "\(bad)")
        }
    }

    @Test func aMalformedTimestampIsAnInvalidResponse() async {
        let transport = StubTransport { _ in
            (200, [:], StubTransport.json(["sub": "u", "email_verified": true, "identities": [], "created_at": "yesterday", "updated_at": "now"]))
        }
        let store = InMemoryTokenStore(Session(idToken: "i", accessToken: "a", refreshToken: "r", expiresAt: .distantFuture))
        let client = GatehouseClient(configuration: .init(baseURL: base), store: store, transport: transport)
        let invalidResponse: (GatehouseError) -> Bool = {
            if case .invalidResponse = $0 { return true }
            return false
        }
        await expectError(invalidResponse) { _ = try await client.profile() }
    }
}
