import Foundation
import GatehouseCore
import GatehouseMessaging
import NIOCore

/// Where Amazon SES is and how Gatehouse signs its calls (`GATEHOUSE_MAIL=ses`).
public struct SESSettings: Sendable, Equatable {
    /// The AWS region whose SES sends (`us-east-1`); the sender identity must be verified there.
    public var region: String
    /// The API endpoint: `https://email.<region>.amazonaws.com`, or an emulator's URL.
    public var endpoint: String
    /// The configuration set every message is sent with (event publishing, dedicated IPs), if any.
    public var configurationSet: String?
    /// The credentials calls are signed with (SigV4, service `ses`).
    public var credentials: SigV4Signer.Credentials
    /// How long one API call may take before it counts as a transient failure.
    public var timeout: TimeAmount

    /// Settings from their parts.
    /// - Parameters:
    ///   - region: The AWS region.
    ///   - endpoint: The API endpoint; default `https://email.<region>.amazonaws.com`.
    ///   - configurationSet: The configuration set, if any.
    ///   - credentials: The signing credentials.
    ///   - timeout: The limit on one call (default 10 s).
    public init(
        region: String,
        endpoint: String? = nil,
        configurationSet: String? = nil,
        credentials: SigV4Signer.Credentials,
        timeout: TimeAmount = .seconds(10)
    ) {
        self.region = region
        self.endpoint = endpoint ?? "https://email.\(region).amazonaws.com"
        self.configurationSet = configurationSet
        self.credentials = credentials
        self.timeout = timeout
    }

    /// Settings from the environment: `GATEHOUSE_SES_REGION` or else `AWS_REGION` (required),
    /// `GATEHOUSE_SES_ENDPOINT` (optional, e.g. an emulator), `GATEHOUSE_SES_CONFIGURATION_SET` (optional),
    /// and the credentials the Cognito client uses (`AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`,
    /// `AWS_SESSION_TOKEN`).
    /// - Parameter environment: The process environment.
    /// - Throws: ``DeliverySettingsError`` naming the variable that is missing or malformed; never a secret.
    public init(environment: [String: String]) throws {
        func value(_ name: String) -> String? {
            environment[name].map { $0.trimmingCharacters(in: .whitespaces) }.flatMap { $0.isEmpty ? nil : $0 }
        }
        let regionVariable = value("GATEHOUSE_SES_REGION") != nil ? "GATEHOUSE_SES_REGION" : "AWS_REGION"
        guard let region = value(regionVariable) else {
            throw DeliverySettingsError(variable: "GATEHOUSE_SES_REGION", "GATEHOUSE_MAIL=ses needs a region: set GATEHOUSE_SES_REGION or AWS_REGION")
        }
        guard region.range(of: #"^[a-z]{2}(-[a-z]+)+-[0-9]+$"#, options: .regularExpression) != nil else {
            throw DeliverySettingsError(variable: regionVariable, "not an AWS region (like us-east-1 or eu-west-2)")
        }
        var endpoint: String?
        if let text = value("GATEHOUSE_SES_ENDPOINT") {
            guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host?.isEmpty == false,
                url.query == nil, url.user == nil
            else {
                throw DeliverySettingsError(
                    variable: "GATEHOUSE_SES_ENDPOINT",
                    "not an http(s) URL with a host (like https://email.us-east-1.amazonaws.com)"
                )
            }
            endpoint = text.hasSuffix("/") ? String(text.dropLast()) : text
        }
        let configurationSet = value("GATEHOUSE_SES_CONFIGURATION_SET")
        if let configurationSet {
            guard configurationSet.count <= 64, configurationSet.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
            else {
                throw DeliverySettingsError(
                    variable: "GATEHOUSE_SES_CONFIGURATION_SET",
                    "a configuration set name has at most 64 letters, digits, - and _"
                )
            }
        }
        guard let credentials = SigV4Signer.Credentials.fromEnvironment(environment) else {
            let missing = value("AWS_ACCESS_KEY_ID") == nil ? "AWS_ACCESS_KEY_ID" : "AWS_SECRET_ACCESS_KEY"
            throw DeliverySettingsError(variable: missing, "GATEHOUSE_MAIL=ses signs its calls: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY")
        }
        self.init(region: region, endpoint: endpoint, configurationSet: configurationSet, credentials: credentials)
    }

    /// The access key id as the doctor shows it: its first 4 and last 4 characters.
    public var redactedAccessKeyID: String {
        let key = credentials.accessKeyID
        guard key.count > 8 else { return "…" + key.suffix(2) }
        return key.prefix(4) + "…" + key.suffix(4)
    }
}
