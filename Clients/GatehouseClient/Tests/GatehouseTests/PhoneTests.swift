import Foundation
import Testing

@testable import Gatehouse

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Phone sign-in and adding a number (issue 16): the requests, the session a phone sign-in starts, the errors the
/// contract names, and the phone fields of the profile and the ID token (absent from older servers).
@Suite("Phone: requests, the session and the phone fields (stub transport)")
struct PhoneTests {
    static let number = "+14155550123"
    static var delivery: [String: Any] { ["code_delivery": ["medium": "SMS", "destination": "+1*******0123"]] }

    static func profileJSON(phone: Any? = nil, verified: Any? = nil) -> [String: Any] {
        var profile: [String: Any] = [
            "sub": "u1", "email": NSNull(), "email_verified": false, "full_name": NSNull(), "identities": [],
            "created_at": "2026-11-23T10:00:00Z", "updated_at": "2026-11-23T10:00:00Z",
        ]
        if let phone { profile["phone"] = phone }
        if let verified { profile["phone_verified"] = verified }
        return profile
    }

    static func phoneTokens(isNewUser: Bool) -> Data {
        let idToken = fakeIDToken(["sub": "u1", "phone_number": number, "phone_number_verified": true, "aud": "app"])
        return StubTransport.json([
            "id_token": idToken, "access_token": "access-phone", "refresh_token": "refresh-phone", "expires_in": 3600,
            "token_type": "Bearer", "is_new_user": isNewUser,
        ])
    }

    func client(_ transport: StubTransport, store: any TokenStore = InMemoryTokenStore()) -> GatehouseClient {
        GatehouseClient(configuration: .init(baseURL: base), store: store, transport: transport)
    }

    @Test func signingInWithAPhoneCodeStartsTheSessionLikeEveryOtherSignIn() async throws {
        let transport = StubTransport { request in
            switch request.url!.path {
            case "/auth/phone/send": return (200, [:], StubTransport.json(Self.delivery))
            case "/auth/phone/verify": return (200, [:], Self.phoneTokens(isNewUser: true))
            default: return (404, [:], StubTransport.error("not_found"))
            }
        }
        let store = InMemoryTokenStore()
        let client = client(transport, store: store)
        var changes = client.authStateChanges.makeAsyncIterator()
        #expect(await changes.next() == AuthStateChange(event: .initialSession, session: nil))
        let events = client.events
        var eventIterator = events.makeAsyncIterator()

        let delivery = try await client.sendPhoneCode(to: Self.number)
        #expect(delivery == CodeDelivery(medium: "SMS", destination: "+1*******0123"))
        let send = try #require(transport.requests(to: "/auth/phone/send").first)
        #expect(send.httpMethod == "POST" && send.value(forHTTPHeaderField: "Content-Type") == "application/json")
        #expect(send.jsonBody as? [String: String] == ["phone": Self.number])
        #expect(send.value(forHTTPHeaderField: "Authorization") == nil, "sending a sign-in code needs no session")

        let result = try await client.signInWithPhone(Self.number, code: "123456")
        let verify = try #require(transport.requests(to: "/auth/phone/verify").first)
        #expect(verify.httpMethod == "POST" && verify.jsonBody as? [String: String] == ["phone": Self.number, "code": "123456"])
        #expect(result.isNewUser == true && result.session.accessToken == "access-phone")
        #expect(try store.load() == result.session, "the session is stored")
        #expect(client.currentSession == result.session)
        #expect(client.currentUser?.phone == Self.number && client.currentUser?.phoneVerified == true)
        #expect(await eventIterator.next() == .signedIn)
        #expect(await changes.next() == AuthStateChange(event: .signedIn, session: result.session))
    }

    @Test func addingANumberToTheSignedInAccount() async throws {
        let transport = StubTransport { request in
            #expect(request.value(forHTTPHeaderField: "Authorization") == "Bearer a", "\(request.url!.path) is sent with the session")
            switch request.url!.path {
            case "/me/phone": return (200, [:], StubTransport.json(Self.delivery))
            case "/me/phone/verify":
                if request.jsonBody["code"] as? String != "123456" { return (400, [:], StubTransport.error("code_mismatch")) }
                return (200, [:], StubTransport.json(Self.profileJSON(phone: Self.number, verified: true)))
            default: return (404, [:], StubTransport.error("not_found"))
            }
        }
        let session = Session(idToken: "i", accessToken: "a", refreshToken: "r", expiresAt: .distantFuture)
        let client = client(transport, store: InMemoryTokenStore(session))
        #expect(try await client.addPhone(Self.number).medium == "SMS")
        #expect(transport.requests(to: "/me/phone").first?.jsonBody as? [String: String] == ["phone": Self.number])
        #expect(transport.requests(to: "/me/phone").first?.httpMethod == "POST")
        await expectError(.codeMismatch) { _ = try await client.verifyPhone(Self.number, code: "000000") }
        let profile = try await client.verifyPhone(Self.number, code: "123456")
        #expect(profile.phone == Self.number && profile.phoneVerified)
        #expect(transport.requests(to: "/me/phone/verify").last?.jsonBody as? [String: String] == ["phone": Self.number, "code": "123456"])
        #expect(client.currentSession == session, "linking a number keeps the session")
    }

