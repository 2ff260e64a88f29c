import Foundation
import GatehouseAWS
import GatehouseCore
import GatehouseMessaging
import GatehouseTesting
import Logging
import Testing

@testable import GatehouseServer

/// `GATEHOUSE_SMS`: the outbox by default, SNS with its settings, anything else a configuration error
/// naming the variable; the factory builds the matching transport without opening anything.
@Suite("SMS configuration")
struct SMSConfigurationTests {
    static let aws = ["AWS_ACCESS_KEY_ID": "AKIAIOSFODNN7EXAMPLE", "AWS_SECRET_ACCESS_KEY": "very-secret-key"]

    @Test("the outbox by default, under <data dir>/sms")
    func outboxByDefault() throws {
        let c = try GatehouseConfiguration.fromEnvironment(["GATEHOUSE_DATA_DIR": "/var/lib/gatehouse"])
        #expect(c.sms == .outbox && c.sms.isOutbox && c.sms.redacted == "outbox")
        #expect(c.smsOutboxDirectory.path == "/var/lib/gatehouse/sms")
        let explicit = try GatehouseConfiguration.fromEnvironment(["GATEHOUSE_SMS": " Outbox "])
        #expect(explicit.sms == .outbox)
        let transport = SMSTransports.make(c, upstream: UpstreamHTTPClient(), logger: Logger(label: "t"))
        #expect(transport.name == "outbox" && (transport as? SMSOutboxTransport)?.directory.path == "/var/lib/gatehouse/sms")
    }

    @Test("sns reads the region, endpoint, sender id and AWS credentials")
    func sns() async throws {
        let c = try GatehouseConfiguration.fromEnvironment(
            Self.aws.merging([
                "GATEHOUSE_SMS": "sns", "GATEHOUSE_SNS_REGION": "eu-west-1", "GATEHOUSE_SNS_ENDPOINT": "http://127.0.0.1:4566",
                "GATEHOUSE_SNS_SENDER_ID": "Acme",
            ]) { $1 }
        )
        guard case .sns(let settings) = c.sms else {
            Issue.record("GATEHOUSE_SMS=sns gave \(c.sms)")
            return
        }
        #expect(settings.region == "eu-west-1" && settings.endpoint == "http://127.0.0.1:4566" && settings.senderID == "Acme")
        #expect(settings.credentials.accessKeyID == "AKIAIOSFODNN7EXAMPLE")
        #expect(c.sms.redacted == "sns eu-west-1 (http://127.0.0.1:4566)" && !c.sms.isOutbox)
        let upstream = UpstreamHTTPClient()
        let transport = SMSTransports.make(c, upstream: upstream, logger: Logger(label: "t"))
        #expect(transport.name == "sns" && (transport as? SNSTransport)?.settings == settings)
        try await upstream.shutdown()
        let fromAWSRegion = try GatehouseConfiguration.fromEnvironment(Self.aws.merging(["GATEHOUSE_SMS": "SNS", "AWS_REGION": "us-east-2"]) { $1 })
        #expect(fromAWSRegion.sms.redacted == "sns us-east-2 (https://sns.us-east-2.amazonaws.com)")
    }

    @Test(
        "a bad GATEHOUSE_SMS or SNS setting stops the configuration, naming the variable and never the secret",
        arguments: [
            (["GATEHOUSE_SMS": "twilio"], "GATEHOUSE_SMS"),
            (["GATEHOUSE_SMS": "sns"], "GATEHOUSE_SNS_REGION"),
            (["GATEHOUSE_SMS": "sns", "AWS_REGION": "Frankfurt"], "AWS_REGION"),
            (["GATEHOUSE_SMS": "sns", "AWS_REGION": "us-east-1", "GATEHOUSE_SNS_ENDPOINT": "ftp://x"], "GATEHOUSE_SNS_ENDPOINT"),
            (["GATEHOUSE_SMS": "sns", "AWS_REGION": "us-east-1", "GATEHOUSE_SNS_SENDER_ID": "Far Too Long"], "GATEHOUSE_SNS_SENDER_ID"),
        ]
    )
    func invalid(env: [String: String], variable: String) {
        do {
            _ = try GatehouseConfiguration.fromEnvironment(Self.aws.merging(env) { $1 })
            Issue.record("accepted \(env)")
        } catch let error as ConfigurationError {
            #expect(error.message.hasPrefix("\(variable): "), "\(error.message)")
            #expect(!error.message.contains("very-secret-key"))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test("sns without credentials names AWS_ACCESS_KEY_ID")
    func missingCredentials() {
        #expect(throws: ConfigurationError.self) {
            _ = try GatehouseConfiguration.fromEnvironment(["GATEHOUSE_SMS": "sns", "AWS_REGION": "us-east-1"])
        }
        do {
            _ = try GatehouseConfiguration.fromEnvironment(["GATEHOUSE_SMS": "sns", "AWS_REGION": "us-east-1"])
        } catch let error as ConfigurationError {
            #expect(error.message.hasPrefix("AWS_ACCESS_KEY_ID: "), "\(error.message)")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }
}
