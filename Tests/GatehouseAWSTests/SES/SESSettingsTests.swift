import Foundation
import GatehouseCore
import GatehouseMessaging
import Testing

@testable import GatehouseAWS

@Suite("SES settings and error classification")
struct SESSettingsTests {
    static let credentials = ["AWS_ACCESS_KEY_ID": "AKIAIOSFODNN7EXAMPLE", "AWS_SECRET_ACCESS_KEY": "very-secret-key"]

    static func variable(_ environment: [String: String]) -> String? {
        do {
            _ = try SESSettings(environment: environment)
            return nil
        } catch let error as DeliverySettingsError {
            #expect(!error.description.contains("very-secret-key"))
            return error.variable
        } catch {
            return "unexpected \(error)"
        }
    }

    @Test("region from GATEHOUSE_SES_REGION or AWS_REGION; the endpoint defaults to the region's")
    func region() throws {
        let own = try SESSettings(environment: Self.credentials.merging(["GATEHOUSE_SES_REGION": "eu-west-1", "AWS_REGION": "us-east-1"]) { $1 })
        #expect(own.region == "eu-west-1" && own.endpoint == "https://email.eu-west-1.amazonaws.com" && own.configurationSet == nil)
        let shared = try SESSettings(
            environment: Self.credentials.merging(["AWS_REGION": "us-gov-west-1", "GATEHOUSE_SES_CONFIGURATION_SET": "gatehouse_events-1"]) { $1 }
        )
        #expect(shared.region == "us-gov-west-1" && shared.configurationSet == "gatehouse_events-1")
        let moto = try SESSettings(
            environment: Self.credentials.merging(["AWS_REGION": "us-east-1", "GATEHOUSE_SES_ENDPOINT": "http://127.0.0.1:5000/"]) { $1 }
        )
        #expect(moto.endpoint == "http://127.0.0.1:5000" && moto.credentials.secretAccessKey == "very-secret-key")
        #expect(moto.redactedAccessKeyID == "AKIA…MPLE")
    }

    @Test("a missing or malformed setting names its variable and never the secret")
    func invalid() {
        #expect(Self.variable(Self.credentials) == "GATEHOUSE_SES_REGION")
        #expect(Self.variable(Self.credentials.merging(["AWS_REGION": "Frankfurt"]) { $1 }) == "AWS_REGION")
        #expect(Self.variable(Self.credentials.merging(["GATEHOUSE_SES_REGION": "us east 1"]) { $1 }) == "GATEHOUSE_SES_REGION")
        #expect(
            Self.variable(Self.credentials.merging(["AWS_REGION": "us-east-1", "GATEHOUSE_SES_ENDPOINT": "ftp://x"]) { $1 })
                == "GATEHOUSE_SES_ENDPOINT"
        )
        #expect(
            Self.variable(Self.credentials.merging(["AWS_REGION": "us-east-1", "GATEHOUSE_SES_ENDPOINT": "not a url"]) { $1 })
                == "GATEHOUSE_SES_ENDPOINT"
        )
        #expect(
            Self.variable(Self.credentials.merging(["AWS_REGION": "us-east-1", "GATEHOUSE_SES_CONFIGURATION_SET": "bad name"]) { $1 })
                == "GATEHOUSE_SES_CONFIGURATION_SET"
        )
        #expect(Self.variable(["AWS_REGION": "us-east-1"]) == "AWS_ACCESS_KEY_ID")
        #expect(Self.variable(["AWS_REGION": "us-east-1", "AWS_ACCESS_KEY_ID": "AKIAX"]) == "AWS_SECRET_ACCESS_KEY")
    }

    static func answer(_ status: Int, _ type: String?, _ message: String = "") -> SESTransport.Answer {
        SESTransport.Answer(status: status, errorType: type, message: message, json: nil)
    }

    @Test(
        "throttling, quotas and 5xx are transient; rejections, bad requests and refused credentials are permanent",
        arguments: [
            (429, "TooManyRequestsException", DeliveryError.Kind.transient), (400, "LimitExceededException", .transient),
            (400, "Throttling", .transient), (500, "InternalFailure", .transient), (503, nil, .transient), (502, nil, .transient),
            (400, "MessageRejected", .permanent), (400, "MailFromDomainNotVerifiedException", .permanent),
            (400, "AccountSuspendedException", .permanent), (400, "BadRequestException", .permanent),
            (403, "SignatureDoesNotMatch", .permanent), (403, nil, .permanent), (404, "NotFoundException", .permanent),
        ] as [(Int, String?, DeliveryError.Kind)]
    )
    func classification(_ status: Int, _ type: String?, _ kind: DeliveryError.Kind) {
        let error = SESTransport.classify(Self.answer(status, type, "why"), operation: "SendEmail", sender: nil)
        #expect(error.kind == kind && error.code == status && error.detail.contains(type ?? "HTTP \(status)"))
    }

    @Test("a refused signature names the IAM action the call needs")
    func accessDenied() {
        let send = SESTransport.classify(Self.answer(403, "AccessDeniedException"), operation: "SendEmail", sender: nil)
        #expect(send.detail.contains("ses:SendRawEmail") && send.kind == .permanent)
        let check = SESTransport.classify(Self.answer(403, "AccessDeniedException"), operation: "GetAccount", sender: nil)
        #expect(check.detail.contains("(ses:GetAccount)"))
    }

    @Test("details keep SES's message but no address other than the sender, on one line")
    func scrubbing() {
        let message =
            "Email address is not verified. The following identities failed the check in region US-EAST-1: Victim@Example.com, no-reply@acme.example\r\nInjected: line"
        let error = SESTransport.classify(Self.answer(400, "MessageRejected", message), operation: "SendEmail", sender: "no-reply@acme.example")
        #expect(!error.detail.lowercased().contains("victim@example.com") && error.detail.contains("<address>"))
        #expect(error.detail.contains("no-reply@acme.example") && !error.detail.contains("\n") && !error.detail.contains("\r"))
    }
}
