import Foundation
import GatehouseCore
import GatehouseInfrastructure
import GatehouseMessaging
import GatehouseServer
import GatehouseTesting
import HTTPTypes
import HummingbirdTesting
import Logging
import Testing

/// Phone sign-in through the real app over a socket (issue 16): the configured SMS sender behind the
/// durable queue — the outbox's files, and Amazon SNS on moto — and the HTTP refusals.
@Suite("Phone sign-in over HTTP: the outbox, hostile input, the quotas", .tags(.integration), .enabled(if: TestKind.runs("integration")))
struct PhoneFlowTests {
    static let countries = SMSCountryPolicy(allowedCountries: ["US", "CA", "GB"])

    /// The texts the outbox wrote, oldest first, as (file name, contents).
    static func outbox(_ app: TestApp) async throws -> [(name: String, text: String)] {
        await app.built.messageDelivery.waitUntilIdle()
        let directory = app.directory.appendingPathComponent("sms")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".txt") }.sorted()
        return try names.map { ($0, try String(contentsOf: directory.appendingPathComponent($0), encoding: .utf8)) }
    }

    @Test(arguments: TestDatabase.available)
    func theOutboxJourneySignsUpSignsInAndShowsTheNumber(_ database: TestDatabase) async throws {
        let app = try await TestApp.make(database: database, mail: .configured) { $0.smsCountries = Self.countries }
        try await app.live { client in
            let number = "+14155550123"
            let sent = try await client.send(.post, "/auth/phone/send", json: ["phone": "+1 (415) 555-0123"])
            #expect(sent.status == .ok && sent.headers[.cacheControl] == "no-store")
            #expect(sent["code_delivery"] == ["medium": "SMS", "destination": "+14…23"])
            let files = try await Self.outbox(app)
            try #require(files.count == 1)
            #expect(files[0].name.hasSuffix("-phone_sign_in.txt") && files[0].text.hasPrefix("To: \(number)\n"))
            let code = try #require(CapturingSMS.code(in: files[0].text))
            let signedIn = try await client.send(.post, "/auth/phone/verify", json: ["phone": .string(number), "code": .string(code)])
            #expect(signedIn.status == .ok && signedIn["is_new_user"] == .bool(true))
            let replay = try await client.send(.post, "/auth/phone/verify", json: ["phone": .string(number), "code": .string(code)])
            #expect(replay.status == .badRequest && replay.errorCode == "code_mismatch", "a code signs in once")
            let me = try await client.send(.get, "/me", bearer: signedIn.string("access_token"))
            #expect(me.status == .ok && me["phone"] == .string(number) && me["phone_verified"] == .bool(true) && me["email"] == .null)
            #expect(me["identities"]?.arrayValue?.first?.objectValue?["provider"] == "phone")
        }
    }

    @Test func hostileBodiesGetAClearErrorAndSendNothing() async throws {
        let app = try await TestApp.make { $0.smsCountries = Self.countries }
        try await app.live { client in
            let bodies: [(String, String)] = [
                (#"{"phone": 14155550123}"#, "invalid_request"),
                (#"{"phone": ["+14155550123"]}"#, "invalid_request"),
                (#"{"phone": null}"#, "invalid_request"),
                (#"{}"#, "invalid_request"),
                (#"{"phone": "+14155550123", "phone": "+447700900123"}"#, "invalid_request"),
                (#"{"phone": "+1415555\u0000123"}"#, "invalid_request"),
                (#"["+14155550123"]"#, "invalid_request"),
                (#"{"phone": "+14155550123""#, "invalid_request"),
                (#"{"phone": ""# + String(repeating: "1", count: 65) + #""}"#, "invalid_request"),
                (#"{"phone": "+33612345678"}"#, "invalid_request"),
                (#"{"phone": "+19005550123"}"#, "invalid_request"),
            ]
            for (body, code) in bodies {
                let reply = try await client.send(.post, "/auth/phone/send", raw: body)
                #expect(reply.status == .badRequest && reply.errorCode == code, "\(body): \(reply.status) \(reply.bodyText)")
                #expect(!reply.bodyText.contains("612345678") && !reply.bodyText.contains("5550123"), "no number echoed: \(reply.bodyText)")
            }
            let verify = try await client.send(.post, "/auth/phone/verify", raw: #"{"phone": "+14155550123", "code": 123456}"#)
            #expect(verify.status == .badRequest && verify.errorCode == "invalid_request")
            let plain = try await client.send(.post, "/auth/phone/send", raw: #"{"phone": "+14155550123"}"#, contentType: "text/plain")
            #expect(plain.status == .unsupportedMediaType)
            #expect(await app.texts.delivered.isEmpty)
        }
    }

    @Test func aFloodIsRefusedWith429AndRetryAfter() async throws {
        let app = try await TestApp.make { $0.smsCountries = Self.countries }
        try await app.live { client in
            let first = try await client.send(.post, "/auth/phone/send", json: ["phone": "+14155550123"])
            #expect(first.status == .ok)
            for _ in 0..<5 {
                let again = try await client.send(.post, "/auth/phone/send", json: ["phone": "+14155550123"])
                #expect(again.status == .tooManyRequests && again.errorCode == "too_many_requests")
                let wait = Int(again.headers[.retryAfter] ?? "") ?? 0
                #expect((1...60).contains(wait), "Retry-After \(wait)")
            }
            #expect(await app.texts.texts(to: "+14155550123").count == 1)
        }
    }

    @Test func phoneSignInAnswers403WhenNoCountryIsAllowed() async throws {
        let app = try await TestApp.make()
        try await app.live { client in
            for (path, body) in [
                ("/auth/phone/send", ["phone": "+14155550123"]), ("/auth/phone/verify", ["phone": "+14155550123", "code": "123456"]),
            ] as [(String, JSONValue)] {
                let reply = try await client.send(.post, path, json: body)
                #expect(reply.status == .forbidden && reply.errorCode == "provider_disabled", "\(path)")
            }
        }
    }

    @Test func theDoctorWarnsWhenTextsWouldOnlyReachTheOutbox() async throws {
        var c = GatehouseConfiguration()
        c.dataDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("doctor-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: c.dataDirectory) }
        let logger = Logger(label: "doctor-test")
        #expect(await Doctor.run(configuration: c, logger: logger).finding("sms.countries") == nil, "phone sign-in off: nothing to say")
        c.smsCountries = Self.countries
        let outbox = await Doctor.run(configuration: c, logger: logger).finding("sms.countries")
        #expect(outbox?.severity == .warning && outbox?.summary.contains("CA, GB, US") == true, "\(String(describing: outbox))")
    }

    @Test func theSettingsAreReadFromTheEnvironment() throws {
        let off = try GatehouseConfiguration.fromEnvironment([:])
        #expect(off.smsCountries.isEnabled == false)
        let on = try GatehouseConfiguration.fromEnvironment([
            "GATEHOUSE_SMS_COUNTRIES": "US, ca,GB,+353", "GATEHOUSE_SMS_DAILY_LIMIT": "50", "GATEHOUSE_SMS_PREFIX_HOURLY_CAP": "5",
            "GATEHOUSE_SMS_COOLDOWN": "5",
        ])
        #expect(on.pool.rateLimits.smsPerNumber.window == 5)
        #expect(on.smsCountries.allowedCountries == ["US", "CA", "GB", "IE"])
        #expect(on.pool.rateLimits.smsDaily.freeAttempts == 50 && on.pool.rateLimits.smsPerPrefix.freeAttempts == 5)
        for bad in [
            ["GATEHOUSE_SMS_COUNTRIES": "3"], ["GATEHOUSE_SMS_COUNTRIES": "44,abc"], ["GATEHOUSE_SMS_COUNTRIES": "1,44"],
            ["GATEHOUSE_SMS_DAILY_LIMIT": "0"],
        ] {
            #expect(throws: ConfigurationError.self, "\(bad)") { try GatehouseConfiguration.fromEnvironment(bad) }
        }
    }
}
