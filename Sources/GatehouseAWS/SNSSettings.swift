import Foundation
import GatehouseCore
import GatehouseMessaging
import NIOCore

/// Where Amazon SNS is and how Gatehouse signs its calls (`GATEHOUSE_SMS=sns`).
public struct SNSSettings: Sendable, Equatable {
    /// The AWS region whose SNS sends the messages (`us-east-1`).
    public var region: String
    /// The API endpoint: `https://sns.<region>.amazonaws.com`, or an emulator's URL.
    public var endpoint: String
    /// The sender id shown on phones in the countries that support one (1–11 letters and digits), if any.
    public var senderID: String?
    /// The credentials calls are signed with (SigV4, service `sns`).
    public var credentials: SigV4Signer.Credentials
    /// How long one API call may take before it counts as a transient failure.
    public var timeout: TimeAmount

    /// Settings from their parts.
    /// - Parameters:
    ///   - region: The AWS region.
    ///   - endpoint: The API endpoint; default `https://sns.<region>.amazonaws.com`.
    ///   - senderID: The sender id, if any.
    ///   - credentials: The signing credentials.
    ///   - timeout: The limit on one call (default 10 s).
    public init(
        region: String,
        endpoint: String? = nil,
        senderID: String? = nil,
        credentials: SigV4Signer.Credentials,
        timeout: TimeAmount = .seconds(10)
    ) {
        self.region = region
        self.endpoint = endpoint ?? "https://sns.\(region).amazonaws.com"
        self.senderID = senderID
        self.credentials = credentials
        self.timeout = timeout
    }

    /// Settings from the environment: `GATEHOUSE_SNS_REGION` or else `AWS_REGION` (required),
    /// `GATEHOUSE_SNS_ENDPOINT` (optional, e.g. an emulator), `GATEHOUSE_SNS_SENDER_ID` (optional), and the
    /// credentials the SES transport and the Cognito client use (`AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`,
    /// `AWS_SESSION_TOKEN`).
    /// - Parameter environment: The process environment.
    /// - Throws: ``DeliverySettingsError`` naming the variable that is missing or malformed; never a secret.
    public init(environment: [String: String]) throws {
        func value(_ name: String) -> String? {
            environment[name].map { $0.trimmingCharacters(in: .whitespaces) }.flatMap { $0.isEmpty ? nil : $0 }
        }
        let regionVariable = value("GATEHOUSE_SNS_REGION") != nil ? "GATEHOUSE_SNS_REGION" : "AWS_REGION"
        guard let region = value(regionVariable) else {
            throw DeliverySettingsError(variable: "GATEHOUSE_SNS_REGION", "GATEHOUSE_SMS=sns needs a region: set GATEHOUSE_SNS_REGION or AWS_REGION")
        }
        guard region.range(of: #"^[a-z]{2}(-[a-z]+)+-[0-9]+$"#, options: .regularExpression) != nil else {
            throw DeliverySettingsError(variable: regionVariable, "not an AWS region (like us-east-1 or eu-west-2)")
        }
        var endpoint: String?
        if let text = value("GATEHOUSE_SNS_ENDPOINT") {
            guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host?.isEmpty == false,
                url.query == nil, url.user == nil
            else {
                throw DeliverySettingsError(
                    variable: "GATEHOUSE_SNS_ENDPOINT",
                    "not an http(s) URL with a host (like https://sns.us-east-1.amazonaws.com)"
                )
            }
            endpoint = text.hasSuffix("/") ? String(text.dropLast()) : text
        }
        let senderID = value("GATEHOUSE_SNS_SENDER_ID")
        if let senderID {
            guard (1...11).contains(senderID.count), senderID.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }),
                senderID.contains(where: \.isLetter)
            else {
                throw DeliverySettingsError(variable: "GATEHOUSE_SNS_SENDER_ID", "a sender id has 1 to 11 letters and digits, at least one a letter")
            }
        }
        guard let credentials = SigV4Signer.Credentials.fromEnvironment(environment) else {
            let missing = value("AWS_ACCESS_KEY_ID") == nil ? "AWS_ACCESS_KEY_ID" : "AWS_SECRET_ACCESS_KEY"
            throw DeliverySettingsError(variable: missing, "GATEHOUSE_SMS=sns signs its calls: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY")
        }
        self.init(region: region, endpoint: endpoint, senderID: senderID, credentials: credentials)
    }

    /// The access key id as the doctor shows it: its first 4 and last 4 characters.
    public var redactedAccessKeyID: String {
        let key = credentials.accessKeyID
        guard key.count > 8 else { return "…" + key.suffix(2) }
        return key.prefix(4) + "…" + key.suffix(4)
    }
}
