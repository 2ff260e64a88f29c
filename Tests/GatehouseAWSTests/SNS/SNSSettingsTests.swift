import Foundation
import GatehouseCore
import GatehouseMessaging
import Testing

@testable import GatehouseAWS

@Suite("SNS settings and error classification")
struct SNSSettingsTests {
    static let credentials = ["AWS_ACCESS_KEY_ID": "AKIAIOSFODNN7EXAMPLE", "AWS_SECRET_ACCESS_KEY": "very-secret-key"]

    static func variable(_ environment: [String: String]) -> String? {
        do {
            _ = try SNSSettings(environment: environment)
            return nil
        } catch let error as DeliverySettingsError {
            #expect(!error.description.contains("very-secret-key"))
            return error.variable
        } catch {
            return "unexpected \(error)"
        }
    }

    static func with(_ extra: [String: String]) -> [String: String] { credentials.merging(extra) { $1 } }

    @Test("region from GATEHOUSE_SNS_REGION or AWS_REGION; the endpoint defaults to the region's; an optional sender id")
    func region() throws {
        let own = try SNSSettings(environment: Self.with(["GATEHOUSE_SNS_REGION": "eu-west-1", "AWS_REGION": "us-east-1"]))
        #expect(own.region == "eu-west-1" && own.endpoint == "https://sns.eu-west-1.amazonaws.com" && own.senderID == nil)
        #expect(own.timeout == .seconds(10))
        let shared = try SNSSettings(environment: Self.with(["AWS_REGION": "ap-southeast-2", "GATEHOUSE_SNS_SENDER_ID": "Acme2"]))
        #expect(shared.region == "ap-southeast-2" && shared.senderID == "Acme2")
        let moto = try SNSSettings(environment: Self.with(["AWS_REGION": "us-east-1", "GATEHOUSE_SNS_ENDPOINT": "http://127.0.0.1:5000/"]))
        #expect(moto.endpoint == "http://127.0.0.1:5000" && moto.credentials.secretAccessKey == "very-secret-key")
        #expect(moto.redactedAccessKeyID == "AKIA…MPLE")
        let session = try SNSSettings(environment: Self.with(["AWS_REGION": "us-east-1", "AWS_SESSION_TOKEN": "token"]))
        #expect(session.credentials.sessionToken == "token")
    }

    @Test("a missing or malformed setting names its variable and never the secret")
    func invalid() {
        #expect(Self.variable(Self.credentials) == "GATEHOUSE_SNS_REGION")
        #expect(Self.variable(Self.with(["AWS_REGION": "Frankfurt"])) == "AWS_REGION")
        #expect(Self.variable(Self.with(["GATEHOUSE_SNS_REGION": "us east 1"])) == "GATEHOUSE_SNS_REGION")
        for endpoint in ["ftp://x", "not a url", "http://", "https://user:pw@sns.example.com", "http://h/?a=b"] {
            #expect(
                Self.variable(Self.with(["AWS_REGION": "us-east-1", "GATEHOUSE_SNS_ENDPOINT": endpoint])) == "GATEHOUSE_SNS_ENDPOINT",
                "\(endpoint)"
            )
        }
        for sender in ["TooLongSender1", "12345", "Acme Inc", "Acmé"] {
            #expect(
                Self.variable(Self.with(["AWS_REGION": "us-east-1", "GATEHOUSE_SNS_SENDER_ID": sender])) == "GATEHOUSE_SNS_SENDER_ID",
                "\(sender)"
            )
        }
        #expect(Self.variable(["AWS_REGION": "us-east-1"]) == "AWS_ACCESS_KEY_ID")
        #expect(Self.variable(["AWS_REGION": "us-east-1", "AWS_ACCESS_KEY_ID": "AKIAX"]) == "AWS_SECRET_ACCESS_KEY")
    }

    static func answer(_ status: Int, _ code: String?, _ message: String = "") -> SNSTransport.Answer {
        SNSTransport.Answer(status: status, errorCode: code, message: message, body: "")
    }

    @Test("throttling, 429 and 5xx are transient; refusals are permanent; details never hold a number")
    func classification() {
        for (status, code) in [(400, "Throttled"), (429, nil), (400, "Throttling"), (500, "InternalError"), (503, nil), (502, "ServiceUnavailable")] {
            #expect(SNSTransport.classify(Self.answer(status, code), operation: "Publish").kind == .transient, "\(status) \(code ?? "")")
        }
        for (status, code) in [(400, "InvalidParameter"), (403, "AuthorizationError"), (403, "SignatureDoesNotMatch"), (404, nil), (400, "OptedOut")]
        {
            #expect(SNSTransport.classify(Self.answer(status, code), operation: "Publish").kind == .permanent, "\(status) \(code ?? "")")
        }
        let refused = SNSTransport.classify(
            Self.answer(400, "InvalidParameter", "Invalid parameter: PhoneNumber Reason: +44 7700 900123 is not valid to publish to"),
            operation: "Publish"
        )
        #expect(
            refused.detail
                == "SNS Publish failed: InvalidParameter (HTTP 400): Invalid parameter: PhoneNumber Reason: <number> is not valid to publish to"
        )
        #expect(refused.code == 400)
        let denied = SNSTransport.classify(Self.answer(403, "AuthorizationError", "User is not authorized"), operation: "Publish")
        #expect(denied.detail.contains("sns:Publish") && denied.detail.contains("credentials"))
        #expect(SNSTransport.classify(Self.answer(502, nil), operation: "Publish").detail == "SNS Publish failed: HTTP 502")
    }

    @Test("the query API's form encoding and XML answers")
    func wire() {
        #expect(SNSTransport.formEncode("Your code: 482 913 & more/é~") == "Your%20code%3A%20482%20913%20%26%20more%2F%C3%A9~")
        #expect(SNSTransport.formEncode("+447700900123") == "%2B447700900123")
        let error =
            "<ErrorResponse><Error><Type>Sender</Type><Code>InvalidParameter</Code><Message>a &lt;b&gt; &amp; c</Message></Error></ErrorResponse>"
        #expect(SNSTransport.element("Code", in: error) == "InvalidParameter" && SNSTransport.element("Message", in: error) == "a <b> & c")
        #expect(SNSTransport.element("MessageId", in: error) == nil)
        let attributes =
            "<GetSMSAttributesResult><attributes><entry><key>DefaultSMSType</key><value>Promotional</value></entry>"
            + "<entry><key>MonthlySpendLimit</key><value>1</value></entry></attributes></GetSMSAttributesResult>"
        #expect(SNSTransport.attribute("DefaultSMSType", in: attributes) == "Promotional")
        #expect(
            SNSTransport.attribute("MonthlySpendLimit", in: attributes) == "1" && SNSTransport.attribute("UsageReportS3Bucket", in: attributes) == nil
        )
    }
}