    @Test func addingANumberNeedsASession() async {
        let transport = StubTransport { _ in (200, [:], StubTransport.json(Self.delivery)) }
        let client = client(transport)
        await #expect(throws: GatehouseError.notSignedIn) { try await client.addPhone(Self.number) }
        await #expect(throws: GatehouseError.notSignedIn) { _ = try await client.verifyPhone(Self.number, code: "123456") }
        #expect(transport.requests.isEmpty)
    }

    @Test func theContractsErrorsArriveWithTheirCodes() async throws {
        let transport = StubTransport { request in
            switch (request.url!.path, request.jsonBody["phone"] as? String) {
            case ("/auth/phone/send", "+15555550100"):
                return (403, [:], StubTransport.error("provider_disabled", "Phone sign-in is not enabled on this server."))
            case ("/auth/phone/send", "+33612345678"):
                return (400, [:], StubTransport.error("invalid_request", "Numbers in this country cannot receive codes."))
            case ("/auth/phone/send", _): return (429, ["Retry-After": "120"], StubTransport.error("too_many_requests", "Slow down."))
            case ("/auth/phone/verify", _): return (400, [:], StubTransport.error("code_expired", "The code has expired."))
            case ("/me/phone/verify", _):
                return (409, [:], StubTransport.error("conflict", "This number belongs to another account."))
            default: return (404, [:], StubTransport.error("not_found"))
            }
        }
        let store = InMemoryTokenStore()
        let client = client(transport, store: store)
        // The server's message is what people see for these codes.
        let disabled = Self.error(.providerDisabled, "Phone sign-in is not enabled on this server.")
        await expectError(disabled) { try await client.sendPhoneCode(to: "+15555550100") }
        let refusedCountry = Self.error(.invalidRequest, "Numbers in this country cannot receive codes.")
        await expectError(refusedCountry) { try await client.sendPhoneCode(to: "+33612345678") }
        let throttled: (GatehouseError) -> Bool = {
            guard case .server(let error) = $0 else { return false }
            return error.code == .tooManyRequests && error.retryAfter == 120 && $0.errorDescription == "Too many attempts. Try again in 120 seconds."
        }
        await expectError(throttled) { try await client.sendPhoneCode(to: Self.number) }
        #expect(transport.requests(to: "/auth/phone/send").count == 3, "a wait beyond maxRetryAfter is not waited out")
        await expectError(.codeExpired) { try await client.signInWithPhone(Self.number, code: "123456") }
        #expect(try store.load() == nil && client.currentSession == nil, "a refused code starts no session")

        try store.save(Session(idToken: "i", accessToken: "a", refreshToken: "r", expiresAt: .distantFuture))
        let signedIn = GatehouseClient(configuration: .init(baseURL: base), store: store, transport: transport)
        let taken = Self.error(.conflict, "This number belongs to another account.")
        await expectError(taken) { _ = try await signedIn.verifyPhone(Self.number, code: "123456") }
        #expect(try store.load() != nil, "a conflict keeps the session")
    }

    /// Matches a server error with `code` whose words for people are `message`.
    static func error(_ code: ErrorCode, _ message: String) -> (GatehouseError) -> Bool {
        { $0.code == code && $0.errorDescription == message }
    }

    @Test(arguments: [
        (StubTransport.json(PhoneTests.profileJSON()), nil as String?, false),
        (StubTransport.json(PhoneTests.profileJSON(phone: NSNull(), verified: false)), nil, false),
        (StubTransport.json(PhoneTests.profileJSON(phone: PhoneTests.number, verified: false)), PhoneTests.number, false),
        (StubTransport.json(PhoneTests.profileJSON(phone: PhoneTests.number, verified: true)), PhoneTests.number, true),
    ])
    func theProfilesPhoneFieldsAreOptional(_ body: Data, _ phone: String?, _ verified: Bool) async throws {
        let transport = StubTransport { _ in (200, [:], body) }
        let session = Session(idToken: "i", accessToken: "a", refreshToken: "r", expiresAt: .distantFuture)
        let profile = try await client(transport, store: InMemoryTokenStore(session)).profile()
        #expect(profile.sub == "u1" && profile.phone == phone && profile.phoneVerified == verified)
    }

    @Test func theIDTokensPhoneClaimsAreOptional() throws {
        let without = try #require(User(idToken: fakeIDToken(["sub": "u1", "email": "a@example.com"])))
        #expect(without.phone == nil && !without.phoneVerified)
        let with = try #require(User(idToken: fakeIDToken(["sub": "u1", "phone_number": Self.number, "phone_number_verified": true])))
        #expect(with.phone == Self.number && with.phoneVerified && with.email == nil)
        let asString = try #require(User(idToken: fakeIDToken(["sub": "u1", "phone_number": Self.number, "phone_number_verified": "true"])))
        #expect(asString.phoneVerified, "some issuers write booleans as strings")
        let unverified = try #require(User(idToken: fakeIDToken(["sub": "u1", "phone_number": Self.number, "phone_number_verified": false])))
        #expect(unverified.phone == Self.number && !unverified.phoneVerified)
    }
}
