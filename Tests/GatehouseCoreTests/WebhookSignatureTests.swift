import Foundation
import GatehouseInfrastructure
import Testing

@testable import GatehouseCore

/// Webhook signing, secrets, event names and URL shapes (issue 30 part 1).
@Suite("Webhooks: signing, secrets, events, URL shapes")
struct WebhookSignatureTests {
    @Test func signsTheStandardWebhooksTestVector() throws {
        // The specification's libraries' vector (standard-webhooks, svix).
        let key = try #require(WebhookSignature.key(of: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"))
        let signature = WebhookSignature.sign(
            id: "msg_p5jXN8AQM9LWM0D4loKWxJek",
            timestamp: 1_614_265_330,
            body: Array(#"{"test": 2432232314}"#.utf8),
            key: key
        )
        #expect(signature == "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=")
        let other = WebhookSignature.sign(
            id: "msg_p5jXN8AQM9LWM0D4loKWxJek",
            timestamp: 1_614_265_331,
            body: Array(#"{"test": 2432232314}"#.utf8),
            key: key
        )
        #expect(other != signature, "the timestamp is signed")
    }

    @Test func secretsHaveTheSpecificationsShape() {
        let secret = WebhookSignature.generateSecret(SystemRandomSource())
        #expect(secret.hasPrefix("whsec_") && WebhookSignature.key(of: secret)?.count == 32)
        #expect(secret != WebhookSignature.generateSecret(SystemRandomSource()))
        for bad in ["", "whsec_", "whsec_!!!", "sk_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "whsec_" + Data(repeating: 1, count: 8).base64EncodedString()] {
            #expect(WebhookSignature.key(of: bad) == nil, "\(bad)")
        }
    }

    @Test func eventListsParseOrSayWhatIsWrong() throws {
        #expect(try WebhookEvent.parse(list: "user.deleted, user.created,user.created") == [.userCreated, .userDeleted])
        #expect(try WebhookEvent.parse(list: "*") == WebhookEvent.allCases)
        for bad in ["", ",", "user.exploded", "user.created,*", String(repeating: "user.created,", count: 40)] {
            #expect(throws: GatehouseError.self, "\(bad)") { try WebhookEvent.parse(list: bad) }
        }
    }

    @Test func auditEventsMapToWebhookEvents() {
        #expect(WebhookEvent(audit: .signIn) == .userSignedIn)
        #expect(WebhookEvent(audit: .signedUp) == .userCreated && WebhookEvent(audit: .userCreated) == .userCreated)
        #expect(WebhookEvent(audit: .refreshReuse) == .sessionRefreshReuseDetected)
        #expect(WebhookEvent(audit: .signInFailed) == nil && WebhookEvent(audit: .adminRead) == nil && WebhookEvent(audit: .mfaEnabled) == nil)
        let mapped = Set(AuditEvent.allCases.compactMap(WebhookEvent.init(audit:)))
        #expect(mapped == Set(WebhookEvent.allCases), "every webhook event has an audit event behind it")
    }

    @Test func payloadsCarryTheSubAndNeverTheDetailOfOtherEvents() throws {
        let origin = AuditOrigin(actor: "admin:ops", client: nil)
        let at = Date(timeIntervalSince1970: 1_700_000_000)
        let signIn = AuditEntry.make(.signIn, userID: "u1", detail: "google", origin: origin, at: at, random: SystemRandomSource())
        let payload = WebhookPayload(event: .userSignedIn, entry: signIn, email: nil)
        #expect(payload.type == "user.signed_in" && payload.timestamp == "2023-11-14T22:13:20Z")
        #expect(payload.data == ["sub": "u1", "method": "google", "actor": "admin"])
        let refused = AuditEntry.make(.passwordChanged, userID: "u1", detail: "anything", origin: .system, at: at, random: SystemRandomSource())
        #expect(
            WebhookPayload(event: .userPasswordChanged, entry: refused, email: "a@example.com").data == [
                "sub": "u1", "email": "a@example.com", "actor": "system",
            ]
        )
        #expect(
            String(decoding: try payload.encoded(), as: UTF8.self)
                == #"{"data":{"actor":"admin","method":"google","sub":"u1"},"timestamp":"2023-11-14T22:13:20Z","type":"user.signed_in"}"#
        )
    }

    @Test func urlsMustBeHTTPSOrLoopbackHTTP() throws {
        #expect(try WebhookURL.validate("https://hooks.example.com/in?x=1").host == "hooks.example.com")
        #expect(try WebhookURL.validate("http://127.0.0.1:8080/in").host == "127.0.0.1")
        #expect(try WebhookURL.validate("http://[::1]:8080/in").host == "::1")
        #expect(try WebhookURL.validate("http://localhost/in").host == "localhost")
        for bad in [
            "http://hooks.example.com/in", "ftp://hooks.example.com/", "https://", "/relative", "https://user:pw@hooks.example.com/",
            "https://hooks.example.com/#frag", "javascript:alert(1)", "https://hooks.example.com/" + String(repeating: "a", count: 2_000),
            "http://127.0.0.1.evil.example/", "http://localhost.evil.example.com/", "http://127.0.0.evil/", "http://a.localhost/",
        ] {
            #expect(throws: GatehouseError.self, "\(bad)") { try WebhookURL.validate(bad) }
        }
    }
}
