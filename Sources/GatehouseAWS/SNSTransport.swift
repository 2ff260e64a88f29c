import AsyncHTTPClient
import Foundation
import GatehouseCore
import GatehouseMessaging
import Logging
import NIOCore

/// Sends text messages through Amazon SNS `Publish` to a phone number (`GATEHOUSE_SMS=sns`): the query
/// API (a form-encoded `POST`, `Action=Publish`), signed with SigV4 (service `sns`), with the message
/// attribute `AWS.SNS.SMS.SMSType=Transactional` and, when configured, `AWS.SNS.SMS.SenderID`.
/// Throttling, 5xx answers, timeouts and connection failures are transient; a refused number or message,
/// a bad request and refused credentials or permissions are permanent.
public final class SNSTransport: SMSTransport {
    /// `sns`.
    public let name = "sns"
    /// Where SNS is and how calls are signed.
    public let settings: SNSSettings
    let http: @Sendable () throws -> HTTPClient
    let logger: Logger

    /// A transport on a shared HTTP client (the server's, created on first use).
    /// - Parameters:
    ///   - settings: Region, endpoint, sender id and credentials.
    ///   - httpClient: Supplies the shared client; the transport never shuts it down.
    ///   - logger: For a debug line per message (kind, id and SNS's message id; never the number or the text).
    public init(settings: SNSSettings, httpClient: @escaping @Sendable () throws -> HTTPClient, logger: Logger) {
        self.settings = settings
        self.http = httpClient
        self.logger = logger
    }

    /// A transport on `httpClient`.
    /// - Parameters:
    ///   - settings: Region, endpoint, sender id and credentials.
    ///   - httpClient: The client; the transport never shuts it down.
    ///   - logger: For a debug line per message.
    public convenience init(settings: SNSSettings, httpClient: HTTPClient, logger: Logger) {
        self.init(settings: settings, httpClient: { httpClient }, logger: logger)
    }

    /// The form fields of `Publish` for `sms`, in the order they are sent.
    /// - Parameter sms: The message.
    /// - Returns: `Action`, `Version`, `PhoneNumber`, `Message` and the message attributes.
    func publishFields(_ sms: OutgoingSMS) -> [(String, String)] {
        var fields: [(String, String)] = [("Action", "Publish"), ("Version", "2010-03-31"), ("PhoneNumber", sms.to), ("Message", sms.text)]
        var attributes = [("AWS.SNS.SMS.SMSType", "Transactional")]
        if let senderID = settings.senderID { attributes.append(("AWS.SNS.SMS.SenderID", senderID)) }
        for (index, (name, value)) in attributes.enumerated() {
            let prefix = "MessageAttributes.entry.\(index + 1)."
            fields += [(prefix + "Name", name), (prefix + "Value.DataType", "String"), (prefix + "Value.StringValue", value)]
        }
        return fields
    }

    /// Sends one message with `Publish` to its phone number.
    /// - Parameter sms: The message and its E.164 recipient.
    /// - Throws: ``DeliveryError``: transient or permanent as the type documents; the detail is SNS's
    ///   error code and message with phone numbers removed.
    public func send(_ sms: OutgoingSMS) async throws {
        let answer = try await call(publishFields(sms), operation: "Publish")
        guard (200..<300).contains(answer.status) else { throw Self.classify(answer, operation: "Publish") }
        logger.debug(
            "SMS sent through SNS",
            metadata: [
                "message.kind": .string(sms.kind), "message.id": .string(sms.id),
                "sns.message_id": .string(Self.element("MessageId", in: answer.body) ?? "?"),
            ]
        )
    }

    /// A harmless signed call: `GetSMSAttributes` (the account's SMS settings). Sends nothing.
    /// - Returns: One line saying where SNS answered and with which key, and the account's default SMS type
    ///   and monthly spend limit when SNS reports them.
    /// - Throws: ``DeliveryError`` naming the call that failed and why.
    public func check() async throws -> [String] {
        let answer = try await call([("Action", "GetSMSAttributes"), ("Version", "2010-03-31")], operation: "GetSMSAttributes")
        guard (200..<300).contains(answer.status) else { throw Self.classify(answer, operation: "GetSMSAttributes") }
        var lines = ["SNS \(settings.region) reachable at \(settings.endpoint), signed as \(settings.redactedAccessKeyID)"]
        if let limit = Self.attribute("MonthlySpendLimit", in: answer.body) { lines.append("monthly SMS spend limit: \(limit) USD") }
        if let type = Self.attribute("DefaultSMSType", in: answer.body) {
            lines.append("default SMS type: \(type) (Gatehouse sends Transactional)")
        }
        if let senderID = settings.senderID { lines.append("sender id \(senderID) (shown where the country supports one)") }
        return lines
    }

    /// Nothing to close: the HTTP client is shared and shut down by its owner.
    public func shutdown() async {}
}
