import Foundation
import GatehouseAPI
import GatehouseInfrastructure
import Testing

@testable import GatehouseCore
@testable import GatehouseServer

/// TEMPORARY (deleted with AdminRendering): the admin API's and the second factor's bodies from the generated types against the JSONValue builders.
extension ResponseBytesMigrationTests {
    static func users() -> [UserRecord] {
        var users: [UserRecord] = []
        for (i, name) in names.enumerated() {
            for date in dates {
                users.append(
                    UserRecord(
                        id: "u-\(i)",
                        email: i % 2 == 0 ? nil : "ü\(i)@example.com",
                        emailKey: nil,
                        emailVerified: i % 3 == 0,
                        passwordHash: nil,
                        confirmed: i % 2 == 1,
                        name: name,
                        phone: i == 2 ? "+14155550123" : nil,
                        createdAt: date,
                        updatedAt: date.addingTimeInterval(1.5),
                        disabledAt: i % 3 == 1 ? date.addingTimeInterval(0.25) : nil
                    )
                )
            }
        }
        return users
    }

    @Test func adminBodies() throws {
        let users = Self.users()
        for cursor: String? in [nil, "c/ur"] {
            for count in [0, 1, users.count] {
                let page = Array(users.prefix(count))
                let old = JSONValue.object([
                    "users": .array(page.map { .object(AdminRendering.user($0)) }), "next_cursor": AdminRendering.optional(cursor),
                ])
                let new = Components.Schemas.AdminUserPage(users: page.map(Components.Schemas.AdminUser.init), nextCursor: cursor)
                #expect(old.serializedString() == String(decoding: try new.jsonBytes(), as: UTF8.self))
            }
        }
        for (i, user) in users.enumerated() {
            #expect(JSONValue.object(AdminRendering.user(user)).serialized() == (try Components.Schemas.AdminUser(user).jsonBytes()))
            let date = Self.dates[i % Self.dates.count]
            let passkeys = [
                PasskeyRecord(
                    id: "pk1",
                    userID: user.id,
                    publicKey: "x",
                    signCount: 3,
                    transports: ["internal", "hybrid"],
                    backupEligible: true,
                    backedUp: i % 2 == 0,
                    name: "Zoë's iPhone",
                    createdAt: date,
                    lastUsedAt: i % 2 == 0 ? nil : date.addingTimeInterval(7.7),
                    flaggedAt: i == 3 ? date : nil
                ),
                PasskeyRecord(
                    id: "pk2",
                    userID: user.id,
                    publicKey: "y",
                    signCount: 0,
                    transports: [],
                    backupEligible: false,
                    backedUp: false,
                    name: "",
                    createdAt: date
                ),
            ]
            let identities = [
                IdentityRecord(provider: "password", providerSubject: "s", userID: user.id, email: nil, emailVerified: true, linkedAt: date),
                IdentityRecord(
                    provider: "apple",
                    providerSubject: "a",
                    userID: user.id,
                    email: nil,
                    emailVerified: true,
                    linkedAt: date.addingTimeInterval(3.3),
                    isPrivateEmail: i % 2 == 0,
                    emailForwarding: i == 1 ? false : nil
                ),
            ]
            let profile =
                i % 2 == 0
                ? nil
                : ProfileRecord(sub: user.id, email: nil, emailVerified: false, fullName: nil, isSuperuser: i == 3, createdAt: date, updatedAt: date)
            let details = AdminUserDetails(
                user: user,
                profile: profile,
                identities: i == 0 ? [] : identities,
                activeSessionIDs: i == 0 ? [] : ["s1", "s2"],
                passkeys: i == 0 ? [] : passkeys,
                mfaEnabled: i % 2 == 1
            )
            #expect(
                AdminRendering.details(details).serializedString()
                    == String(decoding: try Components.Schemas.AdminUserDetails(details).jsonBytes(), as: UTF8.self)
            )
        }
        var entries: [AuditEntry] = []
        for (i, event) in AuditEvent.allCases.enumerated() {
            let date = Self.dates[i % Self.dates.count].addingTimeInterval(Double(i) * 0.001)
            entries.append(
                AuditEntry(
                    id: "e\(i)",
                    at: date,
                    event: event,
                    userID: i % 2 == 0 ? nil : "u",
                    actor: "admin:ü",
                    detail: Self.names[i % Self.names.count],
                    clientAddress: i % 3 == 0 ? nil : "203.0.113.9",
                    userAgent: i % 4 == 0 ? nil : "curl/8 \"x\"",
                    requestID: i % 5 == 0 ? nil : "r"
                )
            )
        }
        for cursor: String? in [nil, "e9"] {
            let old = JSONValue.object(["entries": .array(entries.map(AdminRendering.entry)), "next_cursor": AdminRendering.optional(cursor)])
            let new = Components.Schemas.AuditPage(entries: try entries.map(Components.Schemas.AuditEntry.init), nextCursor: cursor)
            #expect(old.serializedString() == String(decoding: try new.jsonBytes(), as: UTF8.self))
        }
        var endpoints: [WebhookEndpointRecord] = []
        for (i, date) in Self.dates.enumerated() {
            endpoints.append(
                WebhookEndpointRecord(
                    id: "w\(i)",
                    url: "https://hooks.example.com/a/b?c=d",
                    events: Array(WebhookEvent.allCases.prefix(i * 5 + 1)),
                    sealedSecret: "s",
                    createdAt: date,
                    disabledAt: i == 1 ? date.addingTimeInterval(2) : nil
                )
            )
        }
        let oldList = JSONValue.object(["endpoints": .array(endpoints.map { .object(AdminController.render($0)) })])
        let newList = Components.Schemas.WebhookEndpointList(endpoints: try endpoints.map(Components.Schemas.WebhookEndpoint.init))
        #expect(oldList.serializedString() == String(decoding: try newList.jsonBytes(), as: UTF8.self))
        for endpoint in endpoints {
            var fields = AdminController.render(endpoint)
            fields["secret"] = .string("whsec_abc+/=")
            let new = Components.Schemas.NewWebhookEndpoint(value1: try .init(endpoint), value2: .init(secret: "whsec_abc+/="))
            #expect(JSONValue.object(fields).serialized() == (try new.jsonBytes()))
        }
        for ended in [0, 1, 12345] {
            #expect(
                JSONValue.object(["sessions_ended": .number(Double(ended))]).serialized()
                    == (try Components.Schemas.AdminSignOut(sessionsEnded: ended).jsonBytes())
            )
        }
    }

    @Test func secondFactorBodies() throws {
        for date: Date? in [nil] + Self.dates {
            for left in [0, 7, 10] {
                let status = SecondFactor.Status(enabled: date != nil, enabledAt: date, recoveryCodesLeft: left)
                let old = JSONValue.object([
                    "totp_enabled": .bool(status.enabled),
                    "totp_enabled_at": status.enabledAt.map { .string(ContractTimestamp.string($0)) } ?? .null,
                    "recovery_codes_left": .number(Double(status.recoveryCodesLeft)),
                ])
                #expect(old.serialized() == (try Components.Schemas.SecondFactorStatus(status).jsonBytes()))
            }
        }
        let enrolment = SecondFactor.Enrolment(
            secret: "JBSWY3DPEHPK3PXP",
            uri: "otpauth://totp/Gatehouse:a%40b.com?secret=JBSWY3DPEHPK3PXP&issuer=Gatehouse"
        )
        let oldEnrolment = JSONValue.object(["secret": .string(enrolment.secret), "otpauth_uri": .string(enrolment.uri)])
        #expect(oldEnrolment.serialized() == (try Components.Schemas.AuthenticatorAppEnrolment(enrolment).jsonBytes()))
        let codes = (0..<10).map { "code-\($0)" }
        #expect(
            JSONValue.object(["recovery_codes": .array(codes.map(JSONValue.string))]).serialized()
                == (try Components.Schemas.RecoveryCodes(recoveryCodes: codes).jsonBytes())
        )
    }
}
