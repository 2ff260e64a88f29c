import Foundation
import GatehouseAPI
import GatehouseCore
import GatehouseInfrastructure
import Testing

@testable import GatehouseServer

/// TEMPORARY (deleted with the DTOs): the generated types written by ContractEncoder give the same bytes as the hand-written DTOs.
@Suite("Response bytes: generated types against the old DTOs")
struct ResponseBytesMigrationTests {
    static let names: [String?] = [nil, "Ada Lovelace", "Zoë ☃︎ 😀 \"quoted\" back\\slash a/b", "", "tab\there", "line\u{2028}sep", "日本語"]
    static let dates = [Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: 1_795_000_000.987), Date(timeIntervalSince1970: 4_102_444_799.5)]

    static func profiles() -> [ProfileView] {
        var views: [ProfileView] = []
        for (i, name) in names.enumerated() {
            for date in dates {
                let profile = ProfileRecord(
                    sub: "sub-\(i)",
                    email: i % 2 == 0 ? nil : "a\(i)@exämple.com",
                    emailVerified: i % 3 == 0,
                    fullName: name,
                    phone: i % 2 == 0 ? "+14155550123" : nil,
                    phoneVerified: i % 2 == 0,
                    isSuperuser: i == 3,
                    createdAt: date,
                    updatedAt: date.addingTimeInterval(0.4)
                )
                let identities: [ProfileView.LinkedIdentity] = [
                    .init(provider: "password", linkedAt: date),
                    .init(
                        provider: "apple",
                        linkedAt: date.addingTimeInterval(61.999),
                        isPrivateEmail: i % 2 == 0,
                        emailForwarding: i == 1 ? false : nil
                    ),
                ]
                views.append(ProfileView(profile: profile, identities: i == 0 ? [] : identities))
            }
        }
        return views
    }

    @Test func profiles() throws {
        for view in Self.profiles() {
            let old = String(decoding: try ProfileResponse(view).jsonBytes(), as: UTF8.self)
            let new = String(decoding: try Components.Schemas.Profile(view).jsonBytes(), as: UTF8.self)
            #expect(old == new)
            let oldCompat = String(decoding: try CompatUserResponse(view).jsonBytes(), as: UTF8.self)
            let newCompat = String(decoding: try Components.Schemas.CompatUser(view).jsonBytes(), as: UTF8.self)
            #expect(oldCompat == newCompat)
            for isNew: Bool? in [nil, true, false] {
                let tokens = AuthTokens(idToken: "i.d/t", accessToken: "a.c.c", refreshToken: "r/ef", expiresIn: 3600, isNewUser: isNew)
                let old = String(decoding: try CompatSignInResponse(tokens, user: view).jsonBytes(), as: UTF8.self)
                let new = String(decoding: try Components.Schemas.CompatSignIn(tokens, user: view).jsonBytes(), as: UTF8.self)
                #expect(old == new)
                #expect(TokenResponse(tokens).fastJSONBytes() == Components.Schemas.Tokens(tokens).fastJSONBytes())
                #expect(try TokenResponse(tokens).jsonBytes() == Components.Schemas.Tokens(tokens).jsonBytes())
            }
        }
    }

    @Test func sessionsDeliveriesAndTheRest() throws {
        var views: [SessionView] = []
        for (i, date) in Self.dates.enumerated() {
            for agent: String? in [nil, "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 Version/17.0 Safari/605.1.15", "ünï/1"]
            {
                let record = SessionRecord(
                    id: "s\(i)\(agent?.count ?? 0)",
                    userID: "u",
                    method: i == 0 ? "password+otp" : "apple",
                    authTime: date,
                    createdAt: date,
                    userAgent: agent,
                    clientAddress: i == 1 ? nil : "203.0.113.0/24",
                    lastRefreshedAt: i == 2 ? nil : date.addingTimeInterval(59.9)
                )
                views.append(SessionView(record, currentID: "s00"))
            }
        }
        for count in [0, 1, views.count] {
            let slice = Array(views.prefix(count))
            #expect(
                String(decoding: try SessionListResponse(slice).jsonBytes(), as: UTF8.self)
                    == String(decoding: try Components.Schemas.SessionList(slice).jsonBytes(), as: UTF8.self)
            )
        }
        for delivery in [CodeDelivery(destination: "a***@e***.com"), CodeDelivery(sms: try PhoneNumber(parsing: "+14155550123"))] {
            #expect(try CodeDeliveryResponse(delivery).jsonBytes() == Components.Schemas.CodeDeliveryResult(delivery).jsonBytes())
            #expect(try CompatCodeSentResponse(delivery).jsonBytes() == Components.Schemas.CompatCodeSent(delivery).jsonBytes())
            for confirmed in [true, false] {
                let result = SignUpResult(userSub: "ü-1", userConfirmed: confirmed, codeDelivery: delivery)
                #expect(try SignUpResponse(result).jsonBytes() == Components.Schemas.SignUpResult(result).jsonBytes())
            }
        }
        for hosted in [true, false] {
            for algorithms in [["RS256"], ["ES256", "RS256"]] {
                let old = OpenIDConfigurationResponse(
                    issuer: "https://id.example.com/a",
                    jwksURI: "https://id.example.com/a/.well-known/jwks.json",
                    hostedUI: hosted,
                    idTokenAlgorithms: algorithms
                )
                let new = Components.Schemas.OpenIDConfiguration(
                    issuer: "https://id.example.com/a",
                    jwksURI: "https://id.example.com/a/.well-known/jwks.json",
                    hostedUI: hosted,
                    idTokenAlgorithms: algorithms
                )
                #expect(String(decoding: try old.jsonBytes(), as: UTF8.self) == String(decoding: try new.jsonBytes(), as: UTF8.self))
            }
        }
        #expect(try StatusResponse(status: "ok").jsonBytes() == Components.Schemas.Health(status: .ok).jsonBytes())
        #expect(try StatusResponse(status: "ready").jsonBytes() == Components.Schemas.Readiness(status: .ready).jsonBytes())
        #expect(try OutcomeResponse.confirmed.jsonBytes() == Components.Schemas.Confirmed(confirmed: true).jsonBytes())
        #expect(try OutcomeResponse.reset.jsonBytes() == Components.Schemas.PasswordReset(reset: true).jsonBytes())
        #expect(try OutcomeResponse.changed.jsonBytes() == Components.Schemas.PasswordChanged(changed: true).jsonBytes())
        #expect(try OutcomeResponse(outcome: "received").jsonBytes() == Components.Schemas.NotificationReceived(received: true).jsonBytes())
        for token: String? in [nil, "tok/en"] {
            for message in ["Wrong email or password.", "'x' — ü \"q\" a/b"] {
                let old = try ErrorResponse(code: "mfa_required", message: message, mfaToken: token).jsonBytes()
                let new = try Components.Schemas._Error(error: .init(code: .mfaRequired, message: message, mfaToken: token)).jsonBytes()
                #expect(old == new)
            }
        }
    }

    /// Control characters: JSONEncoder's escapes against JSONValue's (neither a name nor a device can hold one).
    @Test func controlCharacters() throws {
        for scalar in (0..<0x20).map({ Unicode.Scalar(UInt8($0)) }) + [
            Unicode.Scalar(UInt8(0x7F)), Unicode.Scalar(UInt16(0x2028))!, Unicode.Scalar(UInt16(0xFEFF))!,
        ] {
            let text = "a\(Character(scalar))b"
            let old = String(decoding: try ErrorResponse(code: "x", message: text).jsonBytes(), as: UTF8.self)
            let new = String(decoding: try Components.Schemas._Error(error: .init(code: .forbidden, message: text)).jsonBytes(), as: UTF8.self)
                .replacingOccurrences(of: "forbidden", with: "x")
            if old != new { print("CONTROL U+\(String(scalar.value, radix: 16)): old \(old) new \(new)") }
        }
    }

    @Test func timing() throws {
        let views = Self.profiles()
        let clock = ContinuousClock()
        var sink = 0
        let old = try clock.measure { for _ in 0..<200 { for v in views { sink &+= try ProfileResponse(v).jsonBytes().count } } }
        let new = try clock.measure { for _ in 0..<200 { for v in views { sink &+= try Components.Schemas.Profile(v).jsonBytes().count } } }
        print("TIMING profile x\(200 * views.count): JSONEncoder DTO \(old), ContractEncoder \(new) (\(sink))")
    }
}
