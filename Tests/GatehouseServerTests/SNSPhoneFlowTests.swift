import Foundation
import GatehouseCore
import GatehouseInfrastructure
import GatehouseMessaging
import GatehouseServer
import GatehouseTesting
import HTTPTypes
import HummingbirdTesting
import Testing

/// Phone sign-in through the real app and moto's SNS (issue 16, "done means"): `GATEHOUSE_SMS=sns` with
/// `GATEHOUSE_SNS_ENDPOINT` at the emulator, the delivery service running in the background, the codes
/// read from the texts moto kept — on the native API and on the seed's `/api/v1/auth/otp/*`.
@Suite(
    "Phone sign-in over SNS (moto)",
    .serialized,
    .enabled(if: MotoSNS.isAvailable),
    .tags(.emulator),
    .enabled(if: TestKind.runs("emulator")),
    .tags(.integration),
    .enabled(if: TestKind.runs("integration"))
)
struct SNSPhoneFlowTests {
    /// The app configured for moto's SNS from the environment.
    static func start(_ moto: MotoSNS, compat: Bool = false) async throws -> TestApp {
        var environment = moto.environment
        environment["GATEHOUSE_SMS_COUNTRIES"] = "GB"
        let read = try GatehouseConfiguration.fromEnvironment(environment)
        guard case .sns = read.sms else { throw GatehouseError.internalError(cause: "GATEHOUSE_SMS did not select SNS") }
        return try await TestApp.make(mail: .configured) { configuration in
            configuration.sms = read.sms
            configuration.smsCountries = read.smsCountries
            configuration.compatAPIV1 = compat
        }
    }

    /// A fresh number in the UK's drama range, different on each call.
    static func number() -> String { "+447700900\(String(format: "%03d", Int.random(in: 0...999)))" }

    /// The texts moto holds for `number`, once the delivery service is idle.
    static func texts(_ app: TestApp, _ moto: MotoSNS, to number: String) async throws -> [MotoSNS.SMS] {
        await app.built.messageDelivery.waitUntilIdle()
        return try await moto.sent().filter { $0.phoneNumber == number }
    }

    @Test("the code in the text moto kept signs in, and signs in to the same account the second time")
    func signInTwice() async throws {
        let moto = try #require(MotoSNS.shared)
        let app = try await Self.start(moto)
        let number = Self.number()
        try await app.live { client in
            #expect(try await client.send(.post, "/auth/phone/send", json: ["phone": .string(number)]).status == .ok)
            var texts = try await Self.texts(app, moto, to: number)
            try #require(texts.count == 1, "moto holds \(texts.count) texts for the number")
            #expect(texts[0].attributes["AWS.SNS.SMS.SMSType"] == ["String", "Transactional"])
            #expect(texts[0].message.contains("Gatehouse sign-in code"))
            let first = try await client.send(
                .post,
                "/auth/phone/verify",
                json: ["phone": .string(number), "code": .string(try #require(CapturingSMS.code(in: texts[0].message)))]
            )
            #expect(first.status == .ok && first["is_new_user"] == .bool(true))

            app.clock.advance(by: 61)
            #expect(try await client.send(.post, "/auth/phone/send", json: ["phone": .string(number)]).status == .ok)
            texts = try await Self.texts(app, moto, to: number)
            try #require(texts.count == 2)
            let second = try await client.send(
                .post,
                "/auth/phone/verify",
                json: ["phone": .string(number), "code": .string(try #require(CapturingSMS.code(in: texts[1].message)))]
            )
            #expect(second.status == .ok && second["is_new_user"] == .bool(false))
            let a = try await client.send(.get, "/me", bearer: first.string("access_token"))
            let b = try await client.send(.get, "/me", bearer: second.string("access_token"))
            #expect(a["sub"] != nil && a["sub"] == b["sub"] && b["phone"] == .string(number))
        }
    }

    @Test("the seed's /api/v1/auth/otp/send and /otp/verify sign in through SNS")
    func seedOTP() async throws {
        let moto = try #require(MotoSNS.shared)
        let app = try await Self.start(moto, compat: true)
        let number = Self.number()
        try await app.live { client in
            let sent = try await client.send(.post, "/api/v1/auth/otp/send", json: ["phone": .string(number)])
            #expect(sent.status == .ok && sent["message"] != nil)
            let texts = try await Self.texts(app, moto, to: number)
            try #require(texts.count == 1)
            let code = try #require(CapturingSMS.code(in: texts[0].message))
            let verified = try await client.send(.post, "/api/v1/auth/otp/verify", json: ["phone": .string(number), "token": .string(code)])
            #expect(verified.status == .ok && verified["is_new_user"] == .bool(true))
            #expect(verified["user"]?.objectValue?["phone"] == .string(number))
        }
    }
}
