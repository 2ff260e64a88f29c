import Foundation
import GatehouseAPI
import GatehouseCore
import GatehouseInfrastructure
import Testing

@testable import GatehouseServer

/// The answers' writer (`ContractEncoder`, over the types generated from openapi.yaml): a required
/// nullable member with no value is `null`, an optional one is left out, times are whole seconds but
/// where the schema's pattern asks for milliseconds, keys are sorted and slashes unescaped; the hand
/// encoded token answer says what the generic writer says; and every code, audit event and webhook
/// event the server can write is one the document lists.
@Suite("Contract: answers written from the generated types")
struct ContractBodyTests {
    static let instant = Date(timeIntervalSince1970: 1_795_000_000.987)  // 2026-11-18T11:06:40.987Z

    static func text(_ body: some ContractBody) throws -> String {
        String(decoding: try body.jsonBytes(), as: UTF8.self)
    }

    @Test func requiredNullableMembersAreNullAndOptionalOnesAreOmitted() throws {
        let profile = Components.Schemas.Profile(
            sub: "s",
            emailVerified: false,
            phoneVerified: false,
            identities: [.init(provider: "apple", linkedAt: Self.instant), .init(provider: "apple", linkedAt: Self.instant, isPrivateEmail: true)],
            createdAt: Self.instant,
            updatedAt: Self.instant
        )
        #expect(
            try Self.text(profile)
                == #"{"created_at":"2026-11-18T11:06:40Z","email":null,"email_verified":false,"full_name":null,"identities":[{"linked_at":"2026-11-18T11:06:40Z","provider":"apple"},{"is_private_email":true,"linked_at":"2026-11-18T11:06:40Z","provider":"apple"}],"phone":null,"phone_verified":false,"sub":"s","updated_at":"2026-11-18T11:06:40Z"}"#
        )
        let sessions = Components.Schemas.SessionList(sessions: [
            .init(id: "a", createdAt: Self.instant, device: "d", method: "password", amr: ["pwd"], current: true),
            .init(
                id: "b",
                createdAt: Self.instant,
                lastRefreshedAt: Self.instant,
                device: "d",
                clientAddress: "203.0.113.0/24",
                method: "m",
                amr: [],
                current: false
            ),
        ])
        #expect(
            try Self.text(sessions)
                == #"{"sessions":[{"amr":["pwd"],"client_address":null,"created_at":"2026-11-18T11:06:40Z","current":true,"device":"d","id":"a","last_refreshed_at":null,"method":"password"},{"amr":[],"client_address":"203.0.113.0/24","created_at":"2026-11-18T11:06:40Z","current":false,"device":"d","id":"b","last_refreshed_at":"2026-11-18T11:06:40Z","method":"m"}]}"#
        )
        // A nested object's rules apply there too, and a member the generated type cannot hold (`supabase_id`, always null) is written.
        let compat = Components.Schemas.CompatSignIn(
            idToken: "i",
            accessToken: "a",
            refreshToken: "r",
            expiresIn: 60,
            tokenType: .bearer,
            user: .init(id: "u", isActive: true, isSuperuser: false),
            isNewUser: false
        )
        #expect(
            try Self.text(compat)
                == #"{"access_token":"a","expires_in":60,"id_token":"i","is_new_user":false,"refresh_token":"r","token_type":"Bearer","user":{"email":null,"full_name":null,"id":"u","is_active":true,"is_superuser":false,"phone":null,"supabase_id":null}}"#
        )
        #expect(
            try Self.text(Components.Schemas.Tokens(idToken: "i", accessToken: "a", refreshToken: "r", expiresIn: 1, tokenType: .bearer)).contains(
                "is_new_user"
            ) == false
        )
    }

    @Test func timesAreWholeSecondsUnlessTheSchemaAsksForMilliseconds() throws {
        let entry = Components.Schemas.AuditEntry(id: "e", at: Self.instant, event: .signIn, actor: "user")
        let page = Components.Schemas.AuditPage(entries: [entry], nextCursor: nil)
        #expect(
            try Self.text(page)
                == #"{"entries":[{"actor":"user","at":"2026-11-18T11:06:40.987Z","client_address":null,"detail":null,"event":"sign_in","id":"e","request_id":null,"user_agent":null,"user_id":null}],"next_cursor":null}"#
        )
        #expect(try Self.text(entry).contains(#""at":"2026-11-18T11:06:40.987Z""#))
        let endpoint = Components.Schemas.WebhookEndpoint(id: "w", url: "https://h.example/a/b", events: [.user_created], createdAt: Self.instant)
        #expect(
            try Self.text(Components.Schemas.NewWebhookEndpoint(value1: endpoint, value2: .init(secret: "whsec_a/b")))
                == #"{"created_at":"2026-11-18T11:06:40Z","disabled_at":null,"events":["user.created"],"id":"w","secret":"whsec_a/b","url":"https://h.example/a/b"}"#
        )
        #expect(ResponseSchemas.auditPage.milliseconds == ["entries.at"] && ResponseSchemas.profile.milliseconds.isEmpty)
    }

    /// A made-up body with an optional object, an array of objects and a time, for rules the document's schemas do not combine.
    struct Sample: Encodable {
        struct Inner: Encodable {
            var b: String?
            var at: Date?
        }
        var a: Inner?
        var list: [Inner]
        var numbers: [[Int]]
    }

    @Test func rulesFollowThePathAndSkipWhatIsNotThere() throws {
        let rules = ResponseRules(nulls: ["a.b", "list.b", "missing", "numbers.x"], milliseconds: ["list.at"])
        let absent = Sample(a: nil, list: [], numbers: [[1, 2], []])
        #expect(try ContractEncoder.json(of: absent, rules: rules).serializedString() == #"{"list":[],"missing":null,"numbers":[[1,2],[]]}"#)
        let present = Sample(a: .init(at: Self.instant), list: [.init(b: "x", at: Self.instant), .init()], numbers: [])
        #expect(
            try ContractEncoder.json(of: present, rules: rules).serializedString()
                == #"{"a":{"at":"2026-11-18T11:06:40Z","b":null},"list":[{"at":"2026-11-18T11:06:40.987Z","b":"x"},{"b":null}],"missing":null,"numbers":[]}"#
        )
    }

    @Test func stringsAreWrittenAsTheContractHasThem() throws {
        let error = Components.Schemas._Error(error: .init(code: .invalidRequest, message: "Zoë ☃︎ 😀 \"q\" a\\b c/d\te\u{1}"))
        #expect(try Self.text(error) == #"{"error":{"code":"invalid_request","message":"Zoë ☃︎ 😀 \"q\" a\\b c/d\te\u0001"}}"#)
    }

    @Test(arguments: [nil, true, false] as [Bool?])
    func theHandEncodedTokenAnswerSaysWhatTheGenericWriterSays(_ isNewUser: Bool?) throws {
        let tokens = Components.Schemas.Tokens(
            AuthTokens(idToken: "a.b/c", accessToken: "d.e.f", refreshToken: "r+/=", expiresIn: 3600, isNewUser: isNewUser)
        )
        let parser = StrictJSONParser()
        #expect(try parser.parse(tokens.fastJSONBytes()) == parser.parse(tokens.jsonBytes()))
    }

    @Test func everyWireCodeIsOneTheDocumentLists() throws {
        // Every code of the core's (a new one fails here until the document lists it), but the Cognito API's
        // own `invalid_session`, which only that API's error mapping writes.
        let codes = GatehouseError.Code.all.filter { $0 != .invalidSession }
        #expect(codes.count == GatehouseError.Code.all.count - 1)
        for code in codes.map(\.rawValue) + TransportError.Code.allCases.map(\.rawValue) {
            #expect(Components.Schemas._Error._ErrorPayload.CodePayload(rawValue: code) != nil, "\(code)")
        }
        #expect(try Self.text(Components.Schemas._Error(GatehouseError(.mfaRequired, "m"))) == #"{"error":{"code":"mfa_required","message":"m"}}"#)
    }

    @Test func everyAuditAndWebhookEventIsOneTheDocumentLists() {
        for event in AuditEvent.allCases {
            #expect(Components.Schemas.AuditEvent(rawValue: event.rawValue) != nil, "\(event)")
        }
        for event in WebhookEvent.allCases {
            #expect(Components.Schemas.WebhookEvent(rawValue: event.rawValue) != nil, "\(event)")
        }
    }
}
