import AsyncHTTPClient
import Foundation
import GatehouseCore
import GatehouseInfrastructure
import GatehouseMessaging
import Logging
import NIOCore
import NIOHTTP1

/// Sends mail through Amazon SES v2 `SendEmail` with the raw MIME message (`GATEHOUSE_MAIL=ses`),
/// signed with SigV4 (service `ses`). Throttling, 5xx answers, timeouts and connection failures are
/// transient (the delivery service retries); a rejected message, an unverified sender, a suspended
/// account, a bad request or refused credentials are permanent.
public final class SESTransport: MailTransport {
    /// `ses`.
    public let name = "ses"
    /// Where SES is and how calls are signed.
    public let settings: SESSettings
    let http: @Sendable () throws -> HTTPClient
    let logger: Logger

    /// A transport on a shared HTTP client (the server's, created on first use).
    /// - Parameters:
    ///   - settings: Region, endpoint, configuration set and credentials.
    ///   - httpClient: Supplies the shared client; the transport never shuts it down.
    ///   - logger: For a debug line per message (kind, id and SES's message id; never the recipient).
    public init(settings: SESSettings, httpClient: @escaping @Sendable () throws -> HTTPClient, logger: Logger) {
        self.settings = settings
        self.http = httpClient
        self.logger = logger
    }

    /// A transport on `httpClient`.
    /// - Parameters:
    ///   - settings: Region, endpoint, configuration set and credentials.
    ///   - httpClient: The client; the transport never shuts it down.
    ///   - logger: For a debug line per message.
    public convenience init(settings: SESSettings, httpClient: HTTPClient, logger: Logger) {
        self.init(settings: settings, httpClient: { httpClient }, logger: logger)
    }

    /// Sends one message with `SendEmail` (`Content.Raw`).
    /// - Parameter mail: The rendered message and its envelope.
    /// - Throws: ``DeliveryError``: transient or permanent as the type documents; the detail is SES's
    ///   error type and message with every address but the sender's removed.
    public func send(_ mail: OutgoingMail) async throws {
        var input: [String: JSONValue] = [
            "FromEmailAddress": .string(mail.sender),
            "Destination": .object(["ToAddresses": .array([.string(mail.recipient)])]),
            "Content": .object(["Raw": .object(["Data": .string(Data(mail.data).base64EncodedString())])]),
        ]
        if let set = settings.configurationSet { input["ConfigurationSetName"] = .string(set) }
        let answer = try await call("POST", "/v2/email/outbound-emails", body: JSONValue.object(input).serialized(), operation: "SendEmail")
        guard (200..<300).contains(answer.status) else {
            throw Self.classify(answer, operation: "SendEmail", sender: mail.sender)
        }
        logger.debug(
            "mail sent through SES",
            metadata: [
                "message.kind": .string(mail.kind), "message.id": .string(mail.id),
                "ses.message_id": .string(answer.json?["MessageId"]?.stringValue ?? "?"),
            ]
        )
    }

    /// A harmless signed call: `GetAccount` (sending status, sandbox, quota); an emulator without it is
    /// asked `ListEmailIdentities`. With a configuration set, `GetConfigurationSet` too. Sends nothing.
    /// - Returns: One line per check that passed.
    /// - Throws: ``DeliveryError`` naming the call that failed and why.
    public func check() async throws -> [String] {
        var lines: [String] = []
        let signedAs = "signed as \(settings.redactedAccessKeyID)"
        let account = try await call("GET", "/v2/email/account", operation: "GetAccount")
        if (200..<300).contains(account.status), let json = account.json {
            lines.append("SES \(settings.region) reachable at \(settings.endpoint), \(signedAs)")
            lines += Self.describeAccount(json)
        } else if account.status == 404, account.errorType == nil {
            // An emulator (moto) without GetAccount.
            let identities = try await call("GET", "/v2/email/identities", operation: "ListEmailIdentities")
            guard (200..<300).contains(identities.status) else { throw Self.classify(identities, operation: "ListEmailIdentities", sender: nil) }
            lines.append("SES \(settings.region) reachable at \(settings.endpoint), \(signedAs) (ListEmailIdentities; GetAccount not offered)")
        } else {
            throw Self.classify(account, operation: "GetAccount", sender: nil)
        }
        if let set = settings.configurationSet {
            let answer = try await call("GET", "/v2/email/configuration-sets/\(set)", operation: "GetConfigurationSet")
            guard (200..<300).contains(answer.status) else { throw Self.classify(answer, operation: "GetConfigurationSet \(set)", sender: nil) }
            lines.append("configuration set \(set) exists")
        }
        return lines
    }

    /// Nothing to close: the HTTP client is shared and shut down by its owner.
    public func shutdown() async {}

    static func describeAccount(_ json: [String: JSONValue]) -> [String] {
        var lines: [String] = []
        if case .bool(let enabled)? = json["SendingEnabled"] {
            lines.append(enabled ? "sending enabled" : "sending is DISABLED for this account (see the SES console)")
        }
        if case .bool(let production)? = json["ProductionAccessEnabled"] {
            lines.append(
                production
                    ? "production access (out of the sandbox)"
                    : "in the SES sandbox: only verified recipients receive mail; request production access"
            )
        }
        if case .object(let quota)? = json["SendQuota"], case .number(let max)? = quota["Max24HourSend"],
            case .number(let rate)? = quota["MaxSendRate"]
        {
            let sent: Double = if case .number(let value)? = quota["SentLast24Hours"] { value } else { 0 }
            lines.append("quota: \(Int(max)) messages per 24 h at \(Int(rate))/s, \(Int(sent)) sent in the last 24 h")
        }
        return lines
    }
}
